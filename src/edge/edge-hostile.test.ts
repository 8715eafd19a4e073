import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { request } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

// The server (main.ts)'s HTTP server (createEdgeServer) and request handler (createEdgeHandler) on a real port,
// with a stand-in for Next.js that records what reached it: the limits that hold before a request
// exists (connections, header timeout), the one form of the path every decision is taken on, and the
// headers of the answers the edge gives itself.
import { securityHeaders } from "@/core/security-headers.mjs";
import { readServerConfig } from "./config";
import { createEdgeHandler, createEdgeServer, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from "./edge";

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

type Options = Parameters<typeof createEdgeServer>[1] & {
  clientMaxActive?: number;
  clientMaxQueued?: number;
};

/** The stand-in app: `/slow` is held until released, `/limited` refused 429 keyed on the client. */
async function start(options: Options = {}) {
  const started: string[] = [];
  const held: ServerResponse[] = [];
  const next = (req: IncomingMessage, res: ServerResponse) => {
    started.push(`${req.method} ${req.url}`);
    if (req.url === "/slow") held.push(res);
    else if (req.url === "/limited") {
      res.writeHead(429, {
        "content-type": "application/json",
        "retry-after": "30",
        "ratelimit-limit": "60",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "30",
        "ratelimit-policy": "60;w=60",
        "cache-control": "private, max-age=5",
      });
      res.end(
        JSON.stringify({
          error: { code: "rate_limited", message: "Too many requests. Try again after Retry-After seconds." },
        }),
      );
    } else res.end(`ok ${req.url}`);
  };
  const handler = createEdgeHandler(next, {
    clientMaxActive: options.clientMaxActive ?? 4,
    clientMaxQueued: options.clientMaxQueued ?? 4,
    trustProxy: options.trustProxy,
  });
  server = createEdgeServer(handler, options);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, started, held, server: server as ReturnType<typeof createEdgeServer> };
}

type Sent = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

function send(
  port: number,
  path: string,
  options: { from?: string; method?: string; headers?: Record<string, string | number>; body?: string } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        localAddress: options.from ?? "127.0.0.1",
        headers: options.headers,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A connection from `from` that sends a partial request line and nothing more. */
function halfRequest(port: number, from: string) {
  const socket = connect({ host: "127.0.0.1", port, localAddress: from });
  sockets.add(socket);
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    received += chunk;
  });
  socket.on("error", () => {});
  const connected = new Promise<void>((resolve) =>
    socket.once("connect", () => {
      socket.write("GET /api/v1/rates HTTP/1.");
      resolve();
    }),
  );
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  return { socket, connected, closed, isOpen: () => !socket.destroyed };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

const expectSecurityHeaders = (headers: Sent["headers"]) => {
  for (const { key, value } of securityHeaders(false)) expect(headers[key.toLowerCase()]).toBe(value);
};

describe("connections, before any request exists", () => {
  it("holds at most CLIENT_MAX_CONNECTIONS of one client's half-sent requests; other clients still connect", async () => {
    const { port, server } = await start({ clientMaxConnections: 3 });
    const kept = Array.from({ length: 3 }, () => halfRequest(port, "127.0.0.1"));
    await Promise.all(kept.map((c) => c.connected));
    await until(() => server.connections.open.get("127.0.0.1") === 3);

    // The 4th connection of that client is closed by the server with no answer...
    const over = halfRequest(port, "127.0.0.1");
    expect(await over.closed).toBe("");
    expect(server.connections.refused).toBe(1);
    // ...while the first three are kept, and another client is served.
    expect(kept.every((c) => c.isOpen())).toBe(true);
    expect(await send(port, "/api/v1/rates", { from: "127.0.0.2" })).toMatchObject({ status: 200 });

    // A closed connection frees its place.
    kept[0]?.socket.destroy();
    await until(() => server.connections.open.get("127.0.0.1") === 2);
    expect(await send(port, "/api/v1/rates", { from: "127.0.0.1" })).toMatchObject({ status: 200 });
  });

  it("holds at most SERVER_MAX_CONNECTIONS in all, whoever opens them", async () => {
    const { port, server } = await start({ clientMaxConnections: 100, serverMaxConnections: 3 });
    const kept = ["127.0.0.1", "127.0.0.2", "127.0.0.3"].map((from) => halfRequest(port, from));
    await Promise.all(kept.map((c) => c.connected));
    await until(() => [...server.connections.open.values()].reduce((a, b) => a + b, 0) === 3);
    const over = halfRequest(port, "127.0.0.4");
    expect(await over.closed).toBe("");
    expect(kept.every((c) => c.isOpen())).toBe(true);
  });

  it("does not count connections per socket address behind a trusted proxy (they are all the proxy's)", async () => {
    const { port, server } = await start({ clientMaxConnections: 2, trustProxy: 1 });
    const kept = Array.from({ length: 4 }, () => halfRequest(port, "127.0.0.1"));
    await Promise.all(kept.map((c) => c.connected));
    expect(await send(port, "/x", { from: "127.0.0.1" })).toMatchObject({ status: 200 });
    expect(server.connections.refused).toBe(0);
    expect(kept.every((c) => c.isOpen())).toBe(true);
  });

  it("closes a connection whose headers do not arrive in time, with a 408 that carries the security headers", async () => {
    const { port, started } = await start({ headersTimeoutMs: 300, timeoutCheckMs: 50 });
    const slow = halfRequest(port, "127.0.0.1");
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    for (const { key, value } of securityHeaders(false)) {
      expect(answer).toContain(`${key.toLowerCase()}: ${value}\r\n`);
    }
    expect(started).toEqual([]);
  });

  it("uses header and keep-alive timeouts sized for browsers, checked every second", async () => {
    const { server } = await start();
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.requestTimeout).toBeLessThanOrEqual(60_000);
  });
});

describe("readServerConfig: connection caps", () => {
  it("fits the default total below the open-file limit less the pool and reserved files", () => {
    expect(readServerConfig({}, { openFiles: 20_000 }).config).toMatchObject({
      clientMaxConnections: 128,
      serverMaxConnections: 10_000,
    });
    expect(
      readServerConfig({ DATABASE_POOL_SIZE: "20" }, { openFiles: 4096 }).config?.serverMaxConnections,
    ).toBe(4096 - 21 - 512);
    expect(readServerConfig({}, { openFiles: undefined }).config?.serverMaxConnections).toBe(10_000);
  });

  it("refuses a total that leaves the database pool no file descriptors, and bad values", () => {
    expect(readServerConfig({ SERVER_MAX_CONNECTIONS: "20000" }, { openFiles: 20_000 }).errors).toEqual([
      expect.stringMatching(
        /^ {2}- SERVER_MAX_CONNECTIONS: 20000 does not fit .*ulimit -n: 20000.*at most 19477/,
      ),
    ]);
    expect(readServerConfig({ CLIENT_MAX_CONNECTIONS: "0" }, { openFiles: 20_000 }).errors).toEqual([
      "  - CLIENT_MAX_CONNECTIONS: Too small: expected number to be >=1",
    ]);
  });
});

describe("one form of the path for every decision", () => {
  const dotted = [
    "/_next/static/../../api/v1/rates",
    "/_next/static/%2e%2e/%2e%2e/api/v1/rates",
    "/_next/static/%2E%2e/.%2E/api/v1/rates",
    "/_next/static/chunks/../../../api/v1/rates?x=1",
    "/_next/static/..%5c..%5capi/v1/rates".replace(/%5c/g, "\\"),
    "/api/health/../v1/rates",
    "/api/v1/./rates",
  ];

  it("refuses dot segments and backslashes with 400 before the gate, the caches or the app", async () => {
    const { port, started } = await start();
    for (const path of dotted) {
      const answer = await send(port, path);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          code: "invalid_path",
          message: "The request path must not contain dot segments (. or ..) or backslashes.",
        },
      });
      expectSecurityHeaders(answer.headers);
    }
    const signIn = await send(port, "/_next/static/%2e%2e/%2e%2e/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"email":"a@b.c","password":"x"}',
    });
    expect(signIn.status).toBe(400);
    expect(started).toEqual([]);
  });

  it("counts a dot-segment form of an API path in the gate instead of letting it pass as a build asset", async () => {
    // One slot per client, none queued: a second request of the client while one is held is 429.
    const { port, held, started } = await start({ clientMaxActive: 1, clientMaxQueued: 0 });
    const slow = send(port, "/slow");
    await until(() => held.length === 1);
    for (const path of dotted) expect((await send(port, path)).status).not.toBe(200);
    // Percent-encoded letters are the same path (RFC 3986): routed, and gated, as /api/v1/rates.
    expect((await send(port, "/api/%761/%72ates")).status).toBe(429);
    held[0]?.end("done");
    await slow;
    expect(await send(port, "/api/%761/%72ates")).toMatchObject({ status: 200, body: "ok /api/v1/rates" });
    expect(started).toEqual(["GET /slow", "GET /api/v1/rates"]);
    // Build assets still pass the gate.
    const asset = send(port, "/slow");
    await until(() => held.length === 2);
    expect((await send(port, "/_next/static/chunks/app.js")).status).toBe(200);
    held[1]?.end("done");
    await asset;
  });
});

describe("the edge's own answers carry the security headers and, for 429, RateLimit-*", () => {
  it("413, 400 and 403", async () => {
    const { port } = await start();
    const tooBig = await send(port, "/api/views", {
      method: "POST",
      headers: { "content-length": 5000 },
      body: "x".repeat(5000),
    });
    expect(tooBig.status).toBe(413);
    expectSecurityHeaders(tooBig.headers);
    const badOrigin = await send(port, "/x", { headers: { origin: "http://[" } });
    expect(badOrigin.status).toBe(400);
    expectSecurityHeaders(badOrigin.headers);
    const action = await send(port, "/x", {
      method: "POST",
      headers: { origin: "https://evil.example", "next-action": "abc" },
      body: "[]",
    });
    expect(action.status).toBe(403);
    expectSecurityHeaders(action.headers);
  });

  it("the gate's 429", async () => {
    const { port, held } = await start({ clientMaxActive: 1, clientMaxQueued: 0 });
    const slow = send(port, "/slow");
    await until(() => held.length === 1);
    const refused = await send(port, "/x");
    expect(refused.status).toBe(429);
    expectSecurityHeaders(refused.headers);
    expect(refused.headers).toMatchObject({
      "retry-after": "1",
      "ratelimit-limit": "1",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "1",
      "ratelimit-policy": "1;w=1",
    });
    held[0]?.end("done");
    await slow;
  });

  it("a remembered anonymous 429, with the limit the app stated", async () => {
    const { port, started } = await start();
    expect((await send(port, "/limited")).status).toBe(429);
    const again = await send(port, "/limited");
    expect(started).toEqual(["GET /limited"]);
    expect(again.status).toBe(429);
    expectSecurityHeaders(again.headers);
    const reset = Number(again.headers["ratelimit-reset"]);
    expect(reset).toBe(Number(again.headers["retry-after"]));
    expect(reset).toBeGreaterThan(25);
    expect(again.headers).toMatchObject({
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-policy": "60;w=60",
    });
  });
});
