import { expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, signUpAndVerify, uniqueEmail } from "./auth-helpers";
import { testSql } from "./support";

// Journeys of the signed-in shell: leaving and deleting an organization, deleting an account,
// signing out, the invitation seen signed out, and what the footer and phone menu offer.
test.describe.configure({ timeout: 120_000 });
const sql = testSql();
test.afterAll(async () => {
  await sql.end();
});

const toast = (page: Page, text: string) =>
  page.getByRole("region", { name: /Notifications/ }).getByText(text, { exact: true });

/** Puts an organization on Pro, as a paid checkout would (Free allows one member: its owner). */
async function putOnPro(slug: string) {
  await sql`insert into subscriptions
      (organization_id, plan, interval, currency, status, current_period_start, current_period_end)
    select id, 'pro', 'monthly', 'USD', 'active', now(), now() + interval '1 month'
    from organization where slug = ${slug}`;
}

async function invite(owner: Page, email: string) {
  await owner.goto("/organization-profile");
  await owner.getByLabel("Email", { exact: true }).fill(email);
  await owner.getByRole("button", { name: "Invite", exact: true }).click();
  const link = await owner.getByLabel("Invitation link (valid for 7 days)").inputValue();
  const url = new URL(link);
  return url.pathname + url.search;
}

test("a member leaves an organization after confirming; a sole owner cannot", async ({ browser }) => {
  const owner = await browser.newPage();
  const { slug } = await signUpAndOnboard(owner, {
    name: "Lena Lead",
    email: uniqueEmail("leave-owner"),
    org: "Leave Co",
  });
  await putOnPro(slug);
  // The sole owner's Leave is disabled up front, with the reason.
  await owner.goto("/organization-profile");
  await expect(owner.getByRole("button", { name: "Leave organization" })).toBeDisabled();
  await expect(owner.getByText("You are the only owner of Leave Co.", { exact: false })).toBeVisible();

  const memberEmail = uniqueEmail("leaver");
  const link = await invite(owner, memberEmail);
  const member = await browser.newPage();
  await member.goto(link);
  await expect(member.getByTestId("invitation-banner")).toContainText(
    "You've been invited to Leave Co by Lena Lead.",
  );
  // No account with that address yet: the link leads to sign-up, the banner still there.
  await expect(member).toHaveURL(/\/sign-up\?redirect_url=/);
  await expect(member.getByTestId("invitation-banner")).toBeVisible();
  await signUpAndVerify(member, { name: "Leo Leaver", email: memberEmail });
  await expect(member).toHaveURL(/\/onboarding\?invitation=/);
  // The name typed at sign-up is not asked for again.
  await expect(member.getByTestId("profile-name-shown")).toHaveText("Leo Leaver");
  await member.getByRole("button", { name: "Continue" }).click();
  await member.getByRole("button", { name: "Join Leave Co" }).click();
  await expect(member).toHaveURL("/dashboard");

  await member.goto("/organization-profile");
  await member.getByRole("button", { name: "Leave organization" }).click();
  const question = member.getByRole("alertdialog", { name: "Leave Leave Co?" });
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await member.getByRole("button", { name: "Leave organization" }).click();
  await question.getByRole("button", { name: "Leave organization" }).click();
  await expect(member.getByRole("heading", { name: "You are not in an organization" })).toBeVisible();
  await expect(toast(member, "You left the organization.")).toBeVisible();
  const rows =
    await sql`select 1 from member m join "user" u on u.id = m.user_id where u.email = ${memberEmail}`;
  expect(rows).toHaveLength(0);
});

test("cancelling an invitation asks first; keeping it changes nothing", async ({ page }) => {
  await signIn(page, demo.owner, undefined, "/organization-profile");
  const email = uniqueEmail("cancelled-invitee");
  await invite(page, email);
  const invitations = page.getByRole("list", { name: "Pending invitations" });
  await expect(invitations.getByText(email)).toBeVisible();

  await page.getByRole("button", { name: `Cancel the invitation to ${email}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(`Cancel the invitation to ${email}?`);
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await expect(invitations.getByText(email)).toBeVisible();

  await page.getByRole("button", { name: `Cancel the invitation to ${email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel invitation" }).click();
  await expect(toast(page, `Invitation to ${email} cancelled.`)).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  const [row] = await sql`select status from invitation where email = ${email}`;
  expect(row?.status).toBe("canceled");
});

test("an invalid invitation link says so, signed out", async ({ page }) => {
  await page.goto("/onboarding?invitation=no-such-invitation");
  await expect(page).toHaveURL(/\/sign-in\?redirect_url=/);
  await expect(page.getByRole("heading", { level: 1, name: "This invitation can't be used" })).toBeVisible();
  await expect(page.getByText(/invited to/)).toHaveCount(0);
});

test("an owner deletes an organization; the outcome survives the reload", async ({ page }) => {
  const { slug } = await signUpAndOnboard(page, {
    name: "Dora Delete",
    email: uniqueEmail("org-delete"),
    org: "Doomed Org",
  });
  await page.goto("/organization-profile");
  await page.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await page.getByRole("button", { name: "Delete organization" }).click();
  await expect(page.getByRole("heading", { name: "You are not in an organization" })).toBeVisible();
  await expect(toast(page, "Organization deleted.")).toBeVisible();
  expect(await sql`select 1 from organization where slug = ${slug}`).toHaveLength(0);
});

test("a user deletes their account; the toast survives the reload and signing in fails", async ({ page }) => {
  const email = uniqueEmail("account-delete");
  const { password, slug } = await signUpAndOnboard(page, { name: "Abe Account", email, org: "Abe Books" });
  await page.goto("/user-profile");
  // A wrong confirmation is shown once, beside its field, with focus on it, and not as a toast.
  await page.locator("#delete-password").fill(password);
  await page.getByLabel("Type DELETE to confirm").fill("delete");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByLabel("Type DELETE to confirm")).toBeFocused();
  await expect(page.getByLabel("Type DELETE to confirm")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("region", { name: /Notifications/ }).getByRole("listitem")).toHaveCount(0);

  // The only owner of an organization is told to hand it on or delete it first; nothing is deleted.
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(
    page.getByText(/You are the only owner of “Abe Books”\. Make another member its owner/),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/user-profile/);
  await expect(page.locator("#delete-password")).toHaveValue(password);
  expect(await sql`select 1 from "user" where email = ${email}`).toHaveLength(1);
  await page.goto("/organization-profile");
  await page.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await page.getByRole("button", { name: "Delete organization" }).click();
  await expect(page.getByRole("heading", { name: "You are not in an organization" })).toBeVisible();

  await page.goto("/user-profile");
  await page.locator("#delete-password").fill(password);
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(toast(page, "Your account has been deleted.")).toBeVisible();
  expect(await sql`select 1 from "user" where email = ${email}`).toHaveLength(0);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid email or password", { exact: false })).toBeVisible();
});

test("signing out is announced on the page it lands on; the footer follows who is signed in", async ({
  page,
}) => {
  await signIn(page, demo.member);
  await page.goto("/pricing");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Dashboard" })).toBeVisible();
  await expect(footer.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  await expect(footer.getByRole("link", { name: "Get started" })).toHaveCount(0);

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(toast(page, "Signed out.")).toBeVisible();
  await expect(footer.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(footer.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  // One-shot: a reload does not announce it again.
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(toast(page, "Signed out.")).toHaveCount(0);
});

test("on a phone the menu holds the real organization switcher", async ({ page }) => {
  await signUpAndOnboard(page, { name: "Sam Switch", email: uniqueEmail("switch"), org: "First Switch" });
  await page.goto("/organization-profile?create=1");
  await page.getByLabel("Organization name").fill("Second Switch");
  await page.getByLabel("Slug").fill(`second-switch-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Second Switch" })).toBeVisible();

  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("button", { name: /Second Switch/ })).toHaveAttribute("aria-pressed", "true");
  await menu.getByRole("button", { name: /First Switch/ }).click();
  await expect(toast(page, "Switched to First Switch.")).toBeVisible();
  await expect(menu).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "First Switch" })).toBeVisible();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(menu.getByRole("button", { name: /First Switch/ })).toHaveAttribute("aria-pressed", "true");
});

test("one outcome, one toast: a later success dismisses the stale error toast", async ({ page }) => {
  await signIn(page, demo.member);
  await page.goto("/user-profile");
  const broken = async (route: import("@playwright/test").Route) => {
    if (route.request().method() === "POST") {
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<html><body>proxy error</body></html>",
      });
    } else await route.continue();
  };
  await page.route("**/user-profile", broken);
  await page.getByRole("button", { name: "Save name" }).click();
  const error = toast(page, "An unexpected response was received from the server.");
  await expect(error).toBeVisible();
  await page.unroute("**/user-profile", broken);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(toast(page, "Name saved.")).toBeVisible();
  await expect(error).toBeHidden();
});
