import { expect, test } from "@playwright/test";
import { ROUNDING_LABELS } from "../../src/core/rounding";
import {
  DEMO_PASSWORD,
  demo,
  latestMail,
  mailedLink,
  signIn,
  signUpAndOnboard,
  signUpAndVerify,
  uniqueEmail,
} from "./auth-helpers";
import { chooseCurrency, chooseOption } from "./pickers";
import { testSql } from "./support";

// Most tests here sign up, which now includes opening the emailed confirmation link.
test.slow();

const sql = testSql();
test.afterAll(async () => {
  await sql.end();
});

test("sign-up → onboarding (resumable, with Back) → dashboard", async ({ page }) => {
  const email = uniqueEmail("newbie");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Nina Newbie", email });
  await expect(page).toHaveURL("/onboarding");
  await expect(page.getByText("Step 1 of 4")).toBeVisible();

  // Signed-in routes send an unfinished user back to onboarding.
  await page.goto("/dashboard");
  await expect(page).toHaveURL("/onboarding");

  // The name typed at sign-up is shown, not asked for again; it can still be changed here.
  await expect(page.getByTestId("profile-name-shown")).toHaveText("Nina Newbie");
  await page.getByRole("button", { name: "Change name" }).click();
  await page.getByLabel("Your name").fill("Nina N. Newbie");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Step 2 of 4")).toBeVisible();
  await page.getByLabel("Organization name").fill("Nina's Numbers");
  await expect(page.getByLabel("Slug")).toHaveValue("nina-s-numbers");
  await page.getByLabel("Slug").fill(`nina-s-numbers-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByText("Step 3 of 4")).toBeVisible();

  // Progress is kept on the server: a reload resumes at the same step.
  await page.reload();
  await expect(page.getByText("Step 3 of 4")).toBeVisible();
  await page.getByRole("button", { name: "← Back" }).click();
  await expect(page.getByText("Step 2 of 4")).toBeVisible();
  await page.getByRole("button", { name: /Continue with Nina's Numbers/ }).click();
  await expect(page.getByText("Step 3 of 4")).toBeVisible();

  // Step 3 uses the calculator's pickers and labels: a searchable currency list, the rounding names.
  await chooseCurrency(page.getByLabel("Default currency"), "EUR", "euro");
  await expect(page.getByLabel("Default currency")).toContainText("EUR");
  await chooseOption(page.getByLabel("Rounding mode"), ROUNDING_LABELS["half-up"]);
  await page.getByLabel("Precision (significant digits)").fill("5000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Use at most 1,000 significant digits.")).toBeVisible();
  await expect(page.getByLabel("Precision (significant digits)")).toHaveValue("5000");
  await page.getByLabel("Precision (significant digits)").fill("34");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Step 4 of 4")).toBeVisible();
  await page.getByRole("button", { name: "Start free" }).click();
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByTestId("active-organization")).toHaveText("Nina's Numbers");

  const [org] = await sql`select o.default_currency, o.rounding_mode, o.precision from organization o
    join member m on m.organization_id = o.id join "user" u on u.id = m.user_id where u.email = ${email}`;
  expect(org).toEqual({ default_currency: "EUR", rounding_mode: "half-up", precision: 34 });
  const [u] = await sql`select name, onboarding_step from "user" where email = ${email}`;
  expect(u).toEqual({ name: "Nina N. Newbie", onboarding_step: "done" });
});

test("sign-up rejects bad input with specific errors and keeps what was typed", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Pat");
  await page.getByLabel("Email").fill("pat@");
  await page.getByLabel("Password").fill("password123");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  await page.getByLabel("Email").fill(uniqueEmail("pat"));
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(/one of the most common/)).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Pat");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  // An address that already has an account gets the same answer as a new one (no enumeration);
  // its owner is told by email instead.
  await page.getByLabel("Email").fill(demo.owner);
  await page.getByLabel("Password").fill("a-long-unusual-passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText(demo.owner)).toBeVisible();
  expect((await latestMail(demo.owner, "account-exists")).subject).toBe("You already have an Abacus account");
});

test("sign in and out; wrong credentials get one generic message", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(demo.owner);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invalid email or password." })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(demo.owner);
  await page.getByLabel("Email").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invalid email or password." })).toBeVisible();

  await page.getByLabel("Email").fill(demo.owner);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/dashboard");
  const cookies = await page.context().cookies();
  const sessionCookie = cookies.find((c) => c.name.includes("session_token"));
  expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?redirect_url=%2Fdashboard/);
});

test("redirect_url brings the user back after sign-in; an external one is refused", async ({ page }) => {
  await page.goto("/organization-profile/members");
  await expect(page).toHaveURL(/\/sign-in\?redirect_url=%2Forganization-profile%2Fmembers/);
  await page.getByLabel("Email").fill(demo.member);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/organization-profile/members");
  await expect(page.getByRole("heading", { name: "Demo Company" })).toBeVisible();

  await page.context().clearCookies();
  for (const evil of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
    await signIn(page, demo.member, DEMO_PASSWORD, evil);
    await expect(page).toHaveURL("/dashboard");
    await page.context().clearCookies();
  }
});

test("creating and switching organizations updates the header", async ({ page }) => {
  const email = uniqueEmail("switcher");
  await signUpAndOnboard(page, { name: "Sam Switcher", email, org: "First Org" });
  await page.goto("/organization-profile?create=1");
  await page.getByLabel("Organization name").fill("Second Org");
  await page.getByLabel("Slug").fill(`second-org-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Second Org" })).toBeVisible();
  await expect(page.getByTestId("active-organization")).toHaveText("Second Org");

  await page.getByRole("button", { name: /^Organization:/ }).click();
  await page.getByRole("menuitem", { name: /First Org/ }).click();
  await expect(page.getByTestId("active-organization")).toHaveText("First Org");
  await expect(page.getByRole("heading", { name: "First Org" })).toBeVisible();
  // Reloading keeps the choice: the active organization lives in the session.
  await page.reload();
  await expect(page.getByTestId("active-organization")).toHaveText("First Org");
});

test("an invited user accepts by link; the owner changes their role and removes them", async ({
  browser,
}) => {
  const owner = await browser.newPage();
  const ownerEmail = uniqueEmail("inviter");
  const { slug } = await signUpAndOnboard(owner, {
    name: "Ivy Inviter",
    email: ownerEmail,
    org: "Invite Co",
  });
  await owner.goto("/organization-profile");
  const inviteeEmail = uniqueEmail("invitee");
  await owner.getByLabel("Email", { exact: true }).fill(inviteeEmail);
  await chooseOption(owner.getByLabel("Role", { exact: true }), "Member");
  // The Free plan has room for one member, the owner: the invitation is refused and says why.
  await owner.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(owner.getByText(/Free plan allows 1 member.*Upgrade to Pro/).first()).toBeVisible();
  // On Pro (what a paid checkout sets) there is room.
  await sql`insert into subscriptions
      (organization_id, plan, interval, currency, status, current_period_start, current_period_end)
    select id, 'pro', 'monthly', 'USD', 'active', now(), now() + interval '1 month'
    from organization where slug = ${slug}`;
  await owner.getByRole("button", { name: "Invite", exact: true }).click();
  const link = await owner.getByLabel("Invitation link (valid for 7 days)").inputValue();
  expect(link).toMatch(/\/onboarding\?invitation=/);

  const invitee = await browser.newPage();
  await invitee.goto(new URL(link).pathname + new URL(link).search);
  // No account with the invited address yet: the link leads to sign-up.
  await expect(invitee).toHaveURL(/\/sign-up\?redirect_url=/);
  // Signed out, the link says who invited them to what, and to which address.
  await expect(invitee.getByTestId("invitation-banner")).toContainText(
    "You've been invited to Invite Co by Ivy Inviter.",
  );
  await signUpAndVerify(invitee, { name: "Ian Invitee", email: inviteeEmail });
  await expect(invitee).toHaveURL(/\/onboarding\?invitation=/);
  await invitee.getByRole("button", { name: "Continue" }).click();
  await invitee.getByRole("button", { name: "Join Invite Co" }).click();
  // A member has nothing to set in the organization's preferences or plan: onboarding ends here.
  await expect(invitee).toHaveURL("/dashboard");
  await expect(invitee.getByTestId("active-organization")).toHaveText("Invite Co");

  await owner.reload();
  const roleSelect = owner.getByLabel("Role of Ian Invitee");
  // A role change asks first; cancelling changes nothing.
  await roleSelect.click();
  await owner.getByRole("option", { name: "Admin", exact: true }).click();
  const question = owner.getByRole("alertdialog", { name: "Make Ian Invitee an admin?" });
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(roleSelect).toHaveText("Member");
  const [unchanged] =
    await sql`select m.role from member m join "user" u on u.id = m.user_id where u.email = ${inviteeEmail}`;
  expect(unchanged?.role).toBe("member");
  await roleSelect.click();
  await owner.getByRole("option", { name: "Admin", exact: true }).click();
  await question.getByRole("button", { name: "Change role" }).click();
  await expect(owner.getByText("Ian Invitee is now admin.")).toBeVisible();
  const [row] =
    await sql`select m.role from member m join "user" u on u.id = m.user_id where u.email = ${inviteeEmail}`;
  expect(row?.role).toBe("admin");

  await owner
    .getByRole("row", { name: /Ian Invitee/ })
    .getByRole("button", { name: "Remove" })
    .click();
  await owner
    .getByRole("alertdialog", { name: "Remove Ian Invitee?" })
    .getByRole("button", { name: "Remove member" })
    .click();
  await expect(owner.getByText("Ian Invitee was removed.")).toBeVisible();
  await invitee.goto("/dashboard");
  await expect(invitee).toHaveURL("/organization-profile");
});

test("profile edits, password change and revoking another session", async ({ browser }) => {
  const email = uniqueEmail("profile");
  const first = await browser.newPage();
  const { password } = await signUpAndOnboard(first, { name: "Pia Profile", email, org: "Profile Org" });
  const second = await (
    await browser.newContext({ userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/130.0" })
  ).newPage();
  await signIn(second, email, password);

  await first.goto("/user-profile/security");
  await first.getByLabel("Name", { exact: true }).fill("Pia P. Profile");
  await first.getByRole("button", { name: "Save name" }).click();
  await expect(first.getByText("Name saved.")).toBeVisible();
  const newEmail = uniqueEmail("profile-new");
  await first.getByLabel("Email", { exact: true }).fill("broken@");
  await first.getByRole("button", { name: "Change email" }).click();
  await expect(first.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  await first.getByLabel("Email", { exact: true }).fill(newEmail);
  await first.getByRole("button", { name: "Change email" }).click();
  // The new address takes effect only once confirmed from its mailbox.
  await expect(first.getByText(`Check ${newEmail} for a confirmation link`).first()).toBeVisible();
  const [before] = await sql`select 1 from "user" where email = ${newEmail}`;
  expect(before).toBeUndefined();
  await first.goto(await mailedLink(newEmail, "change-email"));
  await expect(first).toHaveURL(/\/user-profile/);
  await expect(first.getByText(`Signed in as ${newEmail}`)).toBeVisible();

  const sessions = first.getByRole("list", { name: "Active sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await sessions.getByRole("button", { name: /Revoke Firefox on Windows/ }).click();
  await expect(first.getByText("Session revoked. That device is signed out.")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await second.goto("/dashboard");
  await expect(second).toHaveURL(/\/sign-in/);

  await first.getByLabel("Current password").fill("wrong-password-here");
  await first.getByLabel("New password", { exact: true }).fill("another-long-passphrase");
  await first.getByLabel("Confirm new password").fill("another-long-passphrase");
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first.getByText("Your current password is not correct.").first()).toBeVisible();
  await expect(first.getByLabel("New password", { exact: true })).toHaveValue("another-long-passphrase");
  await first.getByLabel("Current password").fill(password);
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first.getByText(/Password changed/)).toBeVisible();

  const [row] = await sql`select name from "user" where email = ${newEmail}`;
  expect(row?.name).toBe("Pia P. Profile");
});

test("organization forms show specific errors and keep what was typed", async ({ page }) => {
  const { slug } = await signUpAndOnboard(page, {
    name: "Fay Forms",
    email: uniqueEmail("forms"),
    org: "Forms Org",
  });
  await page.goto("/organization-profile");
  await page.getByLabel("Slug").fill("Not A Slug!");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(
    page.getByText("Use lowercase letters, digits and single hyphens, like acme-finance."),
  ).toBeVisible();
  await expect(page.getByLabel("Slug")).toHaveValue("Not A Slug!");
  await page.getByLabel("Slug").fill("demo-company");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(
    page.getByText("That slug is already used by another organization. Try another.").first(),
  ).toBeVisible();

  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");

  await page.getByLabel(`Type ${slug} to confirm`).fill("forms");
  await page.getByRole("button", { name: "Delete organization" }).click();
  await expect(page.getByText(`Type ${slug} to confirm.`).first()).toBeVisible();
  const [org] = await sql`select 1 from organization where slug = ${slug}`;
  expect(org).toBeTruthy();
});
