/**
 * What server.mjs does to every request's headers before Next.js sees them (besides the client
 * address, see client-address.mjs). Plain functions over a Node `IncomingHttpHeaders` object so
 * they can be unit-tested.
 */

import { bodyCapFor, MAX_REQUEST_BYTES } from "../src/core/http/edge-contract.mjs";

const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];

/**
 * No endpoint accepts more than this (the largest is a 10 MB replay envelope on /monitoring); each
 * route caps its own body far lower (`bodyCapFor`, src/core/http/edge-contract.mjs, shared with the
 * route handlers). A declared Content-Length above the route's cap is refused here, before Next.js,
 * and the connection closed so the rest of the body is never read.
 */
export { MAX_REQUEST_BYTES };

/** Per-client requests handed to Next.js at once, and waiting beyond those (see ClientGate). */
export const DEFAULT_CLIENT_MAX_ACTIVE = 4;
export const DEFAULT_CLIENT_MAX_QUEUED = 64;

const lastEntry = (value) => {
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  const parts = text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return parts[parts.length - 1];
};

/**
 * Pins the X-Forwarded-Host/Proto headers, which Next.js's server-action origin check compares the
 * Origin against. With no trusted proxy a client could send them to make `Origin: https://evil.com`
 * look same-origin, so they are removed (Next.js then compares against Host, which a browser always
 * sends truthfully). Behind TRUST_PROXY proxies only the entry our nearest proxy set is kept, and
 * with APP_URL set they are the public URL's host and scheme.
 */
export function pinForwardedHeaders(headers, { trustProxy, appUrl }) {
  if (trustProxy > 0 && appUrl) {
    headers["x-forwarded-host"] = appUrl.host;
    headers["x-forwarded-proto"] = appUrl.protocol.replace(":", "");
    delete headers["x-forwarded-port"];
    return headers;
  }
  if (trustProxy > 0) {
    for (const name of FORWARDED) {
      const value = lastEntry(headers[name]);
      if (value) headers[name] = value;
      else delete headers[name];
    }
    return headers;
  }
  for (const name of FORWARDED) delete headers[name];
  return headers;
}

/**
 * Refusals decided from the headers alone, as `{ status, code, message }`, or null:
 * - a declared body larger than the route's cap (`url`: the request's path and query; without it,
 *   larger than any endpoint accepts);
 * - an Origin that is not a URL (Next.js would throw `TypeError: Invalid URL` and answer 500);
 * - a server action whose Origin is another host than the one this request reached (Next.js
 *   refuses those too, but with a 500).
 * Call after pinForwardedHeaders.
 */
export function refuseRequest(headers, url) {
  const declared = Number(headers["content-length"] ?? 0);
  const cap = url === undefined ? MAX_REQUEST_BYTES : bodyCapFor(pathOf(url));
  if (declared > cap) {
    return {
      status: 413,
      code: "payload_too_large",
      message: `The request body must be at most ${cap} bytes.`,
    };
  }
  const origin = headers.origin;
  if (typeof origin !== "string" || origin === "" || origin === "null") return null;
  let parsed;
  try {
    parsed = new URL(origin);
  } catch {
    return { status: 400, code: "invalid_origin", message: "The Origin header is not a valid URL." };
  }
  if (headers["next-action"] !== undefined) {
    const host = headers["x-forwarded-host"] ?? headers.host;
    if (!host || parsed.host.toLowerCase() !== String(host).toLowerCase()) {
      return {
        status: 403,
        code: "cross_origin_action",
        message: "Server actions only run for this site's own pages.",
      };
    }
  }
  return null;
}

/** The path of a request target (`/a/b?c` → `/a/b`). */
export function pathOf(url) {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Strict-Transport-Security for an https APP_URL (two years, subdomains included), else null. */
export function hstsHeader(appUrl) {
  return appUrl?.protocol === "https:" ? "max-age=63072000; includeSubDomains" : null;
}

/**
 * Fair share between clients: at most `maxActive` requests of one client address are handed to
 * Next.js at once; the next `maxQueued` wait here (costing a closure each), and beyond that the
 * client gets 429. The server is one Node process: every request in progress takes turns on its one
 * event loop (and its scrypt hashes on libuv's four threads), so a client with many connections
 * would otherwise slow everyone else, `/api/health` included, in proportion to its connection count.
 * With the cap, one client's flood adds at most `maxActive` requests' worth of work to anyone
 * else's wait; its own extra requests wait in its own queue, in order. A request that leaves while
 * queued (client gone) is dropped without running. Defaults: CLIENT_MAX_ACTIVE / CLIENT_MAX_QUEUED.
 */
export class ClientGate {
  constructor({ maxActive = DEFAULT_CLIENT_MAX_ACTIVE, maxQueued = DEFAULT_CLIENT_MAX_QUEUED } = {}) {
    this.maxActive = maxActive;
    this.maxQueued = maxQueued;
    this.clients = new Map();
  }

  /**
   * Runs `start(release)` now or when the client has a free slot; `release` must be called once
   * when the request is over. Returns false (and never runs it) when the client's queue is full;
   * otherwise a function that cancels the request if it is still waiting (a no-op once started).
   */
  admit(client, start) {
    let state = this.clients.get(client);
    if (!state) {
      state = { active: 0, queue: [] };
      this.clients.set(client, state);
    }
    if (state.active >= this.maxActive && state.queue.length >= this.maxQueued) return false;
    const run = () => {
      state.active++;
      let released = false;
      start(() => {
        if (released) return;
        released = true;
        state.active--;
        const next = state.queue.shift();
        if (next) next();
        else if (state.active === 0) this.clients.delete(client);
      });
    };
    if (state.active < this.maxActive) {
      run();
      return () => {};
    }
    state.queue.push(run);
    return () => {
      const index = state.queue.indexOf(run);
      if (index < 0) return;
      state.queue.splice(index, 1);
      if (state.active === 0 && state.queue.length === 0) this.clients.delete(client);
    };
  }

  /** Requests of `client` now running and waiting (for tests and diagnostics). */
  load(client) {
    const state = this.clients.get(client);
    return { active: state?.active ?? 0, queued: state?.queue.length ?? 0 };
  }
}

/** Paths that bypass the gate: the health check (load balancers, monitors) and build assets. */
export function bypassesGate(url) {
  return url === "/api/health" || url?.startsWith("/api/health?") || url?.startsWith("/_next/static/");
}
