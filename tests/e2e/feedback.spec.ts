import { readFileSync } from "node:fs";
import { expect as baseExpect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { demo, signIn, signUpAndVerify, uniqueEmail } from "./auth-helpers";
import { recordToasts, toastsSeen } from "./toasts";

// One outcome, said once and in the right tone: no toast repeating what the page already shows,
// no green "success" for an instruction.

test.slow();
const expect = baseExpect.configure({ timeout: 20_000 });

test("a bad API key name is said once, beside the field", async ({ page }) => {
  await recordToasts(page);
  await signIn(page, demo.owner, undefined, "/dashboard");
  await page.goto("/dashboard");
  await page.getByLabel("Key name").fill("   ");
  await page.getByRole("button", { name: "Create key" }).click();
  const message = "Give the key a name, e.g. the system that will use it.";
  await expect(page.getByText(message).first()).toBeVisible();
  await expect(page.getByLabel("Key name")).toBeFocused();
  await page.waitForLoadState("networkidle");
  await expect(page.getByText(message)).toHaveCount(1);
  expect((await toastsSeen(page)).filter((t) => t.text.includes(message))).toEqual([]);
});

test("previewing and importing an FX file leaves one toast, the import's", async ({ page }) => {
  await recordToasts(page);
  await signIn(page, demo.admin, undefined, "/admin/currency-test");
  await page.goto("/admin/currency-test");
  // A rate for a day long past: history only, the current rates (and everyone's prices) stay.
  await page.getByLabel("ECB XML or CSV file").setInputFiles({
    name: "old-rates.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("currency,rate,date\nISK,150.5,2001-03-05\n"),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText(/1 rate on 1 date/)).toBeVisible();
  await page.getByRole("button", { name: "Apply import" }).click();
  await expect(page.getByText(/Imported: 0 current rates changed/)).toBeVisible();
  const seen = (await toastsSeen(page)).filter((t) => !/Signed in/.test(t.text));
  expect(seen.map((t) => t.type)).toEqual(["success"]);
});

test("two-factor: a grouped key and backup codes to copy and download; the code step has no green toast", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await recordToasts(page);
  const email = uniqueEmail("codes");
  const password = "a-long-unusual-passphrase";
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Cody Codes", email, password });
  await expect(page).toHaveURL(/\/onboarding/);

  await page.goto("/user-profile");
  await page.getByLabel("Password to set it up").fill(password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();

  // The key: shown in groups of four, copied whole.
  const key = page.getByTestId("totp-secret");
  const secret = (await key.textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  const groups = await key.locator("span").allTextContents();
  expect(groups.join("")).toBe(secret);
  expect(groups.slice(0, -1).every((g) => g.length === 4)).toBe(true);
  await page.getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // The backup codes: upper case, no look-alikes, copyable and downloadable.
  const codes = await page
    .getByRole("list", { name: "Backup codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/);
  await page.getByRole("button", { name: "Copy codes" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download .txt" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("abacus-backup-codes.txt");
  const text = readFileSync((await file.path()) ?? "", "utf8");
  expect(text).toContain(email);
  for (const code of codes) expect(text).toContain(`\n${code}\n`);

  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await page.getByLabel("Code from the app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Two-factor authentication is on.").first()).toBeVisible();

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in\/factor-two/);
  await expect(page.getByLabel("Authentication code")).toBeVisible();

  // A backup code typed as people do: lower case, a space for the dash.
  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill((codes[0] ?? "").toLowerCase().replace("-", " "));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  // The code screen asked for the code itself: no toast (least of all a green one) said it too.
  expect((await toastsSeen(page)).filter((t) => /code|authenticator/i.test(t.text))).toEqual([]);
});
