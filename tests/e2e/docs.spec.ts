import { expect, test } from "@playwright/test";

test("on a phone the docs open on content, with the contents folded into one 'On this page' line", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/docs");
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await expect(toc).toBeHidden();
  // The first section of the docs starts on the first screen, not after fifty links.
  await expect(page.locator("article h2").first()).toBeInViewport();

  await page.locator("summary", { hasText: "On this page" }).click();
  await expect(toc).toBeVisible();
  await toc.getByRole("link", { name: "Self-hosting" }).click();
  await expect(page).toHaveURL(/#self-hosting$/);
  await expect(page.locator("h2#self-hosting")).toBeInViewport();
});

test("on a desktop the contents stay beside the text while it scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/docs");
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await expect(toc).toBeVisible();
  await expect(page.locator("summary", { hasText: "On this page" })).toBeHidden();
  await toc.getByRole("link", { name: "Self-hosting" }).click();
  await expect(page.locator("h2#self-hosting")).toBeInViewport();
  // Far down the page the contents are still there, beside the text.
  await expect(toc).toBeInViewport();
  await expect(toc.getByRole("link", { name: "Getting started" })).toBeVisible();
});
