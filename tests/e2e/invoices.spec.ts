import { verify } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { demo, signIn, signUpAndOnboard, uniqueEmail } from "./auth-helpers";
import { chooseCountry } from "./pickers";

// Invoices: a purchase issues a numbered invoice, shown to the organization's members and to
// platform admins only, printable, and downloadable as PDF and as the signed receipt naming it.
test.describe.configure({ timeout: 120_000 });

async function buyPro(page: Page, name: string): Promise<string> {
  await signUpAndOnboard(page, { name, email: uniqueEmail(name.toLowerCase()), org: `${name} Books` });
  await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
  await chooseCountry(page.getByLabel("Country"), "Germany");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/receipt\?number=AB-/, { timeout: 30_000 });
  const link = page.getByTestId("receipt-invoice").getByRole("link");
  const number = (await link.textContent())?.trim() ?? "";
  expect(number).toMatch(/^INV-\d{4}-\d{6}$/);
  return number;
}

test("a purchase's invoice: page, print, PDF and signed JSON for members; 404 for others", async ({
  page,
  browser,
}) => {
  const number = await buyPro(page, "Ines");
  await page.getByTestId("receipt-invoice").getByRole("link").click();
  await expect(page).toHaveURL(`/invoices/${number}`);
  await expect(page.getByRole("heading", { level: 1, name: number })).toBeVisible();
  await expect(page.getByTestId("invoice-billed-to")).toHaveText("Ines Books");
  const lines = page.getByTestId("invoice-lines");
  await expect(lines).toContainText("Pro (monthly)");
  await expect(lines).toContainText("Tax 19 %");
  const total = (await page.getByTestId("invoice-total").textContent())?.trim();
  expect(total).toMatch(/^€\d+\.\d{2}$/);

  // The organization's list links to it.
  await page.goto("/invoices");
  await expect(page.getByRole("heading", { level: 1, name: "Invoices" })).toBeVisible();
  await expect(page.getByTestId("invoice-list").getByRole("link", { name: number })).toBeVisible();

  // Printed: the document without the site's header, footer and buttons.
  await page.goto(`/invoices/${number}`);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: number })).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  const pdf = await page.request.get(`/invoices/${number}/download?file=pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  const json = await page.request.get(`/invoices/${number}/download?file=json`);
  expect(json.status()).toBe(200);
  const signed = JSON.parse(await json.text());
  expect(signed).toMatchObject({ type: "abacus.receipt", invoiceNumber: number, currency: "EUR" });
  const sig = await page.request.get(`/invoices/${number}/download?file=sig`);
  const verified = await page.request.post("/api/v1/receipts/verify", {
    data: { receipt: await json.text(), signature: (await sig.body()).toString("base64") },
  });
  expect(await verified.json()).toMatchObject({ valid: true });

  // The accounting API, from the signed-in session; described in the OpenAPI document.
  const api = await page.request.get(`/api/v1/invoices/${number}`);
  expect(api.status()).toBe(200);
  expect(await api.json()).toMatchObject({
    number,
    currency: "EUR",
    total: expect.stringMatching(/^\d+\.\d{2}$/),
    receipt: { payload: await json.text() },
  });
  expect((await (await page.request.get("/api/v1/invoices?limit=1")).json()).data[0].number).toBe(number);
  const openapi = await (await page.request.get("/api/v1/openapi.json")).json();
  expect(Object.keys(openapi.paths)).toEqual(
    expect.arrayContaining(["/api/v1/invoices", "/api/v1/invoices/{number}"]),
  );

  // Someone else, signed in: as unknown as a number that does not exist.
  const outsider = await browser.newPage();
  await signIn(outsider, demo.owner);
  expect((await outsider.goto(`/invoices/${number}`))?.status()).toBe(404);
  expect((await outsider.request.get(`/invoices/${number}/download?file=pdf`)).status()).toBe(404);
  expect((await outsider.request.get(`/invoices/${number}/download?file=json`)).status()).toBe(404);
  expect((await outsider.request.get(`/api/v1/invoices/${number}`)).status()).toBe(404);
  await outsider.close();

  // A platform admin may see any invoice.
  const admin = await browser.newPage();
  await signIn(admin, demo.admin);
  expect((await admin.goto(`/invoices/${number}`))?.status()).toBe(200);
  await expect(admin.getByTestId("invoice-total")).toHaveText(total ?? "");
  await admin.close();

  // Anonymous: the page asks to sign in, the download answers 404.
  const anonymous = await browser.newContext();
  const anon = await anonymous.newPage();
  await anon.goto(`/invoices/${number}`);
  await expect(anon).toHaveURL(/\/sign-in\?redirect_url=/);
  expect((await anonymous.request.get(`/invoices/${number}/download?file=pdf`)).status()).toBe(404);
  await anonymous.close();
});

test("a platform admin refunds part of an invoice from /admin/billing; too much is refused beside the field", async ({
  page,
  browser,
}) => {
  const number = await buyPro(page, "Rafa");
  const admin = await browser.newPage();
  await signIn(admin, demo.admin);
  await admin.goto(`/admin/billing?q=${number}`);
  await expect(admin.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(admin.getByTestId("revenue-summary")).toContainText("EUR");
  const row = admin.getByTestId("admin-invoices").getByRole("listitem").filter({ hasText: number });
  await row.getByText("Refund…").click();
  const amount = row.getByLabel("Amount (EUR)");
  const paid = await amount.inputValue();
  expect(paid).toMatch(/^\d+\.\d{2}$/);
  const tooMuch = (Number(paid.replace(".", "")) + 1).toString().replace(/(\d{2})$/, ".$1");
  await amount.fill(tooMuch);
  await row.getByLabel("Reason").fill("Duplicate purchase");
  await row.getByRole("button", { name: "Refund" }).click();
  await expect(row.getByText("More than is left")).toBeVisible();
  await expect(row.getByText(`At most ${paid} EUR can be refunded`)).toBeVisible();
  await expect(amount).toHaveValue(tooMuch);
  await expect(row.getByLabel("Reason")).toHaveValue("Duplicate purchase");

  await amount.fill("1.00");
  await row.getByRole("button", { name: "Refund" }).click();
  await expect(admin.getByText(/Refunded 1\.00 EUR: credit note CN-\d{4}-\d{6}\./)).toBeVisible();
  await expect(row).toContainText("refunded €1.00");
  await admin.close();

  // The owner sees the credit note on the invoice and downloads it signed; the signature verifies
  // with the published receipt key it names.
  await page.goto(`/invoices/${number}`);
  const notes = page.getByTestId("invoice-credit-notes");
  await expect(notes).toContainText(/CN-\d{4}-\d{6}/);
  const href = await notes.getByRole("link", { name: /Signed JSON/ }).getAttribute("href");
  const noteJson = await page.request.get(href ?? "");
  expect(noteJson.status()).toBe(200);
  const note = JSON.parse(await noteJson.text());
  expect(note).toMatchObject({ type: "abacus.credit-note", invoiceNumber: number, total: "1.00" });
  const noteSig = await page.request.get((href ?? "").replace("file=json", "file=sig"));
  const pem = await page.request.get(`/api/v1/receipt-keys?kid=${encodeURIComponent(note.kid)}&format=pem`);
  expect(verify(null, Buffer.from(await noteJson.text()), await pem.text(), await noteSig.body())).toBe(true);
  // A credit note of another invoice, or one that does not exist, is not served under this one.
  expect((await page.request.get(href?.replace(/CN-\d{4}-\d{6}/, "CN-1999-000001") ?? "")).status()).toBe(
    404,
  );

  // Not for anyone else: the admin area is a 404 for the invoice's own owner.
  expect((await page.goto("/admin/billing"))?.status()).toBe(404);
});
