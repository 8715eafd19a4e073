import { expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, signUpAndVerify, uniqueEmail } from "./auth-helpers";
import { chooseOption } from "./pickers";
import { testSql } from "./support";

// Small frictions a new user meets: where an invitation link leads, what a member is asked during
// onboarding, searches that reload the page, the browser's confirm(), digits the calculator made up,
// the home page's calculator that took only "a op b".
test.describe.configure({ timeout: 120_000 });
const sql = testSql();
test.afterAll(async () => {
  await sql.end();
});

const toast = (page: Page, text: string | RegExp) =>
  page.getByRole("region", { name: /Notifications/ }).getByText(text);

/** No sideways scrolling: the page is no wider than the window. */
async function pageOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test("an invitee without an account lands on sign-up with the address filled in; a member skips the owner's steps", async ({
  browser,
}) => {
  const owner = await browser.newPage();
  const { slug } = await signUpAndOnboard(owner, {
    name: "Olga Owner",
    email: uniqueEmail("invite-owner"),
    org: "Welcome Co",
  });
  await sql`insert into subscriptions
      (organization_id, plan, interval, currency, status, current_period_start, current_period_end)
    select id, 'pro', 'monthly', 'USD', 'active', now(), now() + interval '1 month'
    from organization where slug = ${slug}`;
  await owner.goto("/organization-profile");
  const inviteeEmail = uniqueEmail("new-invitee");
  await owner.getByLabel("Email", { exact: true }).fill(inviteeEmail);
  await owner.getByRole("button", { name: "Invite", exact: true }).click();
  const link = new URL(await owner.getByLabel("Invitation link (valid for 7 days)").inputValue());

  const invitee = await browser.newPage();
  await invitee.goto(link.pathname + link.search);
  // No account with that address: sign-up (not "Welcome back"), with the invited address shown and filled in.
  await expect(invitee).toHaveURL(/\/sign-up\?redirect_url=/);
  await expect(invitee.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await expect(invitee.getByTestId("invitation-banner")).toContainText(inviteeEmail);
  await expect(invitee.getByLabel("Email")).toHaveValue(inviteeEmail);
  // "Already have an account?" still reaches sign-in (no bounce back to sign-up).
  await invitee.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
  await expect(invitee.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(invitee.getByLabel("Email")).toHaveValue(inviteeEmail);
  await invitee.goBack();
  await expect(invitee.getByRole("heading", { name: "Create your account" })).toBeVisible();

  await signUpAndVerify(invitee, { name: "Nina Newcomer", email: inviteeEmail });
  await expect(invitee).toHaveURL(/\/onboarding\?invitation=/);
  await invitee.getByRole("button", { name: "Continue" }).click();
  await invitee.getByRole("button", { name: "Join Welcome Co" }).click();
  // A member neither sets the organization's defaults nor its plan: straight to the dashboard.
  await expect(invitee).toHaveURL("/dashboard", { timeout: 15_000 });
  await expect(invitee.getByTestId("active-organization")).toHaveText("Welcome Co");
  const [row] = await sql`select onboarding_step from "user" where email = ${inviteeEmail}`;
  expect(row?.onboarding_step).toBe("done");
});

test("onboarding's preferences step fits a 360 px phone", async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  const email = uniqueEmail("narrow");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Pat Phone", email });
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Organization name").fill("Narrow Co");
  await page.getByLabel("Slug").fill(`narrow-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Preferences", exact: true })).toBeVisible();
  expect(await pageOverflow(page)).toBe(0);
  // Every field stays inside the card.
  const card = await page.locator("form").first().boundingBox();
  for (const label of ["Default currency", "Rounding mode", "Precision (significant digits)"]) {
    const box = await page.getByLabel(label).boundingBox();
    expect(box && card && box.x + box.width <= card.x + card.width + 0.5, label).toBe(true);
  }
});

async function searchWithoutReload(page: Page, label: string, text: string, param: RegExp) {
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  const box = page.getByLabel(label);
  // Scrolled down so that the box sits near the top: a reload would put the page back at 0.
  await box.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);
  await box.fill(text);
  await box.press("Enter");
  await expect(page).toHaveURL(param);
  // The same document (no reload), the same scroll position, the typing still in the box.
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(text);
}

test("dashboard search moves to its results without reloading or scrolling to the top", async ({
  browser,
}) => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  await signIn(page, demo.owner, undefined, "/dashboard");
  await page.goto("/dashboard");
  await searchWithoutReload(
    page,
    "Search expressions, results and notes",
    "no such thing",
    /\?q=no\+such\+thing/,
  );
  await expect(page.getByText("Nothing matches “no such thing”.")).toBeVisible();
});

test("/admin/users search and filters move without reloading; the filters are our own selects", async ({
  browser,
}) => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  await signIn(page, demo.admin, undefined, "/admin/users");
  await page.goto("/admin/users");
  await searchWithoutReload(page, "Search name or email", "abacus.local", /\?q=abacus\.local/);
  await chooseOption(page.getByLabel("Role", { exact: true }), "Admin");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/role=admin/);
  await expect(page.getByRole("button", { name: `Manage ${demo.admin}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Manage ${demo.member}` })).toHaveCount(0);
  // The choice survives the navigation.
  await expect(page.getByLabel("Role", { exact: true })).toHaveText("Admin");
});

test("deleting a saved calculation asks in our own dialog, and can be undone", async ({ page }) => {
  const expression = `17 * 3 + ${Date.now() % 1000}`;
  await signIn(page, demo.owner);
  await page.goto("/calculator?mode=decimal");
  await page.getByLabel("Expression").fill(expression);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("button", { name: "Save calculation" }).click();
  await expect(page.getByText(/Saved to Demo Company's history/)).toBeVisible();

  await page.goto(`/dashboard?q=${encodeURIComponent(expression)}`);
  const row = page.getByTestId("saved-row").filter({ hasText: expression });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Delete ${expression}` }).click();
  const question = page.getByRole("alertdialog", { name: "Delete this calculation?" });
  await expect(question).toContainText(expression);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: `Delete ${expression}` }).click();
  await question.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Calculation deleted.")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, "Calculation restored.")).toBeVisible();
  await expect(row).toHaveCount(1);
});

test("revoking an API key asks in our own dialog", async ({ page }) => {
  const name = `dialog ${Date.now().toString(36)}`;
  await signIn(page, demo.owner, undefined, "/dashboard");
  await page.goto("/dashboard");
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key")).toBeVisible();
  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await row.getByRole("button", { name: "Revoke" }).click();
  const question = page.getByRole("alertdialog", { name: `Revoke “${name}”?` });
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Revoke" }).click();
  await question.getByRole("button", { name: "Revoke key" }).click();
  await expect(toast(page, `Key “${name}” revoked.`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test.describe("calculator results", () => {
  const resultRegion = (page: Page) => page.getByRole("region", { name: "Result" });
  const badge = (page: Page) => page.getByTestId("result-exactness");

  test("plain notation never pads a rounded number with made-up zeros", async ({ page }) => {
    await page.goto("/calculator?mode=decimal");
    await page.getByLabel("Expression").fill("2^1000");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText("1.0715086071862673209e+301");
    await expect(resultRegion(page).getByTestId("result-scientific-why")).toBeVisible();
    await page.getByLabel("Precision").fill("302");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText(/^10715086\d{294}$/);
    await expect(badge(page)).toContainText("Exact");
  });

  test("a money result has one badge: exact, or rounded to its minor units", async ({ page }) => {
    await page.goto("/calculator?mode=decimal");
    await page.getByLabel("Expression").fill("10 USD + 5 USD");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText("15.00 USD");
    await expect(badge(page)).toContainText("Exact");
    await expect(resultRegion(page)).not.toContainText("minor units");
    await expect(resultRegion(page).getByTestId("result-exact")).toHaveCount(0);

    await page.getByLabel("Expression").fill("10 USD / 3");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText("3.33 USD");
    await expect(badge(page)).toContainText("Rounded");
    await expect(badge(page)).toContainText("rounded once to USD's minor units");
    await expect(badge(page)).not.toContainText("Exact");
    await expect(resultRegion(page).getByTestId("result-exact")).toHaveText("≈ 3.3333333333333333333 USD");
  });

  test("a long value before rounding wraps inside the result on a phone", async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto("/calculator?mode=decimal");
    await page.getByLabel("Precision").fill("60");
    await page.getByLabel("Expression").fill("2^100 USD / 7");
    const before = resultRegion(page).getByTestId("result-exact");
    await expect(before).toContainText("USD");
    const region = await resultRegion(page).boundingBox();
    const box = await before.boundingBox();
    expect(box && region && box.x + box.width <= region.x + region.width).toBe(true);
    // It starts on a line of its own and wraps at the line's end, not after a label mid-line.
    expect(box && region && box.x - region.x).toBeLessThan(24);
    expect(await pageOverflow(page)).toBe(0);
  });

  test("ans after a money result is the amount shown", async ({ page }) => {
    await page.goto("/calculator?mode=decimal");
    const box = page.getByLabel("Expression");
    await box.fill("10 USD / 3");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText("3.33 USD");
    await box.press("Enter");
    await box.fill("ans * 3");
    await expect(resultRegion(page).getByTestId("result-value")).toHaveText("9.99 USD");
  });
});

test("the home page's calculator takes any calculator expression and agrees with the calculator", async ({
  page,
}) => {
  await page.goto("/");
  const mini = page.getByLabel("Try it");
  const shown = page.getByTestId("mini-result");
  await expect(shown).toHaveText("=0.3");
  await mini.fill("1/3*3");
  await expect(shown).toHaveText("=1");
  await mini.fill("2^0.5");
  await expect(shown).toHaveText("≈1.4142135623730950488");
  await mini.fill("(1 +");
  await expect(shown).toHaveText("Unexpected end of input (column 5)");
  // units and dates load on first use, as in the calculator
  await mini.fill("1.5 km in m");
  await expect(shown).toHaveText("=1500 m");
  await mini.fill("2026-12-01 + 30 days");
  await expect(shown).toHaveText("=2026-12-31");
  const money = "120 USD + 45 EUR in JPY";
  await mini.fill(money);
  await expect(shown).toHaveText(/^[=≈]\d+ JPY$/);
  const home = (await shown.textContent())?.slice(1);

  await page.getByRole("link", { name: "Open in the calculator" }).click();
  await expect(page.getByLabel("Expression")).toHaveValue(money);
  await expect(page.getByRole("region", { name: "Result" }).getByTestId("result-value")).toHaveText(
    home ?? "",
  );
});

test("on a phone the product pictures are the phone-sized ones", async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await page.goto("/");
  const picture = page.getByRole("img", { name: /The Abacus calculator/ }).filter({ visible: true });
  await picture.scrollIntoViewIfNeeded();
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
    .toMatch(/calculator-phone-light\.webp$/);
  // Drawn at nearly the size it was taken at (the desktop picture would be shrunk to a third).
  const { natural, scale } = await picture.evaluate((img: HTMLImageElement) => ({
    natural: img.naturalWidth,
    scale: img.clientWidth / img.naturalWidth,
  }));
  expect(natural).toBeGreaterThan(300);
  expect(scale).toBeGreaterThan(0.8);
});
