import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BODY_CAPS,
  bodyCapFor,
  EDGE_REFUSAL_MAX_HOLD_MS,
  MAX_REQUEST_BYTES,
  refusalCacheControl,
} from "./edge-contract";

/** Every route handler file under src/app, with the URL path it serves (`[...x]` kept as is). */
function routeFiles(dir = "src/app"): { path: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (entry.name !== "route.ts") return [];
    const segments = relative("src/app", dir)
      .split("/")
      .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
    return [{ path: `/${segments.join("/")}`, source: readFileSync(full, "utf8") }];
  });
}

describe("the body caps shared by the edge and the route handlers", () => {
  it("give every endpoint that takes a body its own cap, below the global one", () => {
    // A method the route implements: exported itself, or handed to apiMethods (server/api.ts),
    // which also exports every other method as a 405 that reads no body.
    const writers = routeFiles().filter(
      ({ source }) =>
        /export (const|async function)\s+(POST|PUT|PATCH)\b/.test(source) ||
        /as (POST|PUT|PATCH)\b/.test(source) ||
        /apiMethods\(\{[^}]*\b(POST|PUT|PATCH):/.test(source),
    );
    expect(writers.map((w) => w.path).sort()).toEqual([
      "/api/auth/[...all]",
      "/api/billing/stripe-webhook",
      "/api/v1/calculate",
      "/api/v1/receipts/verify",
      "/api/v1/sheets/evaluate",
      "/api/views",
      "/monitoring",
    ]);
    for (const { path } of writers) {
      const concrete = path.replace("[...all]", "sign-in/email");
      expect(bodyCapFor(concrete), path).toBeLessThan(MAX_REQUEST_BYTES);
    }
  });

  it("map each route to its cap, ignoring the query's absence and a trailing slash", () => {
    expect(bodyCapFor("/api/auth/update-user")).toBe(BODY_CAPS.auth);
    expect(bodyCapFor("/api/v1/calculate")).toBe(BODY_CAPS.calculate);
    expect(bodyCapFor("/api/v1/calculate/")).toBe(BODY_CAPS.calculate);
    expect(bodyCapFor("/api/v1/receipts/verify")).toBe(BODY_CAPS.receiptVerify);
    expect(bodyCapFor("/api/v1/sheets/evaluate")).toBe(BODY_CAPS.calculate);
    expect(bodyCapFor("/api/views")).toBe(BODY_CAPS.pageView);
    expect(bodyCapFor("/api/billing/stripe-webhook")).toBe(BODY_CAPS.stripeWebhook);
    expect(bodyCapFor("/monitoring")).toBe(BODY_CAPS.monitoringReplay);
    expect(bodyCapFor("/pricing")).toBe(MAX_REQUEST_BYTES);
    expect(bodyCapFor("/api/v1/calculatex")).toBe(MAX_REQUEST_BYTES);
  });

  it("are the ones the handlers read with (each handler's cap is derived from BODY_CAPS)", () => {
    const uses: Record<string, string> = {
      "src/app/api/v1/calculate/route.ts": "BODY_CAPS.calculate",
      "src/app/api/v1/sheets/evaluate/route.ts": "BODY_CAPS.calculate",
      "src/app/api/views/route.ts": "BODY_CAPS.pageView",
      "src/features/billing/api/receipts.ts": "BODY_CAPS.receiptVerify",
      "src/features/billing/server/stripe-webhook.ts": "BODY_CAPS.stripeWebhook",
      "src/server/auth/hardening.ts": "BODY_CAPS.auth",
      "src/server/monitoring/tunnel.ts": "BODY_CAPS.monitoringReplay",
    };
    for (const [file, use] of Object.entries(uses)) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toContain(use);
      // No other literal byte cap next to it.
      expect(source, file).not.toMatch(/=\s*\d+\s*\*\s*1024\b/);
    }
  });
});

describe("the Cache-Control of a refusal the edge may repeat", () => {
  it("lets the edge hold it for the hold rounded up to whole seconds, as Retry-After is", () => {
    expect(refusalCacheControl(0)).toBe("no-store");
    // A one-second burst limit's refusal holds for under a second: the edge still absorbs it.
    expect(refusalCacheControl(1)).toBe("private, max-age=1");
    expect(refusalCacheControl(999)).toBe("private, max-age=1");
    expect(refusalCacheControl(1000)).toBe("private, max-age=1");
    expect(refusalCacheControl(1001)).toBe("private, max-age=2");
    expect(refusalCacheControl(3600_000)).toBe(`private, max-age=${EDGE_REFUSAL_MAX_HOLD_MS / 1000}`);
  });

  it("never holds longer than the Retry-After the client is given for the same refusal", () => {
    for (const holdsForMs of [1, 250, 999, 1000, 1500, 9999, 10_000]) {
      const retryAfterSeconds = Math.max(1, Math.ceil(holdsForMs / 1000));
      const maxAge = Number(/max-age=(\d+)/.exec(refusalCacheControl(holdsForMs))?.[1]);
      expect(maxAge).toBeLessThanOrEqual(retryAfterSeconds);
    }
  });
});
