import { type Browser, expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, uniqueEmail } from "./auth-helpers";
import { chooseCountry, chooseOption } from "./pickers";
import { testSql } from "./support";

// Coupons and VAT IDs at checkout (docs: Plans and billing → Promotion codes, VAT IDs). The server
// runs with SELLER_COUNTRY=DE (playwright.config.ts).
test.describe.configure({ timeout: 240_000 });
const sql = testSql();
test.afterAll(async () => {
  await sql.end();
});

const suffix = `${Date.now().toString(36).toUpperCase()}${process.pid}`;

async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, demo.admin);
  await page.goto("/admin/coupons");
  await expect(page.getByRole("heading", { level: 1, name: "Coupons" })).toBeVisible();
  return page;
}

async function createCoupon(page: Page, code: string, fill: (page: Page) => Promise<void>) {
  await page.getByLabel("Code", { exact: true }).fill(code);
  await fill(page);
  await page.getByRole("button", { name: "Create coupon" }).click();
  await expect(page.getByTestId(`coupon-${code}`)).toBeVisible();
}

async function newOwner(page: Page, name: string) {
  const email = uniqueEmail(name.toLowerCase());
  await signUpAndOnboard(page, { name, email, org: `${name} Books` });
  return email;
}

async function ordersOf(email: string) {
  return sql<{ status: string; discount_minor: string; coupon: string | null; reverse_charge: boolean }[]>`
    select o.status, o.discount_minor::text, c.code as coupon, o.reverse_charge
    from orders o
    left join coupons c on c.id = o.coupon_id
    join member m on m.organization_id = o.organization_id
    join "user" u on u.id = m.user_id
    where u.email = ${email}`;
}

async function fillCard(page: Page, country: string) {
  await chooseCountry(page.getByLabel("Country"), country);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
}

test("an admin creates coupons, a customer redeems one; bad codes each say why", async ({
  browser,
  page,
}) => {
  const admin = await adminPage(browser);
  // Bad input: specific messages beside each field, values kept.
  await admin.getByLabel("Code", { exact: true }).fill("half off");
  await admin.getByLabel("Percentage off").fill("150");
  await admin.getByRole("button", { name: "Create coupon" }).click();
  await expect(admin.locator("#coupon-code-error")).toHaveText(/letters, digits and dashes/);
  await admin.getByLabel("Code", { exact: true }).fill(`HALF-${suffix}`);
  await admin.getByRole("button", { name: "Create coupon" }).click();
  await expect(admin.locator("#coupon-percentOff-error")).toHaveText(
    "A percentage is more than 0 and at most 100.",
  );
  await expect(admin.getByLabel("Percentage off")).toHaveValue("150");

  const half = `HALF-${suffix}`;
  await createCoupon(admin, half, async (p) => {
    await p.getByLabel("Percentage off").fill("50");
    await p.getByLabel("Redemption cap (optional)").fill("1");
  });
  await expect(admin.getByTestId(`coupon-${half}`).getByTestId("coupon-redemptions")).toHaveText("0 / 1");
  const usd = `USD5-${suffix}`;
  await createCoupon(admin, usd, async (p) => {
    await chooseOption(p.getByLabel("Discount", { exact: true }), "Fixed amount off");
    await p.getByLabel("Amounts").fill("USD 5.00");
  });
  const off = `OFF-${suffix}`;
  await createCoupon(admin, off, async (p) => {
    await p.getByLabel("Percentage off").fill("10");
  });
  await admin.getByRole("button", { name: `Deactivate ${off}` }).click();
  await expect(admin.getByTestId(`coupon-${off}`).getByTestId("coupon-state")).toHaveText("Inactive");

  // A customer: each bad code has its own message; the form keeps what was typed.
  const email = await newOwner(page, "Cora");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await fillCard(page, "Germany");
  const code = page.getByLabel("Promotion code (optional)");
  const cases: [string, string][] = [
    [`NOPE-${suffix}`, `There is no promotion code NOPE-${suffix}.`],
    [usd, `The code ${usd} cannot be used with EUR: it is for USD.`],
    [off, `The code ${off} is no longer active.`],
  ];
  // "Apply" checks a code before paying; Enter in the field does the same.
  for (const [i, [typed, message]] of cases.entries()) {
    await code.fill(typed);
    if (i === 0) await code.press("Enter");
    else await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.locator("#checkout-couponCode-error")).toHaveText(message);
    await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
    await expect(code).toHaveValue(typed);
    await expect(page.getByTestId("summary-discount")).toHaveCount(0);
  }
  // Paying with a bad code says the same.
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.locator("#checkout-couponCode-error")).toHaveText(cases[2]?.[1] ?? "");

  // A good code: the summary shows the discount named by its code before paying, and the button the total.
  const plainTotal = await page.getByTestId("summary-total").textContent();
  await code.fill(half.toLowerCase());
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByTestId("summary-preview")).toContainText(`Discount (${half})`);
  await expect(page.getByTestId("summary-tax")).not.toHaveText("");
  const total = page.getByTestId("summary-total");
  await expect(total).not.toHaveText(plainTotal ?? "");
  const discounted = (await total.textContent()) ?? "";
  await expect(page.getByRole("button", { name: `Pay ${discounted}`, exact: true })).toBeVisible();
  // Another country prices it again (France's 20 % instead of Germany's 19 %).
  await chooseCountry(page.getByLabel("Country"), "France");
  await expect(page.getByTestId("summary-preview")).toContainText("FR 20%");
  await expect(total).not.toHaveText(discounted);
  await chooseCountry(page.getByLabel("Country"), "Germany");
  await expect(page.getByTestId("summary-preview")).toContainText("DE 19%");
  await expect(total).toHaveText(discounted);
  expect(await ordersOf(email)).toEqual([]);

  // A malformed VAT ID is refused beside its field.
  await page.getByLabel("VAT ID (optional)").fill("DE136695977");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.locator("#checkout-vatId-error")).toHaveText(/check digits/);
  expect(await ordersOf(email)).toEqual([]);

  await page.getByLabel("VAT ID (optional)").fill("DE 136 695 976");
  // A German VAT ID in Germany is no reverse charge: the preview keeps its total.
  await expect(page.getByRole("button", { name: `Pay ${discounted}`, exact: true })).toBeVisible();
  await page.getByRole("button", { name: `Pay ${discounted}`, exact: true }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });
  const [order] = await ordersOf(email);
  expect(order).toMatchObject({ status: "paid", coupon: half, reverse_charge: false });
  expect(BigInt(order?.discount_minor ?? "0")).toBeGreaterThan(0n);
  // The invoice shows the discount line with the code.
  await page.getByTestId("receipt-invoice").getByRole("link").click();
  await expect(page.getByTestId("invoice-lines")).toContainText(half);

  // The cap was 1: the next organization is refused.
  await admin.reload();
  await expect(admin.getByTestId(`coupon-${half}`).getByTestId("coupon-redemptions")).toHaveText("1 / 1");
  const next = await (await browser.newContext()).newPage();
  await newOwner(next, "Dev");
  await next.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await fillCard(next, "Germany");
  await next.getByLabel("Promotion code (optional)").fill(half);
  await next.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(next.locator("#checkout-couponCode-error")).toHaveText(
    `The code ${half} has been used as many times as it allows.`,
  );
});

test("an EU business in another member state is reverse-charged", async ({ page }) => {
  const email = await newOwner(page, "Elise");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await fillCard(page, "France");
  await page.getByLabel("VAT ID (optional)").fill("FR40303265045");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });
  expect(await ordersOf(email)).toMatchObject([{ status: "paid", reverse_charge: true }]);
  await page.getByTestId("receipt-invoice").getByRole("link").click();
  await expect(page.getByTestId("invoice-lines")).toContainText("Reverse charge");
});

test("a repeating code discounts the upgrade's proration, shown before it is confirmed", async ({ page }) => {
  const code = `THREE-${suffix}`;
  await sql`insert into coupons (code, kind, percent_off, duration, duration_periods)
    values (${code}, 'percent', '20', 'repeating', 3)`;
  const email = await newOwner(page, "Ugo");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await fillCard(page, "Germany");
  await page.getByLabel("Promotion code (optional)").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByTestId("summary-discount")).toBeVisible();
  await page.getByRole("button", { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });

  await page.goto("/dashboard/billing");
  await page.getByRole("radio", { name: "Team, monthly" }).check();
  const preview = page.getByTestId("proration-preview");
  await expect(preview).toContainText(`Discount (${code})`);
  await expect(page.getByTestId("proration-discount")).toHaveText(/^-€\d+\.\d{2}$/);
  await page.getByRole("button", { name: /^Upgrade and pay €/ }).click();
  await expect(page.getByTestId("billing-current-plan")).toHaveText("Team, billed monthly", {
    timeout: 30_000,
  });
  const [proration] = await sql<{ discount_minor: string; coupon: string | null }[]>`
    select o.discount_minor::text, c.code as coupon
    from orders o
    left join coupons c on c.id = o.coupon_id
    join member m on m.organization_id = o.organization_id
    join "user" u on u.id = m.user_id
    where u.email = ${email} and o.kind = 'proration'`;
  expect(proration?.coupon).toBe(code);
  expect(BigInt(proration?.discount_minor ?? "0")).toBeGreaterThan(0n);
});
