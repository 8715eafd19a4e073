import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { expect as baseExpect, test } from "@playwright/test";
import { DEMO_PASSWORD, demo, latestMail, mailedCode, mailedLink, signIn, uniqueEmail } from "./auth-helpers";
import { testSql } from "./support";

// Sign-ups, password hashes and a second server: patience per step, never a claim about speed.
test.slow();
const expect = baseExpect.configure({ timeout: 20_000 });
const PASSWORD = "a-long-unusual-passphrase";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

test("a local instance prints the code and link in its terminal, and the code typed on screen signs in", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // A second production server on the same embedded database and no SMTP_URL, as `npm start` runs.
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    APP_URL: origin,
    AUTH_SIGN_UP_LIMIT: "1000",
    AUTH_SIGN_IN_LIMIT: "1000",
  };
  delete env.SMTP_URL;
  expect(env.DATABASE_MODE).toBe("embedded");
  const child = spawn("node", ["dist/server.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  try {
    await expect
      .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status ?? 0, {
        timeout: 90_000,
      })
      .toBe(200);
    const context = await browser.newContext({ baseURL: origin });
    const page = await context.newPage();
    const email = uniqueEmail("terminal");
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Terry Terminal");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    // The screen says where the mail is on a local instance.
    await expect(page.getByTestId("mail-hint")).toContainText("printed in the terminal");

    // One line in the server's terminal, with the code and the link.
    await expect.poll(() => output, { timeout: 15_000 }).toContain(`(to ${email})`);
    const line = output.split("\n").find((l) => l.includes(`(to ${email})`)) ?? "";
    expect(line).toMatch(
      /^\[mail\] Confirm your email address \(to .+\): code \d{6} http:\/\/localhost:\d+\/sign-up\/confirm\?token=\S+$/,
    );
    const code = /code (\d{6})/.exec(line)?.[1] ?? "";
    expect(code).toBe(await mailedCode(email));

    await page.getByLabel("Confirmation code").fill("000000" === code ? "111111" : "000000");
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(page.getByText("That code is not valid.").first()).toBeVisible();
    await page.getByLabel("Confirmation code").fill(code);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(page).toHaveURL(/\/onboarding/);
    await context.close();
  } finally {
    child.kill("SIGTERM");
  }
  // Nothing else of a mail goes to the terminal: no message bodies.
  expect(output).not.toContain("Welcome to Abacus");
});

test("an unconfirmed account cannot sign in: it gets the code screen, then onboards and Choose Pro reaches checkout", async ({
  page,
}) => {
  const email = uniqueEmail("unconfirmed");
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Una Unconfirmed");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  // Later, in another browser, the password alone does not sign in.
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-up\/confirm/);
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name.includes("session_token"))).toBe(false);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);

  // The new code (sent for this browser) confirms and signs in.
  await page.goto("/sign-up/confirm");
  await page.getByLabel("Confirmation code").fill(await mailedCode(email));
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page).toHaveURL(/\/onboarding/);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Organization name").fill("Una's Sums");
  await page.getByLabel("Slug").fill(`unas-sums-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Preferences", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Choose Pro" }).click();
  await expect(page).toHaveURL(/\/checkout/);
  await expect(page).not.toHaveURL(/verify-email/);
});

test("a link opened while someone else is signed in asks first, keeps that session and says Email confirmed", async ({
  browser,
  page,
}) => {
  const email = uniqueEmail("other-browser");
  const newcomer = await browser.newPage();
  await newcomer.goto("/sign-up");
  await newcomer.getByLabel("Name").fill("Olga Other");
  await newcomer.getByLabel("Email").fill(email);
  await newcomer.getByLabel("Password").fill(PASSWORD);
  await newcomer.getByRole("button", { name: "Create account" }).click();
  await expect(newcomer.getByRole("heading", { name: "Check your email" })).toBeVisible();

  // The admin opens the newcomer's link (from the outbox), signed in as themselves.
  await signIn(page, demo.admin, DEMO_PASSWORD);
  await page.goto(await mailedLink(email, "verify-email"));
  await expect(page.getByRole("note")).toContainText(`You are signed in as ${demo.admin}`);
  await page.getByRole("button", { name: "Confirm email address" }).click();
  await expect(page.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
  await expect(page.getByText(`You are still signed in as ${demo.admin}.`)).toBeVisible();
  await page.goto("/user-profile");
  await expect(page.getByText(`Signed in as ${demo.admin}`)).toBeVisible();

  // The newcomer signs in with their password (the link signed nobody in).
  await signIn(newcomer, email, PASSWORD);
  await expect(newcomer).toHaveURL(/\/onboarding/);
  const sql = testSql();
  try {
    const [row] = await sql`select email_verified from "user" where email = ${email}`;
    expect(row?.email_verified).toBe(true);
  } finally {
    await sql.end();
  }
  // Their first sign-in is not a "new device".
  await expect
    .poll(async () => (await latestMail(email).catch(() => null))?.subject)
    .not.toMatch(/new sign-in/);
});
