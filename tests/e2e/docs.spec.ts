import { expect, type Locator, test } from "@playwright/test";

/** Where a heading sits after a jump: just under the sticky header (its scroll margin is 5rem). */
async function expectAtTop(heading: Locator) {
  await expect(heading).toBeInViewport();
  await expect
    .poll(() => heading.evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeGreaterThanOrEqual(60);
  await expect
    .poll(() => heading.evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeLessThanOrEqual(100);
}

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
  // Sections far down are laid out lazily (content-visibility): the jump still lands on the heading.
  await expectAtTop(page.locator("h2#self-hosting"));
  // And a second jump, back up the page, from the list (still open, above).
  await toc.getByRole("link", { name: "Organizations", exact: true }).click();
  await expectAtTop(page.locator("h2#organizations"));
});

test("a link to a section opens the docs at that section, on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/docs#plans-and-billing");
  await expectAtTop(page.locator("h2#plans-and-billing"));
});

test("on a desktop the contents stay beside the text while it scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/docs");
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await expect(toc).toBeVisible();
  await expect(page.locator("summary", { hasText: "On this page" })).toBeHidden();
  // The contents are the left column, the text the right one (the list comes after the article in
  // the page, so that a phone's first paint is the text).
  const [tocBox, articleBox] = [await toc.boundingBox(), await page.locator("article").boundingBox()];
  expect(tocBox && articleBox && tocBox.x + tocBox.width <= articleBox.x).toBe(true);
  await toc.getByRole("link", { name: "Self-hosting" }).click();
  await expectAtTop(page.locator("h2#self-hosting"));
  // Far down the page the contents are still there, beside the text.
  await expect(toc).toBeInViewport();
  await expect(toc.getByRole("link", { name: "Getting started" })).toBeVisible();
});

test("the docs page carries its article once: in its HTML, not again in its RSC payload", async ({
  request,
}) => {
  const html = await (await request.get("/docs")).text();
  // A sentence of the article (content/docs/900-self-hosting.md), and a contents entry.
  const sentence = "Abacus is one Next.js application and one PostgreSQL database.";
  expect(html.split(sentence).length - 1).toBe(1);
  // The two lists of contents (phone and desktop) are in the HTML; the RSC payload has neither.
  expect(html.split('href="#self-hosting"').length - 1).toBe(2);
  expect(html).not.toContain('href=\\"#self-hosting\\"');
});

test("reached by a client-side navigation, the docs show their article and contents", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "Self-hosting", level: 2 })).toBeAttached();
  await expect(
    page.getByText("Abacus is one Next.js application and one PostgreSQL database."),
  ).toBeAttached();
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await toc.getByRole("link", { name: "Self-hosting" }).click();
  await expectAtTop(page.locator("h2#self-hosting"));
  // Still the same document: the page was not loaded again.
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
});
