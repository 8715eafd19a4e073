/**
 * What server.mjs does with every request before Next.js sees it, as a plain Node request handler
 * around Next.js's own (`handle`), so it can be run on a real HTTP server in tests:
 * - the client's address pinned into X-Forwarded-For (socket, or TRUST_PROXY proxies back);
 * - X-Forwarded-Host/Proto pinned, HSTS for an https APP_URL;
 * - refusals decided from the headers alone (oversized body, malformed Origin, cross-origin server
 *   action), answered at once with the connection closed, before any body is read;
 * - whole-page answers from the page cache (page-cache.mjs: /pricing per FX version);
 * - a per-client gate (ClientGate): one client's flood cannot fill the event loop; `/api/health`
 *   and build assets bypass it.
 */
import { clientAddress } from "./client-address.mjs";
import {
  bypassesGate,
  ClientGate,
  DEFAULT_CLIENT_MAX_ACTIVE,
  DEFAULT_CLIENT_MAX_QUEUED,
  hstsHeader,
  pinForwardedHeaders,
  refuseRequest,
} from "./request-guard.mjs";

const intIn = (name, raw, fallback, min, max, what, errors) => {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    errors.push(`  - ${name}: must be ${what} (${min} to ${max}), got "${raw}"`);
    return fallback;
  }
  return value;
};

/**
 * The server's own settings from the environment (server.mjs runs before, and outside, Next.js
 * and src/server/env.ts, which validates the same variables again for the app). Returns
 * `{ config }` or `{ errors }` (one line per bad variable).
 */
export function readServerConfig(env) {
  const errors = [];
  const port = intIn("PORT", env.PORT, 3000, 1, 65535, "a port number", errors);
  const trustProxy = intIn("TRUST_PROXY", env.TRUST_PROXY, 0, 0, 10, "a number of proxies", errors);
  const clientMaxActive = intIn(
    "CLIENT_MAX_ACTIVE",
    env.CLIENT_MAX_ACTIVE,
    DEFAULT_CLIENT_MAX_ACTIVE,
    1,
    1000,
    "a number of requests",
    errors,
  );
  const clientMaxQueued = intIn(
    "CLIENT_MAX_QUEUED",
    env.CLIENT_MAX_QUEUED,
    DEFAULT_CLIENT_MAX_QUEUED,
    0,
    100_000,
    "a number of requests",
    errors,
  );
  let appUrl;
  if (env.APP_URL) {
    try {
      appUrl = new URL(env.APP_URL);
    } catch {
      errors.push(`  - APP_URL: must be an absolute URL, got "${env.APP_URL}"`);
    }
  }
  if (errors.length > 0) return { errors };
  return {
    config: {
      port,
      host: env.HOST ?? "0.0.0.0",
      trustProxy,
      appUrl,
      clientMaxActive,
      clientMaxQueued,
    },
  };
}

function answer(res, status, code, message, headers = {}) {
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...headers,
  });
  return JSON.stringify({ error: { code, message } });
}

/**
 * The request handler: `next(req, res)` is Next.js's (or, in tests, any handler); `pageCache`
 * (scripts/page-cache.mjs) answers the pages it holds without Next.js.
 */
export function createEdgeHandler(
  next,
  { trustProxy = 0, appUrl, clientMaxActive, clientMaxQueued, pageCache } = {},
) {
  const handle = pageCache ? pageCache.wrap(next) : next;
  const hsts = hstsHeader(appUrl);
  const gate = new ClientGate({ maxActive: clientMaxActive, maxQueued: clientMaxQueued });
  const handler = (req, res) => {
    const forwarded = req.headers["x-forwarded-for"];
    const client = clientAddress(
      req.socket.remoteAddress,
      trustProxy > 0 ? (Array.isArray(forwarded) ? forwarded.join(",") : forwarded) : undefined,
      trustProxy,
    );
    req.headers["x-forwarded-for"] = client;
    pinForwardedHeaders(req.headers, { trustProxy, appUrl });
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
    const refusal = refuseRequest(req.headers);
    if (refusal) {
      // Closing the connection: an unread body (say 100 MB) is then never received and discarded.
      const body = answer(res, refusal.status, refusal.code, refusal.message, { connection: "close" });
      res.end(body, () => req.socket.destroySoon?.());
      return;
    }
    if (bypassesGate(req.url)) {
      handle(req, res);
      return;
    }
    const cancel = gate.admit(client, (release) => {
      res.once("close", release);
      handle(req, res);
    });
    if (!cancel) {
      // The client's own queue is full: it alone waits, by its own Retry-After.
      res.end(
        answer(res, 429, "too_many_requests", "Too many requests from this client at once.", {
          "retry-after": "1",
        }),
      );
      return;
    }
    // Still queued when the client goes away: never run it.
    res.once("close", cancel);
  };
  handler.gate = gate;
  return handler;
}
