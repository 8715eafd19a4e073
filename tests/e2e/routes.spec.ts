import { expect, test } from "@playwright/test";
import { ROUTES } from "../../src/core/routes";

// Every page route of SPEC §2, from the route table. Anonymous visitors to signed-in routes land on
// sign-in, which also answers 200 inside the shell.
const routes = ROUTES.map((route) => route.path);

for (const route of routes) {
  test(`${route} answers 200 inside the shell`, async ({ page }) => {
    const response = await page.goto(route);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("banner").getByRole("link", { name: "Abacus home" })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
}

test("catch-all auth routes answer every sub-path with the same screen", async ({ page }) => {
  for (const path of [
    "/sign-in/factor-one",
    "/sign-up/verify/email",
    "/user-profile/security",
    "/organization-profile/members",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
  }
  await page.goto("/sign-in/sso-callback");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
});

test("an unknown path answers 404 with the not-found page and a way home", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Go home" }).click();
  await expect(page).toHaveURL("/");
});

test("health reports the database after a real query", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({
    status: "ok",
    database: process.env.DATABASE_MODE === "external" ? "external" : "embedded",
  });
});

test("every response carries the security headers", async ({ request }) => {
  for (const path of ["/", "/api/health", "/nope"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    // No eval of strings ('wasm-unsafe-eval' only lets WebAssembly compile, for the crypto worker).
    expect(headers["content-security-policy"]).not.toContain("'unsafe-eval'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
    expect(headers["permissions-policy"]).toContain("camera=()");
  }
});

test("the home page's live calculator shows 0.1 + 0.2 = 0.3", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("mini-result")).toHaveText("=0.3");
  await page.getByLabel("Try it").fill("1 / 3");
  await expect(page.getByTestId("mini-result")).toHaveText("=0.33333333333333333333");
});

test("pricing switches between monthly and yearly prices", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByTestId("price-pro")).toHaveText("$12");
  await page.getByText("Yearly").click();
  await expect(page.getByTestId("price-pro")).toHaveText("$120");
  await expect(page.getByTestId("price-team")).toHaveText("$390");
  await expect(page.getByRole("link", { name: "Choose Pro" })).toHaveAttribute(
    "href",
    "/checkout?plan=pro&interval=yearly&currency=USD",
  );
});

test("docs render with a table of contents that links to anchored headings", async ({ page }) => {
  await page.goto("/docs");
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await toc.getByRole("link", { name: "Self-hosting" }).click();
  await expect(page).toHaveURL(/#self-hosting$/);
  await expect(page.locator("h2#self-hosting")).toBeInViewport();
});

test("the mobile menu opens, is keyboard usable and closes with Escape", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  const dialog = page.getByRole("dialog", { name: "Menu" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).focus();
  await page.keyboard.press("Enter");
  await dialog.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL("/pricing");
  await expect(dialog).toBeHidden();
});
