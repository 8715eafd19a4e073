import { expect, test } from "@playwright/test";
import { publicRoutes } from "./support";

// What a shared link shows: every public page describes itself, and carries a picture that exists.
const pages = [...publicRoutes, "/sign-in", "/sign-up"];

test("every public page has its own description and an Open Graph picture that loads", async ({
  page,
  request,
}) => {
  const descriptions = new Map<string, string>();
  for (const path of pages) {
    await page.goto(path);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description, path).toBeTruthy();
    expect(description?.length, path).toBeGreaterThan(40);
    descriptions.set(path, description ?? "");

    const title = await page.title();
    await expect(page.locator('meta[property="og:title"]'), path).toHaveAttribute("content", title);
    await expect(page.locator('meta[property="og:description"]'), path).toHaveAttribute(
      "content",
      description ?? "",
    );
    await expect(page.locator('meta[name="twitter:card"]'), path).toHaveAttribute(
      "content",
      "summary_large_image",
    );
    const image = await page.locator('meta[property="og:image"]').first().getAttribute("content");
    expect(image, path).toMatch(/^https?:\/\/[^/]+\/.*opengraph-image/);
    const response = await request.get(new URL(image ?? "").pathname + new URL(image ?? "").search);
    expect(response.status(), `${path}: ${image}`).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/png");
    const png = await response.body();
    // PNG header: width and height are the big-endian words at bytes 16 and 20
    expect([png.readUInt32BE(16), png.readUInt32BE(20)], image ?? "").toEqual([1200, 630]);
  }
  expect(new Set(descriptions.values()).size).toBe(descriptions.size);
});

test("key pages have their own picture", async ({ page }) => {
  const images = new Set<string>();
  for (const path of ["/", "/calculator", "/pricing", "/docs"]) {
    await page.goto(path);
    const image = await page.locator('meta[property="og:image"]').first().getAttribute("content");
    images.add(new URL(image ?? "").pathname);
  }
  expect(images.size).toBe(4);
});
