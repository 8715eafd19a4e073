import { expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, uniqueEmail } from "./auth-helpers";
import { chooseCountry } from "./pickers";

// The customer billing page: plan, next charge and card on file; an upgrade whose proration is
// shown before it is confirmed, charged to the card on file, and invoiced with a credit and a
// charge line; cancel with a reason and resume; members read only.
test.describe.configure({ timeout: 150_000 });

const euros = (text: string | null) => {
  const m = /^€(\d+)\.(\d{2})$/.exec(text?.trim() ?? "");
  if (!m) throw new Error(`not a euro amount: ${text}`);
  return BigInt(m[1] ?? "0") * 100n + BigInt(m[2] ?? "0");
};

async function buyPro(page: Page, name: string) {
  await signUpAndOnboard(page, { name, email: uniqueEmail(name.toLowerCase()), org: `${name} Books` });
  await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await chooseCountry(page.getByLabel("Country"), "Germany");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });
}

test("an upgrade shows its proration, charges it, and its invoice credits the unused time", async ({
  page,
}) => {
  await buyPro(page, "Uma");
  await page.goto("/dashboard");
  await page.getByRole("link", { name: /Open billing/ }).click();
  await expect(page).toHaveURL("/dashboard/billing");
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(page.getByTestId("billing-current-plan")).toHaveText("Pro, billed monthly");
  await expect(page.getByTestId("billing-status")).toHaveText("Active");
  await expect(page.getByTestId("billing-card")).toContainText("Visa ending 4242");
  await expect(page.getByTestId("billing-card")).toContainText("Expires 12/2030");
  // The next renewal: Pro's EUR price plus German VAT.
  await expect(page.getByTestId("billing-next-charge")).toHaveText(/^€\d+\.\d{2}$/);

  await page.getByRole("radio", { name: "Team, monthly" }).check();
  const preview = page.getByTestId("proration-preview");
  await expect(preview).toContainText("Credit for the unused time of the current plan");
  await expect(preview).toContainText("Tax (19 %)");
  const shown = euros(await page.getByTestId("proration-total").textContent());
  expect(shown).toBeGreaterThan(0n);
  await page.getByRole("button", { name: /^Upgrade and pay €/ }).click();
  await expect(page.getByTestId("billing-current-plan")).toHaveText("Team, billed monthly", {
    timeout: 30_000,
  });

  // The newest invoice is the proration: a charge line, a negative credit line, tax; they sum to it.
  const newest = page
    .getByTestId("billing-invoices")
    .getByRole("link", { name: /^INV-\d{4}-\d{6}$/ })
    .first();
  const number = (await newest.textContent())?.trim() ?? "";
  await newest.click();
  await expect(page).toHaveURL(`/invoices/${number}`);
  const lines = page.getByTestId("invoice-lines");
  await expect(lines).toContainText("Team (monthly), remaining time");
  await expect(lines).toContainText("Unused time on the previous plan");
  const total = euros(await page.getByTestId("invoice-total").textContent());
  // Priced again to the second at confirmation: at most a cent from the preview.
  expect(total - shown <= 1n && shown - total <= 1n).toBe(true);

  // Cancel at period end with a reason, then resume.
  await page.goto("/dashboard/billing");
  await page.getByRole("button", { name: "Cancel at period end…" }).click();
  await page.getByLabel("Why are you cancelling? (optional)").fill("Trying a spreadsheet");
  await page.getByRole("button", { name: "Yes, cancel at period end" }).click();
  await expect(page.getByTestId("billing-status")).toHaveText(/^Ends on /);
  await expect(page.getByTestId("billing-next-charge")).toContainText(
    "None: the plan ends with this period.",
  );
  await page.getByRole("button", { name: "Resume Team" }).click();
  await expect(page.getByTestId("billing-status")).toHaveText("Active");
});

test("billing details keep what was typed when refused; members read only", async ({ page, browser }) => {
  await signIn(page, demo.owner);
  await page.goto("/dashboard/billing");
  await expect(page.getByTestId("billing-current-plan")).toContainText("Pro");
  await page.getByLabel("Name on invoices").fill("Demo Company Ltd");
  await page.getByLabel("Invoice email").fill("not-an-email");
  await page.getByLabel("Address").fill("1 Main Street");
  await page.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Enter an email address, or leave it empty.")).toBeVisible();
  await expect(page.getByLabel("Name on invoices")).toHaveValue("Demo Company Ltd");
  await expect(page.getByLabel("Address")).toHaveValue("1 Main Street");
  await page.getByLabel("Invoice email").fill("billing@example.com");
  await page.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Billing details saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Invoice email")).toHaveValue("billing@example.com");

  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await signIn(memberPage, demo.member);
  await memberPage.goto("/dashboard/billing");
  await expect(memberPage.getByText("Only owners and admins can change the plan.")).toBeVisible();
  await expect(memberPage.getByLabel("Name on invoices")).toBeDisabled();
  await expect(memberPage.getByRole("button", { name: "Save billing details" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: /Upgrade/ })).toHaveCount(0);
  await context.close();
});

test("the card on file is replaced; a declining card is refused and keeps what was typed", async ({
  page,
}) => {
  await buyPro(page, "Cara");
  // Every answer the server sends back while the card is updated: none may repeat a card number.
  const answers: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().method() === "POST") answers.push(response.text().catch(() => ""));
  });
  await page.goto("/dashboard/billing");
  const form = page.getByTestId("billing-card-form");
  await form.getByLabel("Card number").fill("4000 0000 0000 0002");
  await form.getByLabel("Expiry (MM/YY)").fill("10/31");
  await form.getByLabel("Security code").fill("456");
  await form.getByRole("button", { name: "Save card" }).click();
  await expect(form.getByText(/declined/i)).toBeVisible({ timeout: 30_000 });
  await expect(form.getByLabel("Card number")).toHaveValue("4000 0000 0000 0002");
  await expect(form.getByLabel("Expiry (MM/YY)")).toHaveValue("10/31");
  await expect(page.getByTestId("billing-card")).toContainText("Visa ending 4242");

  await form.getByLabel("Card number").fill("5555 5555 5555 4444");
  await form.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByTestId("billing-card-saved")).toHaveText("Card saved: Mastercard ending in 4444.", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("billing-card")).toContainText("Mastercard ending 4444");
  await expect(page.getByTestId("billing-card")).toContainText("Expires 10/2031");
  await expect(form.getByLabel("Card number")).toHaveValue("");
  const bodies = (await Promise.all(answers)).join("\n");
  expect(bodies.length).toBeGreaterThan(0);
  for (const number of [
    "4000000000000002",
    "4000 0000 0000 0002",
    "5555555555554444",
    "5555 5555 5555 4444",
  ]) {
    expect(bodies).not.toContain(number);
  }
});
