import { describe, expect, it } from "vitest";
import { navLinks, ROUTES, requiresSession, routeFor } from "./routes";

describe("route table", () => {
  it("lists each path once", () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("finds exact routes and catch-all sub-paths", () => {
    expect(routeFor("/pricing")?.path).toBe("/pricing");
    expect(routeFor("/pricing/")?.path).toBe("/pricing");
    expect(routeFor("/sign-in/factor-one")?.path).toBe("/sign-in");
    expect(routeFor("/pricing/extra")).toBeUndefined();
    expect(routeFor("/sign-inx")).toBeUndefined();
  });

  it("asks for a session exactly where the old hand-written matcher did", () => {
    const signedIn = [
      "/checkout",
      "/onboarding",
      "/dashboard",
      "/admin",
      "/admin/users",
      "/admin/anything/below",
      "/user-profile",
      "/user-profile/security",
      "/organization-profile",
      "/organization-profile/members",
    ];
    for (const path of signedIn) expect(requiresSession(path), path).toBe(true);
    const open = [
      "/",
      "/pricing",
      "/docs",
      "/contact",
      "/calculator",
      "/sign-in",
      "/sign-up/verify",
      "/nope",
    ];
    for (const path of open) expect(requiresSession(path), path).toBe(false);
    expect(requiresSession("/administrator")).toBe(false);
  });

  it("derives the navigation from the table", () => {
    expect(navLinks("main").map((link) => link.label)).toEqual(["Calculator", "Pricing", "Docs", "Contact"]);
    expect(navLinks("app").map((link) => link.href)).toEqual([
      "/dashboard",
      "/dashboard/billing",
      "/organization-profile",
      "/user-profile",
    ]);
    expect(navLinks("admin").map((link) => link.href)).toEqual([
      "/admin",
      "/admin/users",
      "/admin/currency-test",
      "/admin/outbox",
      "/admin/billing",
      "/admin/coupons",
    ]);
  });
});
