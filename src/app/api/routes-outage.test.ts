import { createServer } from "node:net";
import Stripe from "stripe";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { dsnToString, tunnelUrl } from "@/core/monitoring/dsn";
import { expectedDsn } from "@/server/monitoring/config";
import { MAX_ENVELOPE_ITEMS } from "@/server/monitoring/tunnel";
import { ownMethods, routeFiles, routeFolder } from "../../../tests/support/api-routes";

// With the database down, /api/* once answered 500 with an empty body. This calls every route
// handler under src/app/api with the database refusing connections (a loopback port nobody listens
// on: no PostgreSQL needed) and checks each answer keeps the API's `{ error: { code, message } }`
// shape: a 503 where the route needs the database, never a thrown error (Next.js's empty 500).
// A new route, or a new method on one, fails here until it has a request in CASES below.

const secret = "whsec_routesOutageTestSecret";
vi.hoisted(() => {
  process.env.AUTH_SECRET = "routes-outage-test-secret-routes-outage-test-secret";
  process.env.STRIPE_SECRET_KEY = "sk_test_routesOutage";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_routesOutageTestSecret";
});

// Route handlers read the request's headers through next/headers (the client's address, the
// session cookie); outside Next.js there is no request scope, so give them these: a correctly signed
// session cookie, so that reading the viewer reaches the database.
vi.mock("next/headers", async () => {
  const { createHmac } = await import("node:crypto");
  const token = "routesoutagetoken";
  const signature = createHmac("sha256", process.env.AUTH_SECRET ?? "")
    .update(token)
    .digest("base64");
  const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
  return {
    headers: async () => new Headers({ "x-forwarded-for": "10.9.0.1", cookie }),
    cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
  };
});

const ORIGIN = "http://localhost:3000";

type Case = { path: string; init?: RequestInit; params?: Record<string, unknown>; outage: boolean };

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": "10.9.0.1" },
  body: JSON.stringify(body),
});

function stripeEvent(): RequestInit {
  const payload = JSON.stringify({
    id: "evt_outage",
    object: "event",
    type: "payment_intent.succeeded",
    data: { object: { id: "pi_outage", metadata: { orderId: "00000000-0000-4000-8000-000000000000" } } },
  });
  return {
    method: "POST",
    headers: { "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    body: payload,
  };
}

/**
 * One request per route and method, as `${METHOD} ${route folder}`; `outage` says whether the
 * answer needs the database (then it must be 503 service_unavailable).
 */
const CASES: Record<string, Case> = {
  "GET auth/[...all]": { path: "/api/auth/get-session", params: { all: ["get-session"] }, outage: false },
  "POST auth/[...all]": {
    path: "/api/auth/sign-in/email",
    init: json({ email: "someone@example.com", password: "a-long-unusual-passphrase" }),
    params: { all: ["sign-in", "email"] },
    outage: true,
  },
  "POST billing/stripe-webhook": { path: "/api/billing/stripe-webhook", init: stripeEvent(), outage: true },
  "GET health": { path: "/api/health", outage: true },
  "GET me": { path: "/api/me", outage: true },
  "GET monitoring/config": { path: "/api/monitoring/config", outage: false },
  "POST v1/calculate": { path: "/api/v1/calculate", init: json({ expression: "1 + 2" }), outage: true },
  "GET v1/convert": { path: "/api/v1/convert?amount=1&from=EUR&to=USD", outage: true },
  "GET v1/openapi.json": { path: "/api/v1/openapi.json", outage: false },
  "GET v1/invoices": { path: "/api/v1/invoices", outage: true },
  "GET v1/invoices/[number]": {
    path: "/api/v1/invoices/INV-2026-000001",
    params: { number: "INV-2026-000001" },
    outage: true,
  },
  "GET v1/rates": { path: "/api/v1/rates", outage: true },
  "GET v1/receipt-keys": { path: "/api/v1/receipt-keys", outage: true },
  "POST v1/sheets/evaluate": {
    path: "/api/v1/sheets/evaluate",
    init: json({ sheet: "1 + 2" }),
    outage: true,
  },
  "POST v1/receipts/verify": {
    path: "/api/v1/receipts/verify",
    init: json({ receipt: {}, signature: "x" }),
    outage: true,
  },
  "POST views": {
    path: "/api/views",
    init: { ...json({ path: "/pricing" }), headers: { "sec-fetch-site": "same-origin" } },
    outage: true,
  },
};

/** A loopback port with nothing listening on it: connections are refused at once. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 1;
}

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
const handlers: { key: string; handler: Handler }[] = [];

beforeAll(async () => {
  // The outage is logged (Better Auth, the health check): expected here, and not worth the noise.
  vi.spyOn(console, "error").mockImplementation(() => {});
  process.env.DATABASE_URL = `postgres://abacus:x@127.0.0.1:${await deadPort()}/abacus`;
  for (const file of routeFiles()) {
    const folder = routeFolder(file);
    const module = (await import(file)) as Record<string, unknown>;
    // The route's own methods (the others answer 405 or 404 without the database:
    // routes-methods.test.ts).
    for (const method of await ownMethods(module, `${ORIGIN}/api/${folder}`)) {
      handlers.push({ key: `${method} ${folder}`, handler: module[method] as Handler });
    }
  }
}, 60_000);

describe("every /api/* route with the database down", () => {
  it("has a request here for each route and method", () => {
    expect(handlers.map(({ key }) => key).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))("%s keeps the API's error shape", async (key, spec) => {
    const found = handlers.find((h) => h.key === key);
    expect(found, `no handler for ${key}`).toBeDefined();
    const request = new Request(`${ORIGIN}${spec.path}`, spec.init);
    const response = await found?.handler(request, { params: Promise.resolve(spec.params ?? {}) });
    expect(response).toBeInstanceOf(Response);
    if (!response) return;
    const text = await response.text();
    if (spec.outage) {
      expect(response.status, text.slice(0, 200)).toBe(503);
      expect(JSON.parse(text)).toMatchObject({
        error: { code: "service_unavailable", message: expect.any(String) },
      });
    } else if (response.status >= 400) {
      expect(JSON.parse(text)).toMatchObject({
        error: { code: expect.any(String), message: expect.any(String) },
      });
    }
  });
});

// The browser SDK's tunnel is no /api route and answers in plain text, but it too must answer,
// not throw: its per-client count needs the database, also for an envelope past the item cap
// (charged as the client's whole allowance), which once threw Next.js's empty 500 here.
describe("the /monitoring tunnel with the database down", () => {
  it.each([
    ["an envelope of events", 3],
    ["an envelope past the item cap", MAX_ENVELOPE_ITEMS + 1],
  ])("answers %s 503 in the tunnel's plain-text shape", async (_what, items) => {
    const { POST } = await import("@/app/monitoring/route");
    const { getMonitoringConfig } = await import("@/server/monitoring");
    const config = getMonitoringConfig();
    const dsn = dsnToString(expectedDsn(config, new URL(ORIGIN).host, "http"));
    const item = `${JSON.stringify({ type: "event" })}\n${JSON.stringify({ message: "outage" })}\n`;
    const request = new Request(new URL(tunnelUrl(config.query), ORIGIN), {
      method: "POST",
      body: `${JSON.stringify({ dsn })}\n${item.repeat(items)}`,
    });
    const response = await POST(request);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await response.text()).not.toBe("");
  });
});

describe("pages with the database down", () => {
  it("reading the viewer throws the outage digest that error.tsx shows as temporarily unavailable", async () => {
    const { getViewer } = await import("@/server/authz");
    const { SERVICE_UNAVAILABLE_DIGEST } = await import("@/core/service-unavailable");
    await expect(getViewer()).rejects.toMatchObject({ digest: SERVICE_UNAVAILABLE_DIGEST });
  });
});
