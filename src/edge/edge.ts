/**
 * What the server does with every request before Next.js sees it, as a plain Node request handler
 * around Next.js's own (`handle`), so it can be run on a real HTTP server in tests:
 * - the client's address pinned into X-Forwarded-For (socket, or TRUST_PROXY proxies back);
 * - X-Forwarded-Host/Proto pinned, HSTS for an https APP_URL;
 * - refusals decided from the headers alone (a body over its route's cap, malformed Origin,
 *   cross-origin server action), answered at once with the connection closed, before any body is read;
 * - answers the app said may be repeated, by standard Cache-Control (edge-memory.ts): a 429 marked
 *   `private, max-age=N` (keyed on the client alone) for that client while it holds, and a 200 to a
 *   credential-less GET marked `public, s-maxage=N` (such as "nobody is signed in"), given back with
 *   an `Age`;
 * - whole-page answers from the page cache (page-cache.ts: /pricing per FX version);
 * - build files with their Brotli or gzip copies (static-assets.ts, sirv);
 * - a per-client gate (ClientGate): one client's flood cannot fill the event loop; `/api/health`
 *   and build assets bypass it.
 */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { CLIENT_ADDRESS_HEADER } from "@/core/http/edge-contract";
import { clientAddress } from "./client-address";
import type { ServerConfig } from "./config";
import { AnonymousAnswers, cacheDirectives, isAnonymousRead, RefusalMemory, refusalKey } from "./edge-memory";
import type { Health } from "./health";
import { type Logger, logRequest, requestId, unlogged } from "./log";
import type { Metrics, RefusalReason } from "./metrics";
import type { PageCache } from "./page-cache";
import {
  bypassesGate,
  ClientGate,
  ConnectionLimits,
  canonicalTarget,
  DEFAULT_CLIENT_MAX_ACTIVE,
  DEFAULT_CLIENT_MAX_CONNECTIONS,
  DEFAULT_CLIENT_MAX_QUEUED,
  edgeSecurityHeaders,
  hstsHeader,
  pinForwardedHeaders,
  refuseRequest,
} from "./request-guard";
import type { StaticAssets } from "./static-assets";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The security headers every response carries, for the answers the edge writes itself. */
const SECURITY_HEADERS = edgeSecurityHeaders(false);

function answer(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: OutgoingHttpHeaders = {},
): string {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": "application/json",
    "cache-control": "no-store",
    ...headers,
  });
  return JSON.stringify({ error: { code, message } });
}

/** An answer the app gave, repeated by the edge: the security headers under the app's own. */
const withSecurityHeaders = (headers: OutgoingHttpHeaders): OutgoingHttpHeaders => ({
  ...SECURITY_HEADERS,
  ...headers,
});

/**
 * RateLimit-* headers (as a keyed API call's 429 carries them) for a refusal with `retryAfter`
 * seconds to go: `limit` and `policy` are the app's (RateLimit-Limit / -Policy) when it said them.
 */
function rateLimitHeaders(
  retryAfter: number,
  { limit, policy }: { limit?: unknown; policy?: unknown } = {},
): Record<string, string> {
  return {
    ...(limit !== undefined ? { "ratelimit-limit": String(limit) } : {}),
    "ratelimit-remaining": "0",
    "ratelimit-reset": String(retryAfter),
    ...(policy !== undefined ? { "ratelimit-policy": String(policy) } : {}),
  };
}

/** Bodies up to this are read and dropped by Node after an early answer; larger ones close. */
const DRAIN_BYTES = 64 * 1024;

/** Answers without the app; a request body that is large or of unknown length closes the connection. */
function answerEarly(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string | Buffer,
): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  const close = declared > DRAIN_BYTES || req.headers["transfer-encoding"] !== undefined;
  res.writeHead(status, close ? { ...headers, connection: "close" } : headers);
  res.end(body, close ? () => req.socket.destroySoon?.() : undefined);
}

/**
 * What an anonymous answer is kept under: the Host and the URL as the request arrived. An answer may
 * name the host it was asked on (the monitoring config's tunnel, without APP_URL), so a request made
 * with another Host header must never be given it.
 */
function anonymousKey(req: IncomingMessage): string {
  return `${req.headers.host ?? ""} ${req.url ?? "/"}`;
}

/** The largest 429 body the edge keeps to repeat (an API error is ~300 bytes). */
const MAX_REFUSAL_BYTES = 4096;

/** Whole seconds of a delta-seconds directive (`max-age=10`), or 0. */
function seconds(value: string | true | undefined): number {
  const parsed = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  return parsed;
}

/**
 * Watches the app's answer to `req` and keeps what its Cache-Control lets a cache repeat: a 429
 * marked `private, max-age=N` in `refusals` for this client (the app marks only refusals that depend
 * on the client, method, path and credentials alone), and a 200 to a credential-less GET marked
 * `public, s-maxage=N` in `anonymous`. Encoded bodies fit only clients that accept that coding:
 * they are not kept.
 */
function watchAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  client: string,
  { refusals, anonymous }: EdgeMemory,
): void {
  const key = anonymousKey(req);
  // As the request arrived (Next.js may rewrite req.url).
  const refusedKey = refusalKey({
    method: req.method,
    url: req.url ?? "/",
    headers: { authorization: req.headers.authorization, cookie: req.headers.cookie },
  });
  const anonymousRead = isAnonymousRead(req);
  // The body is collected from the start (an answer may be written before its head: `res.end(body)`
  // with no writeHead call), and kept only when the head said so.
  let keep: ((body: Buffer) => void) | undefined;
  captureBody(res, Math.max(MAX_REFUSAL_BYTES, anonymous.maxBytes), (body) => keep?.(body));
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    res.writeHead = writeHead;
    if (statusCode === 429 || (statusCode === 200 && anonymousRead)) {
      const last = rest[rest.length - 1];
      const headers: OutgoingHttpHeaders = { ...res.getHeaders() };
      if (Array.isArray(last)) {
        for (let i = 0; i + 1 < last.length; i += 2) headers[String(last[i]).toLowerCase()] = last[i + 1];
      } else if (typeof last === "object" && last !== null) {
        for (const [name, value] of Object.entries(last)) headers[name.toLowerCase()] = value;
      }
      const directives = cacheDirectives(headers["cache-control"]);
      if (headers["content-encoding"] === undefined && headers["set-cookie"] === undefined) {
        const maxAge = seconds(directives.get("max-age"));
        if (statusCode === 429 && directives.has("private") && maxAge > 0) {
          keep = (body) => {
            if (body.length > MAX_REFUSAL_BYTES) return;
            const retryAfter = Number(headers["retry-after"]);
            refusals.remember(client, refusedKey, maxAge * 1000, retryAfter, { headers, body });
          };
        }
        const sharedMaxAge = seconds(directives.get("s-maxage"));
        if (statusCode === 200 && directives.has("public") && sharedMaxAge > 0) {
          keep = (body) => anonymous.set(key, statusCode, headers, body, sharedMaxAge * 1000);
        }
      }
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as ServerResponse["writeHead"];
}

/** Collects what is written to `res` (up to `max` bytes), then calls `done(body)` once it ended. */
function captureBody(res: ServerResponse, max: number, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > max) return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : ArrayBuffer.isView(chunk)
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : undefined;
    if (buffer === undefined) return;
    size += buffer.length;
    if (size <= max) chunks.push(Buffer.from(buffer));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, encoding: unknown, ...rest: unknown[]) {
    keep(chunk, encoding);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, encoding, ...rest);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, chunk: unknown, encoding: unknown, ...rest: unknown[]) {
    keep(chunk, encoding);
    res.write = write;
    res.end = end;
    if (size <= max) res.once("finish", () => done(Buffer.concat(chunks)));
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, encoding, ...rest);
  } as ServerResponse["end"];
}

/**
 * The request handler: `next(req, res)` is Next.js's (or, in tests, any handler); `pageCache`
 * (page-cache.ts) answers the pages it holds without Next.js, `staticAssets`
 * (static-assets.ts) the build assets it has in Brotli.
 */
export type EdgeMemory = { refusals: RefusalMemory; anonymous: AnonymousAnswers };

export type EdgeOptions = Partial<Omit<ServerConfig, "port" | "host">> & {
  pageCache?: PageCache;
  staticAssets?: StaticAssets;
  /** Liveness and readiness (health.ts), answered before anything else; also says when it drains. */
  health?: Health;
  /** One line per request (log.ts); without it, none. */
  log?: Logger;
  /** Prometheus metrics (metrics.ts): every request counted, /metrics answered. */
  metrics?: Metrics;
};

export function createEdgeHandler(
  next: (req: IncomingMessage, res: ServerResponse) => unknown,
  {
    trustProxy = 0,
    appUrl,
    clientMaxActive,
    clientMaxQueued,
    pageCache,
    staticAssets,
    health,
    log,
    metrics,
  }: EdgeOptions = {},
): Handler & { gate: ClientGate; memory: EdgeMemory } {
  const gateLimit =
    (clientMaxActive ?? DEFAULT_CLIENT_MAX_ACTIVE) + (clientMaxQueued ?? DEFAULT_CLIENT_MAX_QUEUED);
  const handle = pageCache ? pageCache.wrap(next) : next;
  const hsts = hstsHeader(appUrl);
  const gate = new ClientGate({ maxActive: clientMaxActive, maxQueued: clientMaxQueued });
  const memory: EdgeMemory = { refusals: new RefusalMemory(), anonymous: new AnonymousAnswers() };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const forwarded = req.headers[CLIENT_ADDRESS_HEADER];
    const client = clientAddress(
      req.socket.remoteAddress,
      trustProxy > 0 ? (Array.isArray(forwarded) ? forwarded.join(",") : forwarded) : undefined,
      trustProxy,
    );
    req.headers[CLIENT_ADDRESS_HEADER] = client;
    pinForwardedHeaders(req.headers, { trustProxy, appUrl });
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
    // The log line, the metrics and the gate each wait for the answer's end, besides Next.js.
    res.setMaxListeners(32);
    const id = requestId(req, res, trustProxy);
    if (log) logRequest(log, req, res, id);
    metrics?.observe(req, res);
    // Shutting down: this connection is not kept for another request.
    if (health?.draining) res.setHeader("Connection", "close");
    // Every decision below, and Next.js's routing, on one form of the path.
    const target = canonicalTarget(req.url);
    if (target.refuse) {
      metrics?.refused("invalid_path");
      const body = answer(
        res,
        400,
        "invalid_path",
        target.refuse === "not_a_path"
          ? "The request target must be a path such as /pricing."
          : "The request path must not contain dot segments (. or ..) or backslashes.",
        { connection: "close" },
      );
      res.end(body, () => req.socket.destroySoon?.());
      return;
    }
    if (target.url !== req.url) req.url = target.url;
    if (health?.answer(req, res)) return;
    if (metrics?.answer(req, res)) return;
    const refusal = refuseRequest(req.headers, req.url);
    if (refusal) {
      metrics?.refused(refusal.code as RefusalReason);
      // Closing the connection: an unread body (say 100 MB) is then never received and discarded.
      const body = answer(res, refusal.status, refusal.code, refusal.message, { connection: "close" });
      res.end(body, () => req.socket.destroySoon?.());
      return;
    }
    if (bypassesGate(req.url)) {
      if (staticAssets) staticAssets.serve(req, res, () => handle(req, res));
      else handle(req, res);
      return;
    }
    const refused = memory.refusals.refusal(client, req);
    if (refused?.answer) {
      metrics?.refused("repeated_refusal");
      unlogged(res);
      answerEarly(req, res, 429, withSecurityHeaders(refused.answer.headers), refused.answer.body);
      return;
    }
    const stored = isAnonymousRead(req) ? memory.anonymous.get(anonymousKey(req)) : undefined;
    if (stored) {
      answerEarly(req, res, stored.status, withSecurityHeaders(stored.headers), stored.body);
      return;
    }
    watchAnswer(req, res, client, memory);
    const cancel = gate.admit(client, (release) => {
      res.once("close", release);
      handle(req, res);
    });
    if (!cancel) {
      metrics?.refused("client_queue_full");
      // The client's own queue is full: it alone waits, by its own Retry-After.
      res.end(
        answer(res, 429, "too_many_requests", "Too many requests from this client at once.", {
          "retry-after": "1",
          ...rateLimitHeaders(1, { limit: gateLimit, policy: `${gateLimit};w=1` }),
        }),
      );
      return;
    }
    // Still queued when the client goes away: never run it.
    res.once("close", cancel);
  };
  return Object.assign(handler, { gate, memory });
}

/** How long a client may take to send a request's headers (a slow mobile link needs seconds, not a minute). */
export const HEADERS_TIMEOUT_MS = 15_000;
/** How long a whole request (headers and body: a replay envelope on a slow uplink) may take. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How long an idle keep-alive connection is kept between requests (browsers reuse within seconds). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** How often Node checks those timeouts (its default, 30 s, let a half-sent request live 90 s). */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * The HTTP server of main.ts around `handler` (createEdgeHandler's), with the limits that hold
 * before a request exists: open connections per client and in total (ConnectionLimits: a client
 * holding thousands of half-sent requests must neither starve other clients nor take the file
 * descriptors the database pool needs), and timeouts for headers, whole requests and idle
 * keep-alive connections. Timeouts may be shortened for tests.
 */
export function createEdgeServer(
  handler: Handler,
  {
    trustProxy = 0,
    clientMaxConnections = DEFAULT_CLIENT_MAX_CONNECTIONS,
    serverMaxConnections,
    headersTimeoutMs = HEADERS_TIMEOUT_MS,
    requestTimeoutMs = REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs = KEEP_ALIVE_TIMEOUT_MS,
    timeoutCheckMs = TIMEOUT_CHECK_MS,
  }: {
    trustProxy?: number;
    clientMaxConnections?: number;
    serverMaxConnections?: number;
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    keepAliveTimeoutMs?: number;
    timeoutCheckMs?: number;
  } = {},
): Server & { connections: ConnectionLimits } {
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(requestTimeoutMs, headersTimeoutMs),
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: timeoutCheckMs,
    },
    handler,
  );
  const connections = new ConnectionLimits({
    maxPerClient: clientMaxConnections,
    maxTotal: serverMaxConnections,
    // Behind proxies the socket address is a proxy's, not the client's (see ConnectionLimits).
    perClient: trustProxy === 0,
  }).attach(server);
  // Node answers a malformed or timed-out request itself with a bare status line; with the same
  // security headers as every other answer here.
  server.on(
    "clientError",
    (error: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: ServerResponse }) => {
      // As Node does: no answer once an answer to this connection's request has begun.
      if (!socket.writable || error.code === "ECONNRESET" || socket._httpMessage?.headersSent) {
        socket.destroy();
        return;
      }
      const [status, reason] =
        error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout"]
          : error.code === "HPE_HEADER_OVERFLOW"
            ? [431, "Request Header Fields Too Large"]
            : [400, "Bad Request"];
      const headers = Object.entries(SECURITY_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      // Written at once (a few hundred bytes fit in the socket buffer), then closed: a client that
      // never closes its side must not keep the descriptor.
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      socket.destroy();
    },
  );
  return Object.assign(server, { connections });
}
