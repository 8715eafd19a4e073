// Time from pressing "Pay" to the receipt page, with the approving test card (4242 4242 4242 4242),
// in the system Chromium against a running production server with the demo data seeded:
//
//   PORT=3305 node scripts/db/run-with-db.mjs --data .test-data/bench --fresh --migrate --seed node dist/server.mjs &
//   node bench/checkout.bench.mjs http://localhost:3305 [runs]
//
// Each run signs up a new owner (a fresh organization, so no run finds its plan already active).
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";

const [base = "http://localhost:3000", runsArg = "5"] = process.argv.slice(2);
const runs = Number(runsArg);
const browser = await chromium.launch(chromiumLaunchOptions);
const times = [];
for (let i = 0; i < runs + 1; i++) {
  const context = await browser.newContext();
  const email = `bench-${Date.now().toString(36)}-${i}@example.com`;
  const signUp = await context.request.post(`${base}/api/auth/sign-up/email`, {
    data: { name: "Bench Owner", email, password: "a-long-unusual-passphrase" },
    headers: { Origin: base },
  });
  if (!signUp.ok()) throw new Error(`sign-up failed: HTTP ${signUp.status()}`);
  const page = await context.newPage();
  // Onboarding, the short way: profile, a new organization, preferences, the Free plan.
  await page.goto(`${base}/onboarding`);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Organization name").fill(`Bench ${i}`);
  await page.getByLabel("Slug").fill(`bench-${Date.now().toString(36)}-${i}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.getByRole("heading", { name: "Preferences", exact: true }).waitFor();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Start free" }).click();
  await page.waitForURL(/\/dashboard/);

  await page.goto(`${base}/checkout?plan=pro&interval=monthly&currency=JPY`);
  await page.getByLabel("Country").click();
  await page.getByRole("combobox", { name: "Search countries" }).fill("Japan");
  await page.getByRole("option", { name: "Japan", exact: true }).click();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  const start = performance.now();
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.getByTestId("receipt-total").waitFor();
  const ms = performance.now() - start;
  if (i > 0) times.push(ms); // the first run warms the server up
  await context.close();
}
await browser.close();
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `submit → receipt with 4242…: median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms over ${times.length} runs`,
);
