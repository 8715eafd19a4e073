/**
 * What the server does to every request's headers before Next.js sees them (besides the client
 * address, see client-address.ts). Plain functions over a Node `IncomingHttpHeaders` object so
 * they can be unit-tested.
 */

import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { Socket } from "node:net";
import { bodyCapFor, MAX_REQUEST_BYTES } from "@/core/http/edge-contract";
import { securityHeaders } from "@/core/security-headers.mjs";

const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];

/**
 * No endpoint accepts more than this (the largest is a 10 MB replay envelope on /monitoring); each
 * route caps its own body far lower (`bodyCapFor`, src/core/http/edge-contract.ts, shared with the
 * route handlers). A declared Content-Length above the route's cap is refused here, before Next.js,
 * and the connection closed so the rest of the body is never read.
 */
export { MAX_REQUEST_BYTES };

/** Per-client requests handed to Next.js at once, and waiting beyond those (see ClientGate). */
export const DEFAULT_CLIENT_MAX_ACTIVE = 4;
export const DEFAULT_CLIENT_MAX_QUEUED = 64;

const lastEntry = (value: string | string[] | undefined) => {
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
export function pinForwardedHeaders(
  headers: IncomingHttpHeaders,
  { trustProxy, appUrl }: { trustProxy: number; appUrl: URL | undefined },
): IncomingHttpHeaders {
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
export type Refusal = { status: number; code: string; message: string };

export function refuseRequest(headers: IncomingHttpHeaders, url?: string): Refusal | null {
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
  let parsed: URL;
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
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Strict-Transport-Security for an https APP_URL (two years, subdomains included), else null. */
export function hstsHeader(appUrl: URL | undefined): string | null {
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
type GateState = { active: number; queue: (() => void)[] };

export class ClientGate {
  readonly maxActive: number;
  readonly maxQueued: number;
  readonly clients = new Map<string, GateState>();

  constructor({
    maxActive = DEFAULT_CLIENT_MAX_ACTIVE,
    maxQueued = DEFAULT_CLIENT_MAX_QUEUED,
  }: { maxActive?: number; maxQueued?: number } = {}) {
    this.maxActive = maxActive;
    this.maxQueued = maxQueued;
  }

  /**
   * Runs `start(release)` now or when the client has a free slot; `release` must be called once
   * when the request is over. Returns false (and never runs it) when the client's queue is full;
   * otherwise a function that cancels the request if it is still waiting (a no-op once started).
   */
  admit(client: string, start: (release: () => void) => void): false | (() => void) {
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
  load(client: string): { active: number; queued: number } {
    const state = this.clients.get(client);
    return { active: state?.active ?? 0, queued: state?.queue.length ?? 0 };
  }
}

/**
 * Paths that bypass the gate: the health check (load balancers, monitors) and build assets. Only
 * for a request target `canonicalTarget` returned as it is: `/_next/static/../../api/v1/rates`
 * starts like an asset but is routed by Next.js as `/api/v1/rates`.
 */
export function bypassesGate(url: string | undefined): boolean {
  return (
    url === "/api/health" ||
    url?.startsWith("/api/health?") === true ||
    url?.startsWith("/_next/static/") === true
  );
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The one form of a request target every decision is taken on (gate bypass, body caps, remembered
 * refusals, the anonymous-answer and page caches, build assets) and Next.js routes by:
 * - `{ url }`: the target, with percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2:
 *   `/api/%761/rates` is `/api/v1/rates`, as Next.js routes it) and other escapes upper-cased;
 *   the same string as `url` when it already was in that form (every browser request is);
 * - `{ refuse }`: a target Next.js would route somewhere else than it reads: a dot segment (`.`,
 *   `..`, also written `%2e`, `%2E%2e`...) or a backslash in the path, which the WHATWG URL parser
 *   resolves (`/_next/static/../../api/x` is `/api/x`), or a target that is not a path
 *   (absolute-form `http://host/x`, `*`). Browsers resolve dot segments before sending and proxies
 *   send the origin form, so only a hand-made request has them: it is refused rather than
 *   resolved, so no second parser can disagree with this one.
 */
export function canonicalTarget(
  url: string | undefined,
): { url: string; refuse?: undefined } | { refuse: string; url?: undefined } {
  if (typeof url !== "string" || !url.startsWith("/")) return { refuse: "not_a_path" };
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path.includes("\\")) return { refuse: "backslash" };
  let canonical = path;
  if (path.includes("%")) {
    canonical = path.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex) => {
      const char = String.fromCharCode(Number.parseInt(hex, 16));
      return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
    });
  }
  for (const segment of canonical.split("/")) {
    if (segment === "." || segment === "..") return { refuse: "dot_segment" };
  }
  return { url: canonical === path ? url : canonical + (query === -1 ? "" : url.slice(query)) };
}

/**
 * The security headers of every response (src/core/security-headers.mjs, as next.config.ts sends
 * them), as an object for the answers the edge writes itself.
 */
export function edgeSecurityHeaders(dev = false): Record<string, string> {
  // Lower-case names, as Node reports an answer's headers: merged with the app's, one of each.
  return Object.fromEntries(securityHeaders(dev).map(({ key, value }) => [key.toLowerCase(), value]));
}

/** Per-client open connections by default (TRUST_PROXY=0 only: see ConnectionLimits). */
export const DEFAULT_CLIENT_MAX_CONNECTIONS = 128;
/** The most open connections by default, whatever the open-file limit allows. */
export const DEFAULT_SERVER_MAX_CONNECTIONS = 10_000;
/**
 * File descriptors kept out of the connection cap besides the database pool: the build's files,
 * logs, the page cache's database connection, outgoing requests (mail, Sentry), Next.js's own.
 */
export const RESERVED_FILE_DESCRIPTORS = 512;

/** The soft RLIMIT_NOFILE of this process (Linux: /proc/self/limits), or undefined when unknown. */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/self/limits", "utf8");
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  if (soft === undefined || soft === "unlimited") return undefined;
  const value = Number(soft);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The most connections the server may hold so that the database pool can still open its sockets:
 * the open-file limit minus the pool and RESERVED_FILE_DESCRIPTORS (undefined: no known limit).
 */
export function connectionRoom(openFiles: number | undefined, poolSize: number): number | undefined {
  return openFiles === undefined ? undefined : openFiles - poolSize - RESERVED_FILE_DESCRIPTORS;
}

/**
 * Open connections per client address and in total, counted when a connection is accepted, before
 * any byte of it is read (the per-client gate only sees requests whose headers are complete, so a
 * client holding thousands of half-sent requests never reached it). Over a cap, the newest
 * connection is closed at once: those already open, of that client and of everyone else, are kept.
 * - `maxTotal` goes to Node's `server.maxConnections` (closed in the accept path, before an HTTP
 *   parser exists);
 * - `maxPerClient` is counted per socket address, which is the gate's client address only when no
 *   proxy is trusted: behind TRUST_PROXY proxies every connection comes from a proxy, so it is not
 *   applied (the proxy limits its clients' connections; only the total holds here).
 */
export class ConnectionLimits {
  readonly maxPerClient: number;
  readonly maxTotal: number | undefined;
  readonly perClient: boolean;
  /** socket address → open connections */
  readonly open = new Map<string, number>();
  refused = 0;
  /** Told of each refused connection and which cap refused it (the metrics count them). */
  onRefused: (cap: "client" | "server") => void = () => {};

  constructor({
    maxPerClient = DEFAULT_CLIENT_MAX_CONNECTIONS,
    maxTotal,
    perClient = true,
  }: { maxPerClient?: number; maxTotal?: number; perClient?: boolean } = {}) {
    this.maxPerClient = maxPerClient;
    this.maxTotal = maxTotal;
    this.perClient = perClient;
  }

  /** Counts `socket` in, or closes it (returns false) when its client is at the cap. */
  accept(socket: Socket): boolean {
    if (!this.perClient) return true;
    const client = socket.remoteAddress ?? "unknown";
    const count = this.open.get(client) ?? 0;
    if (count >= this.maxPerClient) {
      this.refused++;
      this.onRefused("client");
      // A reset: no closing handshake to wait for, and no TIME_WAIT left on this side.
      if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
      else socket.destroy();
      return false;
    }
    this.open.set(client, count + 1);
    socket.once("close", () => {
      const left = (this.open.get(client) ?? 1) - 1;
      if (left > 0) this.open.set(client, left);
      else this.open.delete(client);
    });
    return true;
  }

  /**
   * Applies the caps to `server` (a node:http Server). The per-client count runs before the HTTP
   * server's own connection listener, so a refused connection never gets an HTTP parser: refusing
   * one costs little more than the kernel's accept.
   */
  attach(server: Server): this {
    if (this.maxTotal !== undefined) server.maxConnections = this.maxTotal;
    server.on("drop", () => {
      this.refused++;
      this.onRefused("server");
    });
    const listeners = server.listeners("connection");
    server.removeAllListeners("connection");
    server.on("connection", (socket: Socket) => {
      if (!this.accept(socket)) return;
      for (const listener of listeners) (listener as (socket: Socket) => void).call(server, socket);
    });
    return this;
  }
}
