/**
 * What server.mjs does with every request before Next.js sees it, as a plain Node request handler
 * around Next.js's own (`handle`), so it can be run on a real HTTP server in tests:
 * - the client's address pinned into X-Forwarded-For (socket, or TRUST_PROXY proxies back);
 * - X-Forwarded-Host/Proto pinned, HSTS for an https APP_URL;
 * - refusals decided from the headers alone (a body over its route's cap, malformed Origin,
 *   cross-origin server action), answered at once with the connection closed, before any body is read;
 * - answers the app has already given and marked as repeatable (edge-memory.mjs): a 429 keyed on the
 *   client alone, while it holds, and the answer to a credential-less GET such as "nobody is signed
 *   in"; the private marker headers are stripped from every response;
 * - whole-page answers from the page cache (page-cache.mjs: /pricing per FX version);
 * - build scripts and style sheets in Brotli from memory (static-assets.mjs);
 * - a per-client gate (ClientGate): one client's flood cannot fill the event loop; `/api/health`
 *   and build assets bypass it.
 */
import { createServer } from "node:http";
import {
  EDGE_ANONYMOUS_HEADER,
  EDGE_REFUSAL_HEADER,
  EDGE_REFUSAL_VERBATIM_HEADER,
} from "../src/core/http/edge-contract.mjs";
import { clientAddress } from "./client-address.mjs";
import { AnonymousAnswers, isAnonymousRead, RefusalMemory, refusalKey } from "./edge-memory.mjs";
import {
  bypassesGate,
  ClientGate,
  ConnectionLimits,
  canonicalTarget,
  connectionRoom,
  DEFAULT_CLIENT_MAX_ACTIVE,
  DEFAULT_CLIENT_MAX_CONNECTIONS,
  DEFAULT_CLIENT_MAX_QUEUED,
  DEFAULT_SERVER_MAX_CONNECTIONS,
  edgeSecurityHeaders,
  hstsHeader,
  openFileLimit,
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
 * `{ config }` or `{ errors }` (one line per bad variable). `openFiles`: the process's open-file
 * limit (RLIMIT_NOFILE, read from /proc; a process cannot raise its own hard limit), which the
 * connection cap must leave room in for the database pool.
 */
export function readServerConfig(env, { openFiles = openFileLimit() } = {}) {
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
  const clientMaxConnections = intIn(
    "CLIENT_MAX_CONNECTIONS",
    env.CLIENT_MAX_CONNECTIONS,
    DEFAULT_CLIENT_MAX_CONNECTIONS,
    1,
    100_000,
    "a number of connections",
    errors,
  );
  // The database pool's sockets count against the same open-file limit as the connections.
  const poolSize = intIn("DATABASE_POOL_SIZE", env.DATABASE_POOL_SIZE, 10, 1, 100, "a pool size", errors);
  const room = connectionRoom(openFiles, poolSize + 1);
  const serverMaxConnections = intIn(
    "SERVER_MAX_CONNECTIONS",
    env.SERVER_MAX_CONNECTIONS,
    Math.max(16, Math.min(DEFAULT_SERVER_MAX_CONNECTIONS, room ?? DEFAULT_SERVER_MAX_CONNECTIONS)),
    1,
    1_000_000,
    "a number of connections",
    errors,
  );
  if (room !== undefined && env.SERVER_MAX_CONNECTIONS && serverMaxConnections > room) {
    errors.push(
      `  - SERVER_MAX_CONNECTIONS: ${serverMaxConnections} does not fit in this process's open-file limit ` +
        `(ulimit -n: ${openFiles}) less ${openFiles - room} kept for the database pool and files: ` +
        `at most ${room}, or raise the limit`,
    );
  }
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
      clientMaxConnections,
      serverMaxConnections,
    },
  };
}

/** The security headers every response carries, for the answers the edge writes itself. */
const SECURITY_HEADERS = edgeSecurityHeaders(false);

function answer(res, status, code, message, headers = {}) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": "application/json",
    "cache-control": "no-store",
    ...headers,
  });
  return JSON.stringify({ error: { code, message } });
}

/** An answer the app gave, repeated by the edge: the security headers under the app's own. */
const withSecurityHeaders = (headers) => ({ ...SECURITY_HEADERS, ...headers });

/**
 * RateLimit-* headers (as a keyed API call's 429 carries them) for a refusal with `retryAfter`
 * seconds to go: `limit` and `policy` are the app's (RateLimit-Limit / -Policy) when it said them.
 */
function rateLimitHeaders(retryAfter, { limit, policy } = {}) {
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
function answerEarly(req, res, status, headers, body) {
  const declared = Number(req.headers["content-length"] ?? 0);
  const close = declared > DRAIN_BYTES || req.headers["transfer-encoding"] !== undefined;
  res.writeHead(status, close ? { ...headers, connection: "close" } : headers);
  res.end(body, close ? () => req.socket.destroySoon?.() : undefined);
}

const headerValue = (value) => (Array.isArray(value) ? value[0] : value);

/** Removes `name` from headers passed to writeHead (an object, or a flat [name, value, …] array). */
function stripFromArgument(headers, name) {
  if (Array.isArray(headers)) {
    for (let i = headers.length - 2; i >= 0; i -= 2) {
      if (String(headers[i]).toLowerCase() === name) headers.splice(i, 2);
    }
    return;
  }
  if (headers && typeof headers === "object") {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  }
}

/**
 * What an anonymous answer is kept under: the Host and the URL as the request arrived. An answer may
 * name the host it was asked on (the monitoring config's tunnel, without APP_URL), so a request made
 * with another Host header must never be given it.
 */
function anonymousKey(req) {
  return `${req.headers.host ?? ""} ${req.url ?? "/"}`;
}

/** The largest 429 body the edge keeps to repeat as the app wrote it (an API error is ~300 bytes). */
const MAX_VERBATIM_BYTES = 4096;

/**
 * Watches the app's answer to `req`: strips the private marker headers, and records a marked 429
 * in `refusals` and a marked anonymous answer in `anonymous`.
 */
function watchAnswer(req, res, client, { refusals, anonymous }) {
  const url = req.url ?? "/";
  const key = anonymousKey(req);
  // As the request arrived (Next.js may rewrite req.url); the key is only computed for a marked 429.
  const arrived = {
    method: req.method,
    url,
    headers: { authorization: req.headers.authorization, cookie: req.headers.cookie },
  };
  const anonymousRead = isAnonymousRead(req);
  const writeHead = res.writeHead;
  res.writeHead = function (statusCode, ...rest) {
    res.writeHead = writeHead;
    const last = rest[rest.length - 1];
    const argHeaders = typeof last === "object" ? last : undefined;
    const fromArg = (name) => {
      if (Array.isArray(argHeaders)) {
        for (let i = 0; i < argHeaders.length; i += 2) {
          if (String(argHeaders[i]).toLowerCase() === name) return argHeaders[i + 1];
        }
        return undefined;
      }
      if (!argHeaders) return undefined;
      const found = Object.keys(argHeaders).find((k) => k.toLowerCase() === name);
      return found === undefined ? undefined : argHeaders[found];
    };
    const refusal = headerValue(res.getHeader(EDGE_REFUSAL_HEADER) ?? fromArg(EDGE_REFUSAL_HEADER));
    const verbatim = headerValue(
      res.getHeader(EDGE_REFUSAL_VERBATIM_HEADER) ?? fromArg(EDGE_REFUSAL_VERBATIM_HEADER),
    );
    const marked = headerValue(res.getHeader(EDGE_ANONYMOUS_HEADER) ?? fromArg(EDGE_ANONYMOUS_HEADER));
    for (const name of [EDGE_REFUSAL_HEADER, EDGE_REFUSAL_VERBATIM_HEADER, EDGE_ANONYMOUS_HEADER]) {
      res.removeHeader(name);
      stripFromArgument(argHeaders, name);
    }
    const answerHeaders = () => {
      const headers = { ...res.getHeaders() };
      if (argHeaders && !Array.isArray(argHeaders)) {
        for (const [name, value] of Object.entries(argHeaders)) headers[name.toLowerCase()] = value;
      }
      return headers;
    };
    if (refusal !== undefined && statusCode === 429) {
      const header = (name) => headerValue(res.getHeader(name) ?? fromArg(name));
      const retryAfter = Number(header("retry-after"));
      const refusedKey = refusalKey(arrived);
      const headers = verbatim === "1" ? answerHeaders() : undefined;
      if (!headers) {
        refusals.remember(client, refusedKey, Number(refusal), retryAfter, undefined, {
          limit: header("ratelimit-limit"),
          policy: header("ratelimit-policy"),
        });
      } else if (headers["content-encoding"] === undefined) {
        // Kept once the app's body is written; until then the app answers this client itself. (An
        // encoded body fits only clients that accept that encoding: such an answer is not kept.)
        captureBody(res, MAX_VERBATIM_BYTES, (body) =>
          refusals.remember(client, refusedKey, Number(refusal), retryAfter, { headers, body }),
        );
      }
    }
    if (marked === "1" && anonymousRead && statusCode === 200) {
      const headers = answerHeaders();
      captureBody(res, anonymous.maxBytes, (body) => anonymous.set(key, statusCode, headers, body));
    }
    return writeHead.call(this, statusCode, ...rest);
  };
}

/** Collects what is written to `res` (up to `max` bytes), then calls `done(body)` once it ended. */
function captureBody(res, max, done) {
  const chunks = [];
  let size = 0;
  const keep = (chunk, encoding) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > max) return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8")
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += buffer.length;
    if (size <= max) chunks.push(Buffer.from(buffer));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (chunk, encoding, ...rest) {
    keep(chunk, encoding);
    return write.call(this, chunk, encoding, ...rest);
  };
  res.end = function (chunk, encoding, ...rest) {
    keep(chunk, encoding);
    res.write = write;
    res.end = end;
    if (size <= max) res.once("finish", () => done(Buffer.concat(chunks)));
    return end.call(this, chunk, encoding, ...rest);
  };
}

/**
 * The request handler: `next(req, res)` is Next.js's (or, in tests, any handler); `pageCache`
 * (scripts/page-cache.mjs) answers the pages it holds without Next.js, `staticAssets`
 * (scripts/static-assets.mjs) the build assets it has in Brotli.
 */
export function createEdgeHandler(
  next,
  { trustProxy = 0, appUrl, clientMaxActive, clientMaxQueued, pageCache, staticAssets } = {},
) {
  const gateLimit =
    (clientMaxActive ?? DEFAULT_CLIENT_MAX_ACTIVE) + (clientMaxQueued ?? DEFAULT_CLIENT_MAX_QUEUED);
  const handle = pageCache ? pageCache.wrap(next) : next;
  const hsts = hstsHeader(appUrl);
  const gate = new ClientGate({ maxActive: clientMaxActive, maxQueued: clientMaxQueued });
  const memory = { refusals: new RefusalMemory(), anonymous: new AnonymousAnswers() };
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
    // Every decision below, and Next.js's routing, on one form of the path.
    const target = canonicalTarget(req.url);
    if (target.refuse) {
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
    const refusal = refuseRequest(req.headers, req.url);
    if (refusal) {
      // Closing the connection: an unread body (say 100 MB) is then never received and discarded.
      const body = answer(res, refusal.status, refusal.code, refusal.message, { connection: "close" });
      res.end(body, () => req.socket.destroySoon?.());
      return;
    }
    if (bypassesGate(req.url)) {
      if (staticAssets?.answer(req, res)) return;
      handle(req, res);
      return;
    }
    const refused = memory.refusals.refusal(client, req);
    if (refused?.answer) {
      answerEarly(req, res, 429, withSecurityHeaders(refused.answer.headers), refused.answer.body);
      return;
    }
    if (refused) {
      const { retryAfter } = refused;
      const body = JSON.stringify({
        error: { code: "rate_limited", message: `Too many requests. Try again in ${retryAfter} s.` },
      });
      answerEarly(
        req,
        res,
        429,
        {
          ...SECURITY_HEADERS,
          "content-type": "application/json",
          "cache-control": "no-store",
          "retry-after": String(retryAfter),
          ...rateLimitHeaders(retryAfter, refused.rateLimit),
        },
        body,
      );
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
  handler.gate = gate;
  handler.memory = memory;
  return handler;
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
 * The HTTP server of server.mjs around `handler` (createEdgeHandler's), with the limits that hold
 * before a request exists: open connections per client and in total (ConnectionLimits: a client
 * holding thousands of half-sent requests must neither starve other clients nor take the file
 * descriptors the database pool needs), and timeouts for headers, whole requests and idle
 * keep-alive connections. Timeouts may be shortened for tests.
 */
export function createEdgeServer(
  handler,
  {
    trustProxy = 0,
    clientMaxConnections = DEFAULT_CLIENT_MAX_CONNECTIONS,
    serverMaxConnections,
    headersTimeoutMs = HEADERS_TIMEOUT_MS,
    requestTimeoutMs = REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs = KEEP_ALIVE_TIMEOUT_MS,
    timeoutCheckMs = TIMEOUT_CHECK_MS,
  } = {},
) {
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
  server.on("clientError", (error, socket) => {
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
    socket.write(`HTTP/1.1 ${status} ${reason}\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    socket.destroy();
  });
  server.connections = connections;
  return server;
}
