import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { HTTP_METHODS } from "@/server/api";
import { ownMethods, routeFiles, routeFolder } from "../../../tests/support/api-routes";

// Errors of every /api/* route keep the {error:{code,message}} shape. An unknown /api
// path got Next.js's HTML 404 page, and a method a route does not export (DELETE /api/health) an
// empty 405 without Allow. This loads every route file under src/app/api, puts it through Next.js's
// own method table (HEAD and OPTIONS filled in, 405 for the rest, as Next.js does when it loads a
// route), and checks each method's answer: the route's own methods are left alone, HEAD runs GET,
// OPTIONS lists them, every other method is a 405 `method_not_allowed` with the same Allow, and the
// catch-all of unknown paths answers 404 `not_found` to everything. A new route file fails here
// until it exports every method (server/api.ts `apiMethods`).

vi.hoisted(() => {
  process.env.AUTH_SECRET = "routes-methods-test-secret-routes-methods-test-secret";
  process.env.DATABASE_URL = "postgres://abacus:x@127.0.0.1:1/abacus";
  process.env.STRIPE_SECRET_KEY = "sk_test_routesMethods";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_routesMethodsTestSecret";
});

const ORIGIN = "http://localhost:3000";
const CATCH_ALL = "[[...path]]";

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response> | Response;
type Route = { folder: string; module: Record<string, unknown>; methods: Record<string, Handler> };
const routes: Route[] = [];

/** A URL this route file answers (a catch-all segment becomes one path segment). */
const urlOf = (folder: string) => `${ORIGIN}/api/${folder.replace(/\[\[?\.\.\.\w+\]\]?/g, "x")}`;

beforeAll(async () => {
  for (const file of routeFiles()) {
    const module = (await import(file)) as Record<string, unknown>;
    routes.push({
      folder: routeFolder(file),
      module,
      methods: autoImplementMethods(module as never) as unknown as Record<string, Handler>,
    });
  }
}, 60_000);

async function call(route: Route, method: string) {
  const handler = route.methods[method];
  if (!handler) throw new Error(`Next.js has no ${method} for ${route.folder}`);
  return handler(new Request(urlOf(route.folder), { method }), { params: Promise.resolve({}) });
}

describe("every /api/* route file", () => {
  it("is found, the catch-all of unknown paths included", () => {
    const folders = routes.map((route) => route.folder);
    expect(folders).toContain(CATCH_ALL);
    expect(folders).toContain("health");
    expect(folders).toContain("auth/[...all]");
    expect(folders.length).toBeGreaterThanOrEqual(13);
  });

  it("exports every HTTP method, so Next.js answers none of them itself", () => {
    for (const route of routes) {
      const missing = HTTP_METHODS.filter((method) => typeof route.module[method] !== "function");
      expect(missing, route.folder).toEqual([]);
    }
  });

  it("answers OPTIONS 204 with Allow listing its own methods, and HEAD as GET", async () => {
    for (const route of routes.filter((r) => r.folder !== CATCH_ALL)) {
      const own = await ownMethods(route.module, urlOf(route.folder));
      expect(own.length, route.folder).toBeGreaterThan(0);
      const options = await call(route, "OPTIONS");
      expect(options.status, route.folder).toBe(204);
      const expected = [...own, "OPTIONS", ...(own.includes("GET") ? ["HEAD"] : [])].sort().join(", ");
      expect(options.headers.get("allow"), route.folder).toBe(expected);
      if (own.includes("GET")) expect(route.module.HEAD, route.folder).toBe(route.module.GET);
    }
  });

  it("answers every other method 405 method_not_allowed in the API's error shape, with Allow", async () => {
    let checked = 0;
    for (const route of routes.filter((r) => r.folder !== CATCH_ALL)) {
      const allow = (await call(route, "OPTIONS")).headers.get("allow") ?? "";
      const allowed = allow.split(", ");
      for (const method of HTTP_METHODS.filter((m) => !allowed.includes(m))) {
        const response = await call(route, method);
        const where = `${method} ${route.folder}`;
        expect(response.status, where).toBe(405);
        expect(response.headers.get("allow"), where).toBe(allow);
        expect(response.headers.get("content-type"), where).toContain("application/json");
        expect(await response.json(), where).toEqual({
          error: { code: "method_not_allowed", message: expect.stringContaining(method) },
        });
        checked++;
      }
    }
    // 12 routes, each with at most two of its own methods out of the five that can be refused.
    expect(checked).toBeGreaterThanOrEqual(12 * 3);
  });
});

describe("an unknown /api/* path", () => {
  it.each(HTTP_METHODS)("answers %s with 404 not_found in the API's error shape", async (method) => {
    const route = routes.find((r) => r.folder === CATCH_ALL);
    expect(route).toBeDefined();
    if (!route) return;
    const response = await call(route, method);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: expect.any(String) },
    });
  });
});
