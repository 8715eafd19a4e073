import { expect, test } from "@playwright/test";
import { ROUNDING_LABELS, ROUNDING_OPTIONS } from "../../src/core/rounding";

// The Select and Combobox primitives as a keyboard user on a phone meets them.
test.use({ viewport: { width: 360, height: 740 } });

test("the currency combobox works from the keyboard, searches names, announces matches and fits a phone", async ({
  page,
}) => {
  await page.goto("/calculator?mode=currency");
  const from = page.getByRole("combobox", { name: "From", exact: true });
  await expect(from).toContainText("EUR");
  await from.focus();
  await page.keyboard.press("Enter");
  const search = page.getByRole("combobox", { name: "Search currencies by code or name" });
  await expect(search).toBeFocused();
  await expect(from).toHaveAttribute("aria-expanded", "true");

  await page.keyboard.type("yen");
  await expect(page.getByRole("option")).toHaveText([/^JPY\s*Japanese Yen/]);
  await expect(page.getByText("1 match", { exact: true })).toBeAttached();
  const list = page.getByRole("listbox");
  const box = await list.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);

  await page.keyboard.press("Enter");
  await expect(from).toContainText("JPY");
  await expect(from).toBeFocused();
  await expect(from).toHaveAttribute("aria-expanded", "false");

  // Escape closes without changing the choice.
  await page.keyboard.press("Enter");
  await page.keyboard.type("usd");
  await page.keyboard.press("Escape");
  await expect(from).toContainText("JPY");
  await expect(from).toBeFocused();
});

test("the rounding select opens with the keyboard and lists the calculator's labels", async ({ page }) => {
  await page.goto("/calculator?mode=currency");
  const rounding = page.getByRole("combobox", { name: "Rounding" });
  await expect(rounding).toHaveText(ROUNDING_LABELS["half-even"]);
  await rounding.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("option")).toHaveText(ROUNDING_OPTIONS.map((o) => o.label));
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(rounding).toHaveText(ROUNDING_LABELS["half-up"]);
  await expect(rounding).toBeFocused();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
});

test("a letter typed on a select before its code has loaded picks, as on a native select", async ({
  page,
}) => {
  await page.goto("/calculator?mode=currency");
  // From here on, hold back every script the page asks for: the select's own code among them.
  let held = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    held++;
    await gate;
    await route.continue();
  });
  const rounding = page.getByRole("combobox", { name: "Rounding" });
  // Retried only until the page has hydrated; "f" starts one label only, so repeats keep it.
  await expect(async () => {
    await rounding.focus();
    await page.keyboard.press("f");
    await expect(rounding).toHaveText(ROUNDING_LABELS.floor, { timeout: 1_000 });
  }).toPass();
  expect(held).toBeGreaterThan(0);
  release();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("option", { name: ROUNDING_LABELS.floor })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});
