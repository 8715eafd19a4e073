import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { PLAN_CHOICE_COOKIE } from "@/core/billing/plan-choice";
import { proxyMatcher, ROUTES, requiresSession } from "@/core/routes";
import { config, proxy } from "./proxy";

// Next needs the matcher as a literal; this proves the literal is exactly what the route table
// derives, so a route added to the table without updating the proxy fails here.
describe("proxy matcher", () => {
  it("equals the matcher derived from the route table", () => {
    expect(config.matcher).toEqual(proxyMatcher());
  });

  it("covers every route that needs a session, and no other", () => {
    const matched = (path: string) =>
      config.matcher.some((m) => (m.endsWith("/:path*") ? path.startsWith(m.slice(0, -6)) : path === m));
    for (const route of ROUTES) {
      expect(matched(route.path), route.path).toBe(requiresSession(route.path));
      expect(matched(`${route.path}/below`), route.path).toBe(requiresSession(`${route.path}/below`));
    }
  });
});

describe("the plan chosen on the pricing page", () => {
  const checkout = (headers: Record<string, string> = {}) =>
    proxy(
      new NextRequest("http://localhost:3000/checkout?plan=pro&interval=yearly&currency=JPY", { headers }),
    );

  it("is remembered when checkout is visited", () => {
    expect(checkout().cookies.get(PLAN_CHOICE_COOKIE)?.value).toBeTruthy();
  });
});
