import { expect, type Locator } from "@playwright/test";

/**
 * Driving our Select and Combobox primitives (Radix), which `selectOption` cannot: open the control,
 * then pick by what a person reads. Each helper checks that the closed control shows the choice.
 */

/** A `Select` (rounding mode, topic): opens it and clicks the option with exactly this label. */
export async function chooseOption(trigger: Locator, label: string) {
  await trigger.click();
  await trigger.page().getByRole("option", { name: label, exact: true }).click();
  await expect(trigger).toHaveText(label);
}

/**
 * A currency `Combobox`: opens it, types `search` (a code or part of a name) into its search box and
 * picks the currency with `code`. The closed control then shows the code.
 */
export async function chooseCurrency(trigger: Locator, code: string, search: string = code) {
  const page = trigger.page();
  await trigger.click();
  await page.getByRole("combobox", { name: "Search currencies by code or name" }).fill(search);
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
  await trigger.click();
  await page.getByRole("combobox", { name: "Search countries" }).fill(name);
  await page.getByRole("option", { name, exact: true }).click();
  await expect(trigger).toHaveText(name);
}
