import { expect as baseExpect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import {
  DEMO_PASSWORD,
  demo,
  latestMail,
  mailedLink,
  signIn,
  signUpAndVerify,
  uniqueEmail,
} from "./auth-helpers";

const PASSWORD = "a-long-unusual-passphrase";

// Each test walks through several sign-ins, emails and password hashes (slow on a busy machine):
// more patience per step, never a claim about speed.
test.slow();
const expect = baseExpect.configure({ timeout: 20_000 });

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
}

test("sign up, confirm from the outbox, turn on TOTP, then sign out and back in with a code", async ({
  page,
}) => {
  const email = uniqueEmail("totp");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Tess Totp", email });
  await expect(page).toHaveURL(/\/onboarding/);

  await page.goto("/user-profile");
  await page.getByLabel("Password to set it up").fill(PASSWORD);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await expect(page.getByRole("img", { name: /QR code for Abacus/ })).toBeVisible();
  await expect(page.getByRole("list", { name: "Backup codes" }).getByRole("listitem")).toHaveCount(10);
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await page.getByLabel("Code from the app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Two-factor authentication is on.").first()).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Security events" }).getByText("Two-factor authentication was turned on"),
  ).toBeVisible();
  expect((await latestMail(email, "security")).subject).toMatch(/two-factor authentication was turned on/);

  await signOut(page);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in\/factor-two/);
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is not valid.").first()).toBeVisible();
  await page.getByLabel("Authentication code").fill(totp.generate());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto("/user-profile");
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test("a forgotten password is reset by an emailed link that works once", async ({ page }) => {
  const email = uniqueEmail("reset");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Rita Reset", email });
  await page.context().clearCookies();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/sign-in/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  const link = await mailedLink(email, "reset-password");
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("abcabcabcabc");
  await page.getByLabel("Repeat new password").fill("abcabcabcabc");
  await expect(page.getByTestId("password-strength")).toContainText("Very weak");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText(/too easy to guess/).first()).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("a-brand-new-unusual-passphrase");
  await page.getByLabel("Repeat new password").fill("a-brand-new-unusual-passphrase");
  await expect(page.getByTestId("password-strength")).toContainText("Very strong");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL("/sign-in");
  await signIn(page, email, "a-brand-new-unusual-passphrase");

  // The same link does not work twice.
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("yet-another-unusual-passphrase");
  await page.getByLabel("Repeat new password").fill("yet-another-unusual-passphrase");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("This reset link has expired or was already used.").first()).toBeVisible();
});

test("platform admins read the outbox", async ({ page }) => {
  const email = uniqueEmail("outbox");
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Otto Outbox");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await signIn(page, demo.admin, DEMO_PASSWORD);
  await page.goto("/admin/outbox");
  await expect(page.getByRole("heading", { name: "Outbox" })).toBeVisible();
  const message = page
    .getByRole("list", { name: "Outgoing mail" })
    .getByRole("listitem")
    .filter({ hasText: email });
  await expect(message.getByText("Confirm your email address")).toBeVisible();
  await message.getByText("Confirm your email address").click();
  await expect(message.getByRole("link", { name: /\/sign-up\/confirm\?token=/ })).toBeVisible();
});

test("register a passkey, then sign in with it (Chromium's virtual authenticator)", async ({
  page,
  context,
}) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const email = uniqueEmail("passkey");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Pat Passkey", email });
  await expect(page).toHaveURL(/\/onboarding/);

  await page.goto("/user-profile");
  await page.getByLabel("Name for a new passkey (optional)").fill("Virtual key");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("list", { name: "Passkeys" }).getByText("Virtual key")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Security events" }).getByText("A passkey was added"),
  ).toBeVisible();

  await signOut(page);
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto("/user-profile");
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test("a passkey is refused when the authenticator did not verify the user (presence alone is not enough)", async ({
  page,
  context,
}) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: false,
      automaticPresenceSimulation: true,
    },
  });
  const email = uniqueEmail("no-uv");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Una Unverified-Key", email });
  await page.goto("/user-profile");
  await page.getByLabel("Name for a new passkey (optional)").fill("Tap only");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(
    page.getByText(/No passkey was created|did not verify you|could not be verified/).first(),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "Passkeys" }).getByText("Tap only")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("Tap only")).toHaveCount(0);
});
