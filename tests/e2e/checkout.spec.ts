import { expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, uniqueEmail } from "./auth-helpers";
import { chooseCountry, chooseCurrency, chooseOption } from "./pickers";
import { testSql } from "./support";

// Checkout with the built-in test provider (docs: Plans and billing → Test cards). Each journey
// signs up, onboards and pays: more steps than the default 30 s allows on a busy machine.
test.describe.configure({ timeout: 120_000 });
const sql = testSql();
test.afterAll(async () => {
  await sql.end();
});
// The first sign-up on a fresh server loads the auth screens' code; do that before anything is timed.
test.beforeAll(async ({ request }) => {
  await request.get("/sign-up");
  await request.get("/onboarding", { maxRedirects: 0 });
});

async function newOwner(page: Page, name: string) {
  const email = uniqueEmail(name.toLowerCase());
  await signUpAndOnboard(page, { name, email, org: `${name} Books` });
  return email;
}

async function ordersOf(email: string) {
  return sql<{ status: string; total_minor: string; currency: string; payments: string }[]>`
    select o.status, o.total_minor::text, o.currency,
      (select count(*) from payments p where p.order_id = o.id)::text as payments
    from orders o
    join member m on m.organization_id = o.organization_id
    join "user" u on u.id = m.user_id
    where u.email = ${email}`;
}

async function fillCheckout(page: Page, card: string, country = "Japan") {
  await chooseCountry(page.getByLabel("Country"), country);
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
}

test("an owner buys Pro in JPY from /pricing, gets a receipt and verifies it in the workbench", async ({
  page,
}) => {
  const email = await newOwner(page, "Hana");
  await page.goto("/pricing");
  await chooseCurrency(page.getByLabel("Currency"), "JPY");
  await expect(page.getByTestId("price-pro").filter({ visible: true })).toHaveText("¥1,880");
  await page.getByRole("link", { name: "Choose Pro" }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=pro&interval=monthly&currency=JPY/);
  // The same price as the pricing page, to the yen.
  await expect(page.getByTestId("summary-price")).toHaveText("¥1,880");
  await fillCheckout(page, "4242 4242 4242 4242");
  await expect(page.getByTestId("summary-tax")).toHaveText("¥188");
  await expect(page.getByTestId("summary-total")).toHaveText("¥2,068");
  await expect(page.getByText("Visa", { exact: true })).toBeVisible();

  const submitted = Date.now();
  await page.getByRole("button", { name: "Pay ¥2,068" }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-\d{4}-[0-9A-F]{12}/, { timeout: 30_000 });
  await expect(page.getByTestId("receipt-total")).toHaveText("¥2,068");
  test.info().annotations.push({ type: "submit-to-receipt-ms", description: String(Date.now() - submitted) });
  await expect(page.getByText("Visa ending 4242")).toBeVisible();

  const orders = await ordersOf(email);
  expect(orders).toEqual([{ status: "paid", total_minor: "2068", currency: "JPY", payments: "1" }]);

  // The downloaded receipt is the exact signed bytes.
  const number = new URL(page.url()).searchParams.get("number") ?? "";
  const json = await page.request.get(`/receipt/download?number=${number}&file=json`);
  expect(await json.text()).toContain('"total":"2068"');
  const verified = await page.request.post("/api/v1/receipts/verify", {
    data: {
      receipt: await json.text(),
      signature: (await page.getByTestId("receipt-signature").textContent())?.trim(),
    },
  });
  expect(await verified.json()).toMatchObject({ valid: true, receiptNumber: number });
  const forged = await page.request.post("/api/v1/receipts/verify", {
    data: {
      receipt: (await json.text()).replace('"total":"2068"', '"total":"1"'),
      signature: (await page.getByTestId("receipt-signature").textContent())?.trim(),
    },
  });
  expect(await forged.json()).toMatchObject({ valid: false, code: "bad_signature" });
  // The genuine total written a second time after a fake one: JSON.parse would keep the genuine one,
  // a reader may see the fake; OpenSSL refuses the file, and so does the API.
  const doubledText = (await json.text()).replace('"total":"2068"', '"total":"0.01","total":"2068"');
  const doubled = await page.request.post("/api/v1/receipts/verify", {
    data: {
      receipt: doubledText,
      signature: (await page.getByTestId("receipt-signature").textContent())?.trim(),
    },
  });
  expect(await doubled.json()).toMatchObject({ valid: false, code: "malformed" });
  const keys = await (await page.request.get("/api/v1/receipt-keys")).json();
  const kid = JSON.parse(await json.text()).kid;
  expect(keys.keys).toContainEqual(
    expect.objectContaining({
      kid,
      kty: "OKP",
      crv: "Ed25519",
      status: "current",
      pem: expect.stringContaining("BEGIN PUBLIC KEY"),
    }),
  );

  await page.getByRole("link", { name: "Verify in the workbench" }).click();
  await expect(page).toHaveURL(/mode=crypto&tool=receipt/);
  await expect(page.getByLabel("Receipt (receipt.json)")).toHaveValue(/"receiptNumber"/);
  await page.getByRole("button", { name: "Verify receipt" }).click();
  await expect(page.getByTestId("receipt-valid")).toContainText(
    `receipt ${number} was signed by this instance`,
  );

  // An altered receipt is refused in the workbench.
  const receiptBox = page.getByLabel("Receipt (receipt.json)");
  await receiptBox.fill((await receiptBox.inputValue()).replace('"total":"2068"', '"total":"1"'));
  await page.getByRole("button", { name: "Verify receipt" }).click();
  await expect(page.getByTestId("receipt-invalid")).toContainText("does not match");
  await receiptBox.fill(doubledText);
  await page.getByRole("button", { name: "Verify receipt" }).click();
  await expect(page.getByTestId("receipt-invalid")).toContainText('names the key "total" twice');

  // The dashboard shows the plan and the receipt.
  await page.goto("/dashboard");
  await expect(page.getByTestId("billing-plan")).toContainText("Pro plan, billed monthly in JPY");
  await expect(page.getByRole("link", { name: number })).toBeVisible();
});

test("a declined card keeps the form filled in and leaves a failed order", async ({ page }) => {
  const email = await newOwner(page, "Dara");
  await page.goto("/checkout?plan=team&interval=yearly&currency=EUR");
  await fillCheckout(page, "4000000000000002", "Germany");
  await page.getByLabel("VAT ID (optional)").fill("DE136695976");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.locator("#checkout-cardNumber-error")).toHaveText(/Your card was declined/);
  await expect(page).toHaveURL(/\/checkout/);
  await expect(page.getByLabel("Card number")).toHaveValue("4000 0000 0000 0002");
  await expect(page.getByLabel("Country")).toHaveText("Germany");
  await expect(page.getByLabel("VAT ID (optional)")).toHaveValue("DE136695976");
  expect((await ordersOf(email)).map((o) => o.status)).toEqual(["failed"]);

  // Bad input: per-field errors, values kept, nothing ordered.
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await page.getByLabel("Expiry (MM/YY)").fill("13/30");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.locator("#checkout-cardNumber-error")).toHaveText(/not valid/);
  await expect(page.locator("#checkout-expiry-error")).toHaveText(/01 to 12/);
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4241");
  expect(await ordersOf(email)).toHaveLength(1);

  // A corrected card then pays (a new attempt, a new idempotency key).
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/receipt\?number=/, { timeout: 30_000 });
  expect((await ordersOf(email)).map((o) => o.status).sort()).toEqual(["failed", "paid"]);
});

test("a lost answer keeps the order pending and the same key; reloading and paying again confirms it once", async ({
  page,
}) => {
  const email = await newOwner(page, "Tove");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=USD");
  await fillCheckout(page, "4000000000000119", "United States");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.locator("#checkout-form-error")).toHaveText(/not confirmed this payment yet/);
  await expect(page).toHaveURL(/\/checkout/);
  await expect(page.getByLabel("Card number")).toHaveValue("4000 0000 0000 0119");
  expect(await ordersOf(email)).toEqual([
    { status: "pending", total_minor: "1200", currency: "USD", payments: "1" },
  ]);

  // A reload resumes the pending order (its key), and says so; another card is refused without a charge.
  await page.reload();
  await expect(page.getByTestId("pending-order")).toContainText("card ending 0119");
  await fillCheckout(page, "4242424242424242", "United States");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.locator("#checkout-form-error")).toHaveText(
    /still being confirmed with the Visa card ending 0119/,
  );

  // The same card again: the provider answers with the first charge; the order is paid, once.
  await page.getByLabel("Card number").fill("4000000000000119");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/receipt\?number=/, { timeout: 30_000 });
  expect(await ordersOf(email)).toEqual([
    { status: "paid", total_minor: "1200", currency: "USD", payments: "1" },
  ]);
});

test("a member sees that only owners and admins can change the plan", async ({ page }) => {
  await signIn(page, demo.member);
  const response = await page.goto("/checkout?plan=pro&interval=monthly&currency=USD");
  expect(response?.status()).toBe(200);
  await expect(
    page.getByRole("heading", { name: "Only owners and admins can change the plan" }),
  ).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await page.goto("/dashboard");
  await expect(page.getByText("Only owners and admins can change the plan.")).toBeVisible();
});

test("a double submit charges once", async ({ page }) => {
  const email = await newOwner(page, "Remy");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=USD");
  await fillCheckout(page, "4000 0000 0000 3063", "United States");
  // Two submits of one form before the first answers (the slow card takes 3 s), then a double click.
  await page
    .locator("form")
    .filter({ has: page.getByLabel("Card number") })
    .evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      form.requestSubmit();
    });
  await page.getByRole("button", { name: /^Pay|Paying/ }).dblclick({ force: true });
  await expect(page).toHaveURL(/\/receipt\?number=/, { timeout: 30_000 });
  const orders = await ordersOf(email);
  expect(orders).toEqual([{ status: "paid", total_minor: "1200", currency: "USD", payments: "1" }]);
});

test("an owner downgrades and cancels at period end from the dashboard, with confirmation", async ({
  page,
}) => {
  await newOwner(page, "Ines");
  await page.goto("/checkout?plan=team&interval=monthly&currency=USD");
  await fillCheckout(page, "5555 5555 5555 4444", "United States");
  await page.getByRole("button", { name: "Pay $39.00" }).click();
  await expect(page).toHaveURL(/\/receipt\?number=/, { timeout: 30_000 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("billing-plan")).toContainText("Team plan, billed monthly in USD");

  await page.getByRole("button", { name: "Downgrade to Pro…" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Team stays until");
  await page.getByRole("button", { name: "No, keep it" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Downgrade to Pro…" }).click();
  await page.getByRole("button", { name: "Yes, downgrade to Pro" }).click();
  await expect(page.getByText("Moves to Pro when this period ends.")).toBeVisible();
  // Still Team until the period ends.
  await expect(page.getByTestId("billing-plan")).toContainText("Team plan");

  await page.getByRole("button", { name: "Keep Team" }).click();
  await expect(page.getByText("Moves to Pro when this period ends.")).toHaveCount(0);
  await page.getByRole("button", { name: "Cancel at period end…" }).click();
  await page.getByRole("button", { name: "Yes, cancel at period end" }).click();
  await expect(page.getByText("Ends with this period; then back to Free.")).toBeVisible();
});

test("an applied promotion code is priced again when the plan, interval or currency changes", async ({
  page,
}) => {
  const code = `QUARTER-${Date.now().toString(36).toUpperCase()}`;
  await sql`insert into coupons (code, kind, percent_off, duration) values (${code}, 'percent', '25', 'once')`;
  const email = await newOwner(page, "Pia");
  await page.goto("/checkout?plan=pro&interval=monthly&currency=USD");
  await fillCheckout(page, "4242 4242 4242 4242", "United States");
  await page.getByLabel("Promotion code (optional)").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  // Pro monthly: 12.00 − 25 % = 9.00, no US tax.
  await expect(page.getByTestId("summary-discount")).toHaveText("−$3.00");
  await expect(page.getByTestId("summary-total")).toHaveText("$9.00");
  await expect(page.getByRole("button", { name: "Pay $9.00", exact: true })).toBeVisible();
  // Team monthly: 39.00 − 9.75 = 29.25; yearly: 390.00 − 97.50 = 292.50.
  await chooseOption(page.getByLabel("Plan", { exact: true }), "Team");
  await expect(page).toHaveURL(/plan=team/);
  await expect(page.getByTestId("summary-discount")).toHaveText("−$9.75");
  await expect(page.getByRole("button", { name: "Pay $29.25", exact: true })).toBeVisible();
  await chooseOption(page.getByLabel("Billing interval"), "Yearly (2 months free)");
  await expect(page.getByTestId("summary-discount")).toHaveText("−$97.50");
  await expect(page.getByRole("button", { name: "Pay $292.50", exact: true })).toBeVisible();
  // Another currency: the same code, priced in euros.
  await chooseCurrency(page.getByLabel("Currency"), "EUR");
  await expect(page.getByTestId("summary-total")).toHaveText(/€/);
  await expect(page.getByTestId("summary-preview")).toContainText(`Discount (${code})`);
  await chooseCurrency(page.getByLabel("Currency"), "USD");
  await expect(page.getByRole("button", { name: "Pay $292.50", exact: true })).toBeVisible();
  // Editing the code un-applies it until "Apply".
  await page.getByLabel("Promotion code (optional)").fill(`${code}X`);
  await expect(page.getByTestId("summary-discount")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toBeVisible();
  await page.getByLabel("Promotion code (optional)").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await page.getByRole("button", { name: "Pay $292.50", exact: true }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });
  expect(await ordersOf(email)).toMatchObject([{ status: "paid", total_minor: "29250", currency: "USD" }]);
});
