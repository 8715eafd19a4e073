/**
 * What the custom server's edge (src/edge, runs before Next.js) and the app (route
 * handlers) must agree on, defined once here:
 * - every endpoint's request-body cap (`BODY_CAPS`, `bodyCapFor`): the edge answers 413 to a
 *   declared Content-Length above the route's cap before Next.js runs; the route handler still
 *   counts the bytes it reads (a missing or lying Content-Length cannot get past it);
 * - the standard Cache-Control by which the app tells the edge (a cache in front of it) what it may
 *   answer alone next time (`refusalCacheControl`, `ANONYMOUS_CACHE_CONTROL`).
 */

const KIB = 1024;
const MIB = 1024 * KIB;

/** Request-body caps in bytes, per endpoint. */
export const BODY_CAPS = Object.freeze({
  /** `/api/auth/*`: a few short fields; 64 KiB leaves room for metadata and long URLs. */
  auth: 64 * KIB,
  /** `/api/v1/calculate`: an expression is at most 10,000 characters; even \u-escaped it fits. */
  calculate: 64 * KIB,
  /** `/api/v1/receipts/verify`: one receipt and its signature. */
  receiptVerify: 32 * KIB,
  /** `/api/views`: `{ "path": "/pricing" }`. */
  pageView: 1 * KIB,
  /** `/api/billing/stripe-webhook`: one Stripe event. */
  stripeWebhook: 256 * KIB,
  /** `/monitoring`: an envelope of events; */
  monitoringEvent: 1 * MIB,
  /**
   * ... or, carrying only replay items, up to this: a fully masked, compressed replay segment of
   * the largest page (/docs, with its first full snapshot) is about 100 KB; 20 times that.
   */
  monitoringReplay: 2 * MIB,
});

/** No request may declare a larger body than this, whatever its path (server actions included). */
export const MAX_REQUEST_BYTES = BODY_CAPS.monitoringReplay + 64 * KIB;

/** [path, cap, whether the path is a prefix]: the endpoints that take a body. */
const ROUTE_CAPS: [string, number, boolean][] = [
  ["/api/auth/", BODY_CAPS.auth, true],
  ["/api/v1/calculate", BODY_CAPS.calculate, false],
  ["/api/v1/sheets/evaluate", BODY_CAPS.calculate, false],
  ["/api/v1/receipts/verify", BODY_CAPS.receiptVerify, false],
  ["/api/views", BODY_CAPS.pageView, false],
  ["/api/billing/stripe-webhook", BODY_CAPS.stripeWebhook, false],
  ["/monitoring", BODY_CAPS.monitoringReplay, false],
];

/**
 * The most bytes a request to `pathname` may carry: its route's cap, or MAX_REQUEST_BYTES for any
 * other path. A trailing slash is ignored (Next.js redirects it).
 */
export function bodyCapFor(pathname: string): number {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  for (const [route, cap, prefix] of ROUTE_CAPS) {
    if (prefix ? pathname.startsWith(route) : path === route) return cap;
  }
  return MAX_REQUEST_BYTES;
}

/** The longest the edge (and the app's own memory of a refusal) repeats a refusal before asking again. */
export const EDGE_REFUSAL_MAX_HOLD_MS = 10_000;

/**
 * Cache-Control of a 429 whose refusal depends only on the client's address, the method, the path
 * and the request's credentials (Authorization, Cookie), never on its body or query, and which the
 * database says holds for `holdsForMs` more (at most EDGE_REFUSAL_MAX_HOLD_MS): `private` (a cache
 * for this client alone: the edge keeps it per client and credentials) for the hold rounded up to
 * whole seconds, as Retry-After is. The edge then repeats that answer to that client's same request,
 * with an `Age` and its Retry-After counted down, so its body must state no time. Rounding up never
 * refuses a client that waits as its Retry-After told it (that is at least as long), and it lets the
 * edge absorb a client that hammers past a one-second burst limit without asking the app each time.
 * A refusal that does not hold (0 ms): `no-store`, as every API error.
 */
export function refusalCacheControl(holdsForMs: number): string {
  const seconds = Math.ceil(Math.min(holdsForMs, EDGE_REFUSAL_MAX_HOLD_MS) / 1000);
  return seconds > 0 ? `private, max-age=${seconds}` : "no-store";
}

/** How long the edge keeps an anonymous answer before asking the app again. */
export const EDGE_ANONYMOUS_TTL_MS = 60_000;

/**
 * Cache-Control of the answer to a GET that carried no Cookie and no Authorization header, when that
 * answer is the same for every such request (e.g. "nobody is signed in"): a shared cache (the edge)
 * may give it to the next credential-less GET of the same URL for a while, without Next.js; a
 * browser must ask again (max-age=0). Sent with ANONYMOUS_VARY, so that no cache gives it to a
 * request with credentials.
 */
export const ANONYMOUS_CACHE_CONTROL = `public, max-age=0, s-maxage=${EDGE_ANONYMOUS_TTL_MS / 1000}`;
export const ANONYMOUS_VARY = "Cookie, Authorization";

/**
 * The request header the edge writes the client's address into: one address (from the socket, or
 * the trusted part of the proxies' chain), replacing whatever the client sent.
 */
export const CLIENT_ADDRESS_HEADER = "x-forwarded-for";

/** The client's address from CLIENT_ADDRESS_HEADER as the edge pinned it ("unknown" without one). */
export function pinnedClientAddress(value: string | null | undefined): string {
  return value?.split(",")[0]?.trim() || "unknown";
}

/**
 * A read whose answer may be the same for every client: a GET with no Cookie and no Authorization
 * header. Only such requests get (edge) or give (app) an answer marked ANONYMOUS_CACHE_CONTROL.
 */
export function isCredentialLessRead(request: {
  method?: string;
  hasCookie: boolean;
  hasAuthorization: boolean;
}): boolean {
  return request.method === "GET" && !request.hasCookie && !request.hasAuthorization;
}

/**
 * Where the app keeps its one database pool on `globalThis` (src/server/db/client.ts), so that the
 * server can close it after the last request of a graceful shutdown.
 */
export const APP_POOL_GLOBAL = "__abacusDb";

/**
 * What the app's pool counts (kept beside it under APP_POOL_GLOBAL, read by `/metrics`): its size,
 * the queries and transactions under way now, and how many of them ever started while every
 * connection was taken (they waited: queued in the driver, or pipelined behind another query).
 */
export interface AppPoolStats {
  size: number;
  active: number;
  waited: number;
}

/** The request id the server gives every request and answer, and logs with it. */
export const REQUEST_ID_HEADER = "x-request-id";
