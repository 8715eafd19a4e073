import { expect, type Page, test } from "@playwright/test";

// Compound units (km/h, m/s², kWh) in the notebook and the single-expression box, used as a person
// would. Expected values are worked out by hand from the lines typed.

const sheet = (page: Page) => page.getByRole("textbox", { name: /^Sheet/ });
const result = (page: Page, line: number) => page.getByTestId(`line-${line}-result`);

test("compound units in the notebook and the decimal box", async ({ page }) => {
  await page.goto("/calculator");
  await sheet(page).click();
  await page.keyboard.type(
    [
      "trip = 420 km",
      "speed = trip / 5 h",
      "speed in m/s",
      "3 kW * 2 h in kWh",
      "0.30 EUR/kWh * line4",
      "1 GB / 10 MB/s",
      "speed + 2 kg",
    ].join("\n"),
  );
  await expect(result(page, 2)).toContainText("84 km/h"); // 420 / 5
  await expect(result(page, 3)).toContainText("23.333333333333333333 m/s"); // 84000 / 3600
  await expect(result(page, 4)).toContainText("6 kWh");
  await expect(result(page, 5)).toContainText("1.80 EUR"); // 0.30 × 6
  await expect(result(page, 6)).toContainText("100 s"); // 1000 MB / 10 MB/s
  await expect(page.getByTestId("line-7-error")).toContainText("Cannot add a speed (km/h) and a mass (kg)");

  await page.goto("/calculator?mode=decimal");
  const box = page.getByLabel("Expression");
  const value = page.getByRole("region", { name: "Result" }).getByTestId("result-value");
  await box.fill("120 km/h * 90 min");
  await expect(value).toHaveText("180 km");
  await box.fill("9.81 m/s² * 3 s");
  await expect(value).toHaveText("29.43 m/s");
});
