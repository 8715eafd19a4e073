import { describe, expect, it } from "vitest";
import { ROUTES, requiresSession } from "@/core/routes";
import { config } from "./proxy";

// The matcher is a literal (Next reads it statically); this proves it reaches every route the table
// protects, so the table alone decides.
const matcher = new RegExp(`^${config.matcher[0]}$`);

describe("proxy matcher", () => {
  it("reaches every route of the table and their sub-paths", () => {
    for (const route of ROUTES) {
      expect(matcher.test(route.path), route.path).toBe(true);
      expect(matcher.test(`${route.path}/below`), route.path).toBe(true);
    }
    expect(matcher.test("/admin/outbox")).toBe(true);
  });

  it("leaves the API, assets and the monitoring tunnel alone", () => {
    for (const path of ["/api/me", "/_next/static/chunks/a.js", "/monitoring", "/favicon.ico", "/logo.svg"]) {
      expect(matcher.test(path), path).toBe(false);
    }
  });

  it("protects only routes that need a session", () => {
    expect(requiresSession("/dashboard")).toBe(true);
    expect(requiresSession("/")).toBe(false);
  });
});
