import { expect, type Locator } from "@playwright/test";

/**
 * Driving our Select and Combobox primitives (Radix), which `selectOption` cannot: open the control,
 * then pick by what a person reads. Each helper checks that the closed control shows the choice.
 */

/**
 * Clicks `trigger` until `opened` shows. A click that lands before the page has hydrated opens
 * nothing (the server's HTML has no handlers yet) and a person would simply click again; a helper
 * that clicked once then waited on the popup hung until the test's time ran out.
 */
async function open(trigger: Locator, opened: Locator) {
  await expect(async () => {
    if (!(await opened.isVisible())) await trigger.click();
    await expect(opened).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** A `Select` (rounding mode, topic): opens it and clicks the option with exactly this label. */
export async function chooseOption(trigger: Locator, label: string) {
  const option = trigger.page().getByRole("option", { name: label, exact: true });
  await open(trigger, option);
  await option.click();
  await expect(trigger).toHaveText(label);
}

/**
 * A currency `Combobox`: opens it, types `search` (a code or part of a name) into its search box and
 * picks the currency with `code`. The closed control then shows the code.
 */
export async function chooseCurrency(trigger: Locator, code: string, search: string = code) {
  const page = trigger.page();
  const searchBox = page.getByRole("combobox", { name: "Search currencies by code or name" });
  await open(trigger, searchBox);
  await searchBox.fill(search);
  await page.getByRole("option", { name: new RegExp(`^${code}\\b`) }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/**
 * A country `Combobox` (checkout): opens it, types the country's name into its search box and picks
 * it. The closed control then shows the name.
 */
export async function chooseCountry(trigger: Locator, name: string) {
  const page = trigger.page();
  // Already chosen (checkout fills in the last order's country): a person leaves it as it is.
  if ((await trigger.textContent())?.trim() === name) return;
  const searchBox = page.getByRole("combobox", { name: "Search countries" });
  await open(trigger, searchBox);
  await searchBox.fill(name);
  await page.getByRole("option", { name, exact: true }).click();
  await expect(trigger).toHaveText(name);
}
