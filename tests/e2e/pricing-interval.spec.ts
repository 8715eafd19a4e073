import { expect, test } from "@playwright/test";
import { chooseCurrency } from "./pickers";

test("the yearly interval is kept in the address with the currency, and shows its month and saving", async ({
  page,
}) => {
  await page.goto("/pricing");
  const pro = page.getByTestId("price-pro").filter({ visible: true });
  await expect(pro).toHaveText("$12");

  await page.getByText("Yearly").click();
  await expect(pro).toHaveText("$120");
  await expect(page).toHaveURL(/\/pricing\?interval=yearly$/);
  // A year costs ten months: $120 is $10 a month, $24 less than twelve months at $12.
  await expect(page.getByTestId("yearly-terms-pro")).toHaveText("$10 a month, billed annually · save $24");
  await expect(page.getByTestId("yearly-terms-team")).toHaveText(
    "$32.50 a month, billed annually · save $78",
  );
  await expect(page.getByTestId("yearly-terms-free")).toHaveCount(0);

  // Changing the currency keeps the interval, and a reload keeps both.
  await chooseCurrency(page.getByLabel("Currency"), "EUR");
  await expect(page).toHaveURL(/[?&]interval=yearly/);
  await expect(page).toHaveURL(/[?&]currency=EUR/);
  await page.reload();
  await expect(page.getByLabel("Yearly")).toBeChecked();
  await expect(pro).toContainText("€");
  await expect(page.getByTestId("yearly-terms-pro")).toContainText("a month, billed annually · save €");

  // A shared link opens on the interval it names; monthly leaves the address clean.
  await page.goto("/pricing?interval=yearly&currency=JPY");
  await expect(page.getByLabel("Yearly")).toBeChecked();
  await expect(page.getByRole("link", { name: "Choose Pro" })).toHaveAttribute(
    "href",
    "/checkout?plan=pro&interval=yearly&currency=JPY",
  );
  await page.getByText("Monthly").click();
  await expect(page).toHaveURL(/\/pricing\?currency=JPY$/);
});
