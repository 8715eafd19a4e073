import { expect, type Page, test } from "@playwright/test";
import { needsSession, ROUTES, type RoutePath } from "../../src/core/routes";
import { demo, signIn, signUpAndVerify, uniqueEmail } from "./auth-helpers";

// Every page route, from the route table. Public and auth routes are visited
// anonymously; every signed-in route is visited by someone allowed to see it (an owner, a
// platform admin for /admin*, a new user mid-onboarding for /onboarding), and must show its own
// heading: the sign-in page would fail these.
// Public pages are checked by status (a deleted page answers 404) and some level-1 heading, so
// their copy can change freely; signed-in pages by their own heading.
type Visit = {
  as: "anonymous" | "owner" | "admin" | "new-user";
  heading?: string;
  path?: string;
  status?: number;
};

const VISITS: Record<RoutePath, Visit> = {
  "/": { as: "anonymous" },
  "/calculator": { as: "anonymous" },
  "/pricing": { as: "anonymous" },
  "/docs": { as: "anonymous" },
  "/contact": { as: "anonymous" },
  "/sign-in": { as: "anonymous", heading: "Sign in" },
  "/sign-up": { as: "anonymous", heading: "Create your account" },
  "/onboarding": { as: "new-user", heading: "Your profile" },
  "/dashboard": { as: "owner", heading: "Demo Company" },
  "/dashboard/billing": { as: "owner", heading: "Billing" },
  "/organization-profile": { as: "owner", heading: "Demo Company" },
  "/user-profile": { as: "owner", heading: "Your profile" },
  "/checkout": {
    as: "owner",
    heading: "Checkout",
    path: "/checkout?plan=pro&interval=monthly&currency=USD",
  },
  // A receipt page needs the number of a receipt of the organization; checkout.spec.ts opens a
  // real one. Here: signed in, an unknown number is the not-found page (not the sign-in page).
  "/receipt": {
    as: "owner",
    heading: "Page not found",
    path: "/receipt?number=AB-0000-000000000000",
    status: 404,
  },
  "/invoices": { as: "owner", heading: "Invoices" },
  "/admin": { as: "admin", heading: "Administration" },
  "/admin/users": { as: "admin", heading: "Users" },
  "/admin/currency-test": { as: "admin", heading: "Currency & FX" },
  "/admin/outbox": { as: "admin", heading: "Outbox" },
  "/admin/billing": { as: "admin", heading: "Billing" },
  "/admin/coupons": { as: "admin", heading: "Coupons" },
};

async function becomeVisitor(page: Page, as: Visit["as"]) {
  if (as === "owner") await signIn(page, demo.owner);
  if (as === "admin") await signIn(page, demo.admin);
  if (as === "new-user") {
    await page.goto("/sign-up");
    await signUpAndVerify(page, { name: "Rhea Routes", email: uniqueEmail("routes") });
    await expect(page).toHaveURL(/\/onboarding/);
  }
}

for (const route of ROUTES) {
  const visit = VISITS[route.path];
  test(`${route.path} answers ${visit.status ?? 200} inside the shell${visit.as === "anonymous" ? "" : `, signed in as ${visit.as}`}`, async ({
    page,
  }) => {
    // A signed-in route is never checked anonymously here (that only ever shows sign-in).
    expect(visit.as === "anonymous", `${route.path}: who may see it`).toBe(!needsSession(route.audience));
    if (visit.as === "new-user") test.setTimeout(60_000);
    await becomeVisitor(page, visit.as);
    const response = await page.goto(visit.path ?? route.path);
    expect(response?.status()).toBe(visit.status ?? 200);
    await expect(page).toHaveURL((url) => !url.pathname.startsWith("/sign-in") || route.path === "/sign-in");
    await expect(page.getByRole("banner").getByRole("link", { name: "Abacus home" })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(
      visit.heading
        ? page.getByRole("heading", { level: 1, name: visit.heading, exact: true })
        : page.getByRole("heading", { level: 1 }),
    ).toBeVisible();
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
  // A build script too, which the edge answers itself in Brotli (src/edge/static-assets.ts, sirv).
  const script = (await (await request.get("/")).text()).match(/\/_next\/static\/chunks\/[\w.-]+\.js/)?.[0];
  expect(script).toBeDefined();
  const brotli = await request.get(String(script), { headers: { "accept-encoding": "gzip, br" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect((await brotli.body()).length).toBeGreaterThan(0);
  for (const path of ["/", "/api/health", "/nope", String(script)]) {
    const headers = (await request.get(path, { headers: { "accept-encoding": "gzip, br" } })).headers();
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
  await expect(page.getByTestId("mini-result")).toHaveText("≈0.33333333333333333333");
});

test("pricing switches between monthly and yearly prices", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByTestId("price-pro").filter({ visible: true })).toHaveText("$12");
  await page.getByText("Yearly").click();
  await expect(page.getByTestId("price-pro").filter({ visible: true })).toHaveText("$120");
  await expect(page.getByTestId("price-team").filter({ visible: true })).toHaveText("$390");
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
