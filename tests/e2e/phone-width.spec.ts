import { expect, type Page, test } from "@playwright/test";
import { needsSession, ROUTES } from "../../src/core/routes";
import { demo, signIn, signUpAndVerify, uniqueEmail } from "./auth-helpers";

// At 360 px no page may scroll sideways: every route of the route table, signed out and signed in
// (a platform admin for /admin*, an owner elsewhere, a new user for /onboarding).
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 360, height: 740 } });

/** Where a route is opened (some need a query to show their screen). */
const OPEN: Partial<Record<string, string>> = {
  "/checkout": "/checkout?plan=pro&interval=monthly&currency=USD",
  "/receipt": "/receipt?number=AB-0000-000000000000",
};

async function overflow(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, url: location.pathname };
  });
}

async function checkAll(page: Page, paths: string[]) {
  for (const path of paths) {
    const { scrollWidth, clientWidth, url } = await overflow(page, path);
    expect
      .soft(scrollWidth, `${path} (shown at ${url}) is ${scrollWidth} px wide at 360 px`)
      .toBeLessThanOrEqual(clientWidth);
  }
}

const all = ROUTES.map((route) => OPEN[route.path] ?? route.path);
const signedInApp = ROUTES.filter(
  (r) => needsSession(r.audience) && r.audience !== "admin" && r.path !== "/onboarding",
);
const admin = ROUTES.filter((r) => r.audience === "admin");

test("signed out, no route scrolls sideways at 360 px", async ({ page }) => {
  await checkAll(page, all);
});

test("signed in, no public or app route scrolls sideways at 360 px", async ({ page }) => {
  await signIn(page, demo.owner);
  await checkAll(page, [
    ...ROUTES.filter((r) => !needsSession(r.audience)).map((r) => r.path),
    ...signedInApp.map((r) => OPEN[r.path] ?? r.path),
  ]);
});

test("as a platform admin, no admin route scrolls sideways at 360 px", async ({ page }) => {
  await signIn(page, demo.admin);
  await checkAll(
    page,
    admin.map((r) => r.path),
  );
});

test("mid-onboarding, the onboarding page does not scroll sideways at 360 px", async ({ page }) => {
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Nia Narrow", email: uniqueEmail("narrow") });
  await checkAll(page, ["/onboarding"]);
});
