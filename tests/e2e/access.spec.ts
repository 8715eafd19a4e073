import { type Browser, expect, test } from "@playwright/test";
import { DEMO_PASSWORD, demo } from "./auth-helpers";

type Role = "anonymous" | "member" | "orgAdmin" | "platformAdmin";
type Expect = 200 | 404 | "sign-in";

// Every route × role. The demo "owner" stands in for an organization admin (owner ≥ admin).
const matrix: Record<string, Record<Role, Expect>> = {
  "/": { anonymous: 200, member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/pricing": { anonymous: 200, member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/docs": { anonymous: 200, member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/contact": { anonymous: 200, member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/calculator": { anonymous: 200, member: 200, orgAdmin: 200, platformAdmin: 200 },
  // Members (the platform admin is one in the demo organization) see a page saying only owners and
  // admins can change the plan, not a 404; tests/e2e/checkout.spec.ts checks its text.
  "/checkout": { anonymous: "sign-in", member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/dashboard": { anonymous: "sign-in", member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/admin": { anonymous: "sign-in", member: 404, orgAdmin: 404, platformAdmin: 200 },
  "/admin/users": { anonymous: "sign-in", member: 404, orgAdmin: 404, platformAdmin: 200 },
  "/admin/outbox": { anonymous: "sign-in", member: 404, orgAdmin: 404, platformAdmin: 200 },
  "/admin/currency-test": { anonymous: "sign-in", member: 404, orgAdmin: 404, platformAdmin: 200 },
  "/user-profile": { anonymous: "sign-in", member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/organization-profile": { anonymous: "sign-in", member: 200, orgAdmin: 200, platformAdmin: 200 },
  "/no-such-route": { anonymous: 404, member: 404, orgAdmin: 404, platformAdmin: 404 },
};

const accounts: Record<Exclude<Role, "anonymous">, string> = {
  member: demo.member,
  orgAdmin: demo.owner,
  platformAdmin: demo.admin,
};

async function contextFor(browser: Browser, role: Role) {
  const context = await browser.newContext();
  if (role !== "anonymous") {
    const response = await context.request.post("/api/auth/sign-in/email", {
      data: { email: accounts[role], password: DEMO_PASSWORD },
      headers: { Origin: test.info().project.use.baseURL ?? "" },
    });
    expect(response.status(), `sign in as ${role}`).toBe(200);
  }
  return context;
}

for (const role of ["anonymous", "member", "orgAdmin", "platformAdmin"] as const) {
  test(`access matrix for ${role}`, async ({ browser }) => {
    const context = await contextFor(browser, role);
    const problems: string[] = [];
    for (const [path, expected] of Object.entries(matrix)) {
      const response = await context.request.get(path, { maxRedirects: 0 });
      const status = response.status();
      const location = response.headers().location ?? "";
      const actual =
        status >= 300 &&
        status < 400 &&
        location.includes(`/sign-in?redirect_url=${encodeURIComponent(path)}`)
          ? "sign-in"
          : status;
      if (actual !== expected[role])
        problems.push(`${path}: expected ${expected[role]}, got ${status} ${location}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("a non-admin sees the ordinary 404 page at /admin, and no Admin link", async ({ browser }) => {
  const context = await contextFor(browser, "member");
  const page = await context.newPage();
  const response = await page.goto("/admin/users");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("button", { name: "Account menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Admin" })).toHaveCount(0);
  await context.close();
});

test("a platform admin has the Admin link", async ({ browser }) => {
  const context = await contextFor(browser, "platformAdmin");
  const page = await context.newPage();
  await page.goto("/");
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Admin" }).click();
  await expect(page).toHaveURL("/admin");
  await context.close();
});
