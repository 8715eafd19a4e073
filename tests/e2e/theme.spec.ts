import { expect, test } from "@playwright/test";

const html = (page: import("@playwright/test").Page) => page.locator("html");

test("the theme switcher is a labelled, keyboard-usable control whose choice persists", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await expect(html(page)).not.toHaveClass(/dark/);

  const theme = page.getByRole("group", { name: "Theme" });
  await expect(theme.getByRole("radio", { name: "System" })).toBeChecked();
  await theme.getByRole("radio", { name: "System" }).focus();
  // Arrow keys move through a radio group and select as they go.
  await page.keyboard.press("ArrowLeft");
  await expect(theme.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(html(page)).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

  await page.reload();
  await expect(html(page)).toHaveClass(/dark/);

  await theme.getByTitle("Light").click();
  await expect(theme.getByRole("radio", { name: "Light" })).toBeChecked();
  await expect(html(page)).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  // The theme is the only thing kept in localStorage.
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(["theme"]);
});

test("the stored theme is applied before first paint (no flash)", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.addInitScript(() => {
    localStorage.setItem("theme", "dark");
    // Record the root's classes at every animation frame, i.e. before each paint, while the
    // document has visible content.
    const frames: string[] = [];
    (window as unknown as { themeFrames: string[] }).themeFrames = frames;
    const tick = () => {
      // Count frames once the header (the first visible content) has been parsed.
      if (document.querySelector("header")) frames.push(document.documentElement.className);
      if (frames.length < 30) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.goto("/pricing");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { themeFrames: string[] }).themeFrames.length))
    .toBeGreaterThan(2);
  const frames = await page.evaluate(() => (window as unknown as { themeFrames: string[] }).themeFrames);
  expect(frames.filter((classes) => !/\bdark\b/.test(classes))).toEqual([]);
  await expect(html(page)).toHaveCSS("color-scheme", "dark");
});

test("system follows the device's colour scheme, live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
  await expect(html(page)).toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html(page)).not.toHaveClass(/dark/);

  const theme = page.getByRole("group", { name: "Theme" });
  await theme.getByTitle("Dark").click();
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  await theme.getByTitle("System").click();
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html(page)).toHaveClass(/dark/);
});
