import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const pages = ["/", "/pricing", "/docs", "/contact", "/calculator", "/sign-in", "/no-such-page"];

for (const scheme of ["light", "dark"] as const) {
  for (const path of pages) {
    test(`${path} has no serious or critical axe violations (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /dark/ : /^(?!.*dark)/);
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
    });
  }
}

// Every tool of the crypto workbench, each opened as its own address (the tool list is read from
// the workbench's own navigation, so a new tool is checked without editing this file).
for (const scheme of ["light", "dark"] as const) {
  test(`every crypto tool has no serious or critical axe violations (${scheme})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/calculator?mode=crypto");
    const links = page.locator('a[href*="mode=crypto&tool="]');
    await expect(links.first()).toBeAttached();
    const hrefs = await links.evaluateAll((links) => [
      ...new Set(links.map((a) => a.getAttribute("href") ?? "")),
    ]);
    expect(hrefs.length).toBeGreaterThanOrEqual(19);
    const found: string[] = [];
    for (const href of hrefs) {
      await page.goto(href);
      const tool = new URL(href, "http://x").searchParams.get("tool");
      await expect(page.locator(`[data-tool="${tool}"]:not([hidden])`)).toBeVisible();
      await expect(
        page.locator(`[data-tool="${tool}"] form, [data-tool="${tool}"] input`).first(),
      ).toBeVisible();
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      for (const v of results.violations) {
        if (v.impact === "serious" || v.impact === "critical") {
          found.push(`${tool} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
}
