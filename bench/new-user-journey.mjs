// A newcomer's first session, timed: `npm start` in a checkout (building first when there is no
// build), then in Chromium as a person would: sign up, read the confirmation code from the
// terminal, type it, onboard, choose Pro, pay with a test card, see the receipt, create an API key
// and invite a colleague. Prints one line per step with the time since `npm start` began.
//
//   node bench/new-user-journey.mjs [--dir CHECKOUT] [--port 3400]
//
// CHECKOUT is a clone with node_modules installed; its ./.data is created by `npm start` (use a
// clone whose .data does not exist yet to time a first start). The server is stopped at the end.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { chromium } from "playwright";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";

const { values } = parseArgs({
  options: { dir: { type: "string", default: process.cwd() }, port: { type: "string", default: "3400" } },
});
const base = `http://localhost:${values.port}`;
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const step = (name) => console.log(`${seconds().padStart(7)} s  ${name}`);

let terminal = "";
const server = spawn("npm", ["start"], {
  cwd: values.dir,
  env: { ...process.env, PORT: values.port, APP_URL: base, NEXT_TELEMETRY_DISABLED: "1" },
  stdio: ["ignore", "pipe", "pipe"],
  detached: true,
});
server.stdout.on("data", (chunk) => {
  terminal += chunk;
});
server.stderr.on("data", (chunk) => {
  terminal += chunk;
});
const stop = () => {
  try {
    process.kill(-server.pid, "SIGINT");
  } catch {}
};
process.on("exit", stop);

async function ready() {
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    if (server.exitCode !== null) throw new Error(`npm start exited:\n${terminal.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The code in the terminal's `[mail]` line for `email`, as a newcomer reads it. */
async function codeFromTerminal(email) {
  const pattern = new RegExp(`\\[mail\\][^\\n]*\\(to ${email.replace(/[.+]/g, "\\$&")}\\): code (\\d{6})`);
  for (let waited = 0; waited < 20_000; waited += 100) {
    const match = pattern.exec(terminal);
    if (match) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no [mail] line with a code in the terminal");
}

await ready();
step("npm start: the app answers");
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(30_000);
  const email = `newcomer-${Date.now().toString(36)}@example.com`;

  await page.goto(`${base}/pricing`);
  await page.getByRole("link", { name: "Choose Pro" }).first().click();
  await page.waitForURL(/\/sign-in/);
  await page
    .getByRole("link", { name: /create an account|sign up/i })
    .first()
    .click();
  await page.waitForURL(/\/sign-up/);
  await page.getByLabel("Name").fill("Nora Newcomer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a-long-unusual-passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  step("signed up: Check your email");

  await page.getByLabel("Confirmation code").fill(await codeFromTerminal(email));
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await page.waitForURL(/\/onboarding/);
  step("code from the terminal typed: confirmed, onboarding");

  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Organization name").fill("Nora's Numbers");
  await page.getByLabel("Slug").fill(`noras-numbers-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.getByRole("heading", { name: "Preferences", exact: true }).waitFor();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "Choose a plan", exact: true }).waitFor();
  await page.getByRole("button", { name: "Choose Pro" }).click();
  await page.waitForURL(/\/checkout/);
  step("onboarded: checkout for Pro");

  await page.getByLabel("Country").click();
  await page.getByRole("combobox", { name: "Search countries" }).fill("Germany");
  await page.getByRole("option", { name: "Germany", exact: true }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL(/\/receipt\?number=/);
  await page.getByText("Visa ending 4242").waitFor();
  step("paid: the signed receipt is on screen");

  await page.goto(`${base}/dashboard`);
  await page.getByLabel("Key name").fill("first key");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByTestId("new-key").waitFor();
  step("API key created");

  await page.goto(`${base}/organization-profile`);
  await page.getByLabel("Email", { exact: true }).fill(`colleague-${Date.now().toString(36)}@example.com`);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await page.getByLabel("Invitation link (valid for 7 days)").waitFor();
  step("colleague invited");
} finally {
  await browser.close();
  stop();
}
