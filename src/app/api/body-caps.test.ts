import Stripe from "stripe";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BODY_CAPS } from "@/core/http/edge-contract";
import { ownMethods, routeFiles, routeFolder } from "../../../tests/support/api-routes";

// /api/v1/calculate once parsed a 100 MB body. The edge refuses a declared Content-Length over
// a route's cap (src/edge/edge.test.ts), but a chunked body declares none: each route must count
// the bytes it reads itself. This posts one byte over each route's cap as a stream without a
// Content-Length and expects 413 in the API's error shape, before anything else (the database is
// unreachable and the rate limits are stubbed, so a route that read the body after either would
// not answer 413). A new route taking a body fails here until it has a case.

const secret = "whsec_bodyCapsTestSecret";
vi.hoisted(() => {
  process.env.AUTH_SECRET = "body-caps-test-secret-body-caps-test-secret-body-caps";
  process.env.DATABASE_URL = "postgres://abacus:x@127.0.0.1:1/abacus";
  process.env.STRIPE_SECRET_KEY = "sk_test_bodyCaps";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_bodyCapsTestSecret";
});
vi.mock("@/server/api", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/server/api")>()),
  limitAnonymousApi: async () => null,
}));
vi.mock("@/features/api-keys/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/features/api-keys/server")>()),
  guardApi: async () => ({ caller: { organizationId: null, headers: {} } }),
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": "10.9.0.2" }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));

const BODY_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

/** Per `${METHOD} ${route folder}`: its cap and the headers a request needs to reach the body. */
const CASES: Record<string, { path: string; cap: number; headers?: Record<string, string> }> = {
  "POST auth/[...all]": { path: "/api/auth/sign-up/email", cap: BODY_CAPS.auth },
  "POST billing/stripe-webhook": {
    path: "/api/billing/stripe-webhook",
    cap: BODY_CAPS.stripeWebhook,
    headers: { "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: "{}", secret }) },
  },
  "POST v1/calculate": { path: "/api/v1/calculate", cap: BODY_CAPS.calculate },
  "POST v1/receipts/verify": { path: "/api/v1/receipts/verify", cap: BODY_CAPS.receiptVerify },
  "POST v1/sheets/evaluate": { path: "/api/v1/sheets/evaluate", cap: BODY_CAPS.calculate },
  "POST views": { path: "/api/views", cap: BODY_CAPS.pageView },
};

/** `bytes` bytes of JSON-ish text as a stream in 16 KiB chunks: no Content-Length. */
function stream(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const size = Math.min(left, 16 * 1024);
      left -= size;
      controller.enqueue(new TextEncoder().encode(" ".repeat(size)));
    },
  });
}

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
const handlers = new Map<string, Handler>();

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  for (const file of routeFiles()) {
    const folder = routeFolder(file);
    const module = (await import(file)) as Record<string, unknown>;
    // The route's own methods: the others answer 405 without reading the body.
    for (const method of await ownMethods(module, `http://localhost:3000/api/${folder}`)) {
      if ((BODY_METHODS as readonly string[]).includes(method))
        handlers.set(`${method} ${folder}`, module[method] as Handler);
    }
  }
}, 60_000);

describe("every /api/* route that takes a body", () => {
  it("has a cap here", () => {
    expect([...handlers.keys()].sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))(
    "%s answers 413 one byte past its cap, without a Content-Length",
    async (key, spec) => {
      const handler = handlers.get(key);
      expect(handler).toBeDefined();
      const request = new Request(`http://localhost:3000${spec.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", ...spec.headers },
        body: stream(spec.cap + 1),
        duplex: "half",
      } as RequestInit);
      expect(request.headers.get("content-length")).toBeNull();
      const response = await handler?.(request, { params: Promise.resolve({}) });
      expect(response?.status).toBe(413);
      expect(await response?.json()).toMatchObject({
        error: { code: expect.any(String), message: expect.any(String) },
      });
    },
  );
});
