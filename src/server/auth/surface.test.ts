import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import { describe, expect, it } from "vitest";
import { createTestAuth } from "../../../tests/support/auth";
import type { Db } from "../db/client";
import { AUTH_SURFACE, DISABLED_AUTH_PATHS, isServedOverHttp, SURFACE_RULES } from "./surface";

// Building the auth object opens no connection: the endpoint list needs no database.
const noDb = {} as Db;

/** Better Auth's endpoints (by path) that surface.ts neither disables nor covers with a rule. */
function undecided(auth: { api: Record<string, unknown> }): string[] {
  const paths = Object.values(auth.api)
    .map((endpoint) => (endpoint as { path?: string }).path)
    .filter((path): path is string => typeof path === "string");
  return paths.filter((path) => {
    const entry = AUTH_SURFACE[path];
    if (!entry) return true;
    if (entry.exposure === "off") return false;
    return (entry.rules ?? []).length === 0;
  });
}

describe("Better Auth's surface (surface.ts)", () => {
  const auth = createTestAuth(noDb);

  it("decides about every endpoint Better Auth exposes with our configuration", () => {
    expect(undecided(auth)).toEqual([]);
    // And lists nothing Better Auth no longer has (a stale line would hide a renamed endpoint).
    const paths = new Set(Object.values(auth.api).map((endpoint) => (endpoint as { path?: string }).path));
    expect(Object.keys(AUTH_SURFACE).filter((path) => !paths.has(path))).toEqual([]);
  });

  it("fails for an endpoint nobody decided about (a plugin added later)", () => {
    const newcomer = {
      id: "newcomer",
      endpoints: {
        somethingNew: createAuthEndpoint("/something/new", { method: "POST" }, async (ctx) => ctx.json({})),
      },
    } satisfies BetterAuthPlugin;
    const withPlugin = { api: { ...auth.api, somethingNew: newcomer.endpoints.somethingNew } };
    expect(undecided(withPlugin)).toEqual(["/something/new"]);
  });

  it("serves over HTTP only the endpoints marked http; Better Auth's router disables the rest", () => {
    expect(auth.options.disabledPaths).toEqual(DISABLED_AUTH_PATHS);
    const served = Object.keys(AUTH_SURFACE).filter((path) => isServedOverHttp(`/api/auth${path}`));
    expect(served.sort()).toEqual([
      "/get-session",
      "/sign-in/email",
      "/sign-out",
      "/sign-up/email",
      "/verify-email",
    ]);
    for (const spelling of [
      "/api/auth/sign-in/email/",
      "/api/auth/sign-in%2Femail",
      "/api/auth/Sign-In/Email",
      "/api/auth//sign-in/email",
      "/api/auth/admin/set-role",
      "/api/auth/callback/google",
      "/api/auth",
      "/api/authx/get-session",
    ]) {
      expect(isServedOverHttp(spelling), spelling).toBe(false);
    }
  });

  it("names only rules that exist, and every server-side endpoint goes through an app action", () => {
    for (const [path, entry] of Object.entries(AUTH_SURFACE)) {
      for (const rule of entry.rules ?? []) expect(Object.keys(SURFACE_RULES), path).toContain(rule);
      if (entry.exposure === "server") expect(entry.rules, path).toContain("app-action");
      if (entry.exposure === "off") expect(entry.rules ?? [], path).toEqual([]);
    }
  });
});
