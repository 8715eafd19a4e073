import { expect, test } from "@playwright/test";

test("an unhandled client exception shows the fallback, and Try again recovers", async ({ page }) => {
  await page.goto("/e2e/client-error");
  await page.getByRole("button", { name: "Break this page" }).click();
  const alert = page
    .getByRole("alert")
    .filter({ hasText: "Application error: a client-side exception has occurred" });
  await expect(alert).toBeVisible();
  // The shell stays usable around the fallback.
  await expect(page.getByRole("banner")).toBeVisible();
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("button", { name: "Break this page" })).toBeVisible();
});

test("a failed client navigation reloads the page at the target", async ({ page }) => {
  await page.goto("/");
  await page.route(/\/pricing\?_rsc=/, (route) => route.abort("failed"));
  await page.evaluate(() => {
    (window as unknown as { beforeNavigation: boolean }).beforeNavigation = true;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL("/pricing");
  await expect(page.getByRole("heading", { name: "Simple, exact pricing" })).toBeVisible();
  // A full document load happened: the old window's state is gone.
  expect(
    await page.evaluate(() => (window as unknown as { beforeNavigation?: boolean }).beforeNavigation),
  ).toBeUndefined();
});
