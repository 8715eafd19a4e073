import { expect, test } from "@playwright/test";
import { demo, signIn } from "./auth-helpers";

// The seeded Demo Company's Pro plan was paid through the checkout like a customer's
// (scripts/db/seed-billing.ts): its invoice carries the signed receipt, which verifies.

test("the seeded demo invoice downloads as signed JSON that verifies", async ({ page }) => {
  await signIn(page, demo.owner);
  await page.goto("/dashboard/billing");
  const invoices = page.getByTestId("billing-invoices");
  const link = invoices.getByRole("link", { name: /^INV-\d{4}-\d{6}$/ }).last();
  const number = (await link.textContent())?.trim() ?? "";
  const row = invoices.getByRole("row").filter({ has: page.getByRole("link", { name: number }) });
  await expect(row.getByRole("link", { name: "Signed JSON" })).toBeVisible();

  const json = await page.request.get(`/invoices/${number}/download?file=json`);
  expect(json.status()).toBe(200);
  expect(JSON.parse(await json.text())).toMatchObject({
    type: "abacus.receipt",
    invoiceNumber: number,
    plan: "pro",
    currency: "USD",
    total: "12.00",
  });
  const sig = await page.request.get(`/invoices/${number}/download?file=sig`);
  const verified = await page.request.post("/api/v1/receipts/verify", {
    data: { receipt: await json.text(), signature: (await sig.body()).toString("base64") },
  });
  expect(await verified.json()).toMatchObject({ valid: true });
});
