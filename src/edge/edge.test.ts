import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

// The server (main.ts)'s request handler on a real HTTP server, with a stand-in for Next.js (one
// client's flood must not hold up another client).
import { BODY_CAPS } from "@/core/http/edge-contract";
import { readServerConfig } from "./config";
import { createEdgeHandler } from "./edge";
import { createLogger } from "./log";
import { createMetrics, routePattern } from "./metrics";

type Answer = { status: number; body: string };

function get(port: number, path: string, from: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, localAddress: from, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/**
 * A stand-in for Next.js: `/slow` requests are held until the test lets them go (a flood that keeps
 * the server busy), everything else is answered at once.
 */
async function start(options: { clientMaxActive: number; clientMaxQueued: number }) {
  const held: ServerResponse[] = [];
  const started: string[] = [];
  const next = (req: { url?: string; headers: Record<string, unknown> }, res: ServerResponse) => {
    started.push(`${req.headers["x-forwarded-for"]} ${req.url}`);
    if (req.url === "/slow") held.push(res);
    else res.end(`hello ${req.headers["x-forwarded-for"]}`);
  };
  server = createServer(createEdgeHandler(next, options));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, held, started };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("the per-client gate on a real server", () => {
  it("keeps one client's flood to its own slots and queue while another client is answered", async () => {
    const { port, held, started } = await start({ clientMaxActive: 2, clientMaxQueued: 3 });
    const flooder = new Agent({ keepAlive: true, maxSockets: 10 });
    // Client 127.0.0.1 opens 10 connections of requests that do not finish.
    const flood = Array.from({ length: 10 }, () => get(port, "/slow", "127.0.0.1", flooder));
    await until(() => held.length === 2);

    // Only 2 reached the app (3 wait, 5 were refused: checked below). Another client (another address) is answered while the flood holds its slots...
    expect(await get(port, "/api/v1/rates", "127.0.0.2")).toEqual({ status: 200, body: "hello 127.0.0.2" });
    // ...and the health check is answered even for the flooding client.
    expect((await get(port, "/api/health", "127.0.0.1")).status).toBe(200);
    expect(held.length).toBe(2);

    // Releasing the held requests lets the queued ones run, and all of them finish.
    const slowStarted = () => started.filter((s) => s.endsWith("/slow")).length;
    while (slowStarted() < 5 || held.length > 0) {
      for (const res of held.splice(0)) res.end("done");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = await Promise.all(flood);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const tooMany = answers.filter((a) => a.status === 429);
    expect(tooMany).toHaveLength(5);
    expect(JSON.parse(tooMany[0]?.body ?? "{}")).toEqual({
      error: { code: "too_many_requests", message: "Too many requests from this client at once." },
    });
    expect(started.filter((s) => s.endsWith("/slow"))).toHaveLength(5);
    flooder.destroy();
  });

  it("never runs a queued request whose client has gone", async () => {
    const { port, held, started } = await start({ clientMaxActive: 1, clientMaxQueued: 5 });
    const first = get(port, "/slow", "127.0.0.1");
    await until(() => held.length === 1);
    const gone = request({ host: "127.0.0.1", port, path: "/gone", localAddress: "127.0.0.1" });
    gone.on("error", () => {});
    gone.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    held[0]?.end("done");
    expect((await first).status).toBe(200);
    expect(await get(port, "/after", "127.0.0.1")).toEqual({ status: 200, body: "hello 127.0.0.1" });
    expect(started).toEqual(["127.0.0.1 /slow", "127.0.0.1 /after"]);
  });

  it("refuses an oversized body from its headers, before the app or the gate", async () => {
    const { port, started } = await start({ clientMaxActive: 1, clientMaxQueued: 0 });
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/v1/calculate",
          method: "POST",
          headers: { "content-length": 50_000_000 },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write("x");
    });
    expect(answer.status).toBe(413);
    expect(started).toEqual([]);
  });
});

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

/**
 * A stand-in for Next.js that answers like the app: `/limited` is refused 429 with
 * `Cache-Control: private, max-age=5` (a refusal keyed on the client alone), `/unmarked` 429
 * without it, `/api/me` "null" with a shared-cache lifetime when the request carries no credentials.
 */
async function startApp() {
  const started: string[] = [];
  const next = (req: IncomingMessage, res: ServerResponse) => {
    started.push(`${req.headers["x-forwarded-for"]} ${req.method} ${req.url}`);
    if (req.url?.startsWith("/limited")) {
      res.setHeader("content-type", "application/json");
      res.setHeader("retry-after", "42");
      res.setHeader("cache-control", "private, max-age=5");
      res.statusCode = 429;
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "app" } }));
    } else if (req.url === "/keyed") {
      // As an API key's quota refusal: the app's own body and RateLimit headers, to repeat as they are.
      res.writeHead(429, {
        "content-type": "application/json",
        "retry-after": "3600",
        "ratelimit-limit": "1000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "3600",
        "cache-control": "private, max-age=5",
      });
      res.end(JSON.stringify({ error: { code: "quota_exceeded", message: "All 1,000 calls used." } }));
    } else if (req.url === "/unmarked") {
      res.writeHead(429, { "retry-after": "42" });
      res.end("no");
    } else if (req.url === "/api/me") {
      const anonymous = !req.headers.cookie && !req.headers.authorization;
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": anonymous ? "public, max-age=0, s-maxage=60" : "private, no-store",
        "x-content-type-options": "nosniff",
      });
      res.write(anonymous ? "nu" : '{"user"');
      res.end(anonymous ? "ll" : ":1}");
    } else res.end("ok");
  };
  server = createServer(createEdgeHandler(next, { clientMaxActive: 4, clientMaxQueued: 4 }));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, started };
}

describe("answers the edge gives without the app", () => {
  it("refuses a body over its route's cap (not only over the global one) in the API's error shape", async () => {
    const { port, started } = await startApp();
    for (const [path, cap] of [
      ["/api/v1/calculate", BODY_CAPS.calculate],
      ["/api/auth/update-user", BODY_CAPS.auth],
      ["/api/views", BODY_CAPS.pageView],
    ] as const) {
      const answer = await send(port, path, {
        method: "POST",
        headers: { "content-length": cap + 1, "content-type": "application/json" },
        body: "x".repeat(cap + 1),
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: "payload_too_large", message: `The request body must be at most ${cap} bytes.` },
      });
    }
    expect(started).toEqual([]);
    // At the cap, the request reaches the app (which still counts the bytes it reads).
    const atCap = await send(port, "/api/views", {
      method: "POST",
      headers: { "content-length": BODY_CAPS.pageView },
      body: "x".repeat(BODY_CAPS.pageView),
    });
    expect(atCap.status).toBe(200);
    expect(started).toEqual(["127.0.0.1 POST /api/views"]);
  });

  it("repeats a private 429 as the app wrote it: body, RateLimit headers, Retry-After counted down", async () => {
    const { port, started } = await startApp();
    const key = { authorization: "Bearer abk_one" };
    const first = await send(port, "/keyed", { method: "POST", headers: key, body: "{}" });
    expect(first.status).toBe(429);
    expect(first.headers.age).toBeUndefined();
    const again = await send(port, "/keyed", { method: "POST", headers: key, body: "{}" });
    expect(started).toHaveLength(1);
    expect(again.status).toBe(429);
    expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
    expect(again.headers["ratelimit-limit"]).toBe("1000");
    expect(again.headers["ratelimit-remaining"]).toBe("0");
    expect(again.headers["content-type"]).toBe("application/json");
    for (const name of ["retry-after", "ratelimit-reset"]) {
      expect(Number(again.headers[name])).toBeGreaterThan(3590);
      expect(Number(again.headers[name])).toBeLessThanOrEqual(3600);
    }
    // Repeated by a cache: it says how old the answer is.
    expect(again.headers.age).toBe("0");
    // Another key is the app's to judge.
    await send(port, "/keyed", { method: "POST", headers: { authorization: "Bearer abk_two" }, body: "{}" });
    expect(started).toHaveLength(2);
  });

  it("repeats a marked 429 for the same client, method, path and credentials until it lapses", async () => {
    const { port, started } = await startApp();
    const first = await send(port, "/limited?a=1", { method: "POST", body: "{}" });
    expect(first.status).toBe(429);
    expect(started).toHaveLength(1);

    // Same client and request (any query): answered by the edge, with the app's Retry-After.
    const again = await send(port, "/limited?b=2", { method: "POST", body: "{}" });
    expect(again.status).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(40);
    expect(JSON.parse(again.body)).toMatchObject({ error: { code: "rate_limited" } });
    expect(started).toHaveLength(1);

    // Another client, another path, another method, or other credentials: the app decides.
    await send(port, "/limited", { method: "POST", from: "127.0.0.2" });
    await send(port, "/other", { method: "POST" });
    await send(port, "/limited", { method: "GET" });
    await send(port, "/limited", { method: "POST", headers: { authorization: "Bearer k" } });
    await send(port, "/limited", { method: "POST", headers: { cookie: "s=1" } });
    expect(started.slice(1)).toEqual([
      "127.0.0.2 POST /limited",
      "127.0.0.1 POST /other",
      "127.0.0.1 GET /limited",
      "127.0.0.1 POST /limited",
      "127.0.0.1 POST /limited",
    ]);

    // The app's hold (5 s here) ends it: then the app is asked again.
    const handler = server?.listeners("request")[0] as ReturnType<typeof createEdgeHandler>;
    for (const keys of handler.memory.refusals.clients.values()) {
      for (const known of keys.values()) (known as { until: number }).until = performance.now() - 1;
    }
    await send(port, "/limited", { method: "POST" });
    expect(started).toHaveLength(7);
  });

  it("does not repeat a 429 the app did not mark", async () => {
    const { port, started } = await startApp();
    expect((await send(port, "/unmarked")).status).toBe(429);
    expect((await send(port, "/unmarked")).status).toBe(429);
    expect(started).toHaveLength(2);
  });

  it("gives the app's marked anonymous answer to credential-less reads, and only to them", async () => {
    const { port, started } = await startApp();
    const first = await send(port, "/api/me");
    expect(first).toMatchObject({ status: 200, body: "null" });
    expect(first.headers.age).toBeUndefined();
    const again = await send(port, "/api/me");
    expect(again).toMatchObject({ status: 200, body: "null" });
    expect(again.headers).toMatchObject({
      "content-type": "application/json",
      "cache-control": "public, max-age=0, s-maxage=60",
      "x-content-type-options": "nosniff",
      age: "0",
    });
    expect(started).toEqual(["127.0.0.1 GET /api/me"]);

    // A cookie or an Authorization header, or another URL, goes to the app.
    expect((await send(port, "/api/me", { headers: { cookie: "s=1" } })).body).toBe('{"user":1}');
    expect((await send(port, "/api/me", { headers: { authorization: "Bearer k" } })).body).toBe('{"user":1}');
    await send(port, "/api/me?x=1");
    expect(started).toHaveLength(4);
    // An answer kept for one Host is not given to a request made with another (an answer may name its
    // host: the monitoring config's tunnel), nor does that request's answer replace it.
    await send(port, "/api/me", { headers: { host: "evil.example" } });
    expect(started).toHaveLength(5);
    await send(port, "/api/me");
    expect(started).toHaveLength(5);
  });
});

describe("readServerConfig", () => {
  it("reads the gate's limits, with defaults", () => {
    expect(readServerConfig({}).config).toMatchObject({
      port: 3000,
      trustProxy: 0,
      clientMaxActive: 4,
      clientMaxQueued: 64,
    });
    expect(readServerConfig({ CLIENT_MAX_ACTIVE: "16", CLIENT_MAX_QUEUED: "0" }).config).toMatchObject({
      clientMaxActive: 16,
      clientMaxQueued: 0,
    });
  });

  it("names every bad variable", () => {
    expect(
      readServerConfig({ PORT: "x", CLIENT_MAX_ACTIVE: "0", TRUST_PROXY: "11", APP_URL: "nope" }).errors,
    ).toEqual([
      "  - PORT: must be a port number",
      "  - APP_URL: must be an absolute URL such as https://abacus.example.com",
      "  - TRUST_PROXY: must be the number of reverse proxies in front of the app (0 for none)",
      "  - CLIENT_MAX_ACTIVE: Too small: expected number to be >=1",
    ]);
  });
});

describe("headers the edge pins before the app", () => {
  async function startRecording(appUrl?: URL) {
    const seen: IncomingMessage["headers"][] = [];
    const next = (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ ...req.headers });
      res.end("ok");
    };
    server = createServer(createEdgeHandler(next, { appUrl, clientMaxActive: 4, clientMaxQueued: 4 }));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { port: (server.address() as AddressInfo).port, seen };
  }

  it("drops a client's X-Forwarded-Host/Proto and sends HSTS for an https APP_URL, refusals included", async () => {
    const { port, seen } = await startRecording(new URL("https://abacus.example.com"));
    const ok = await send(port, "/", {
      headers: { "x-forwarded-host": "evil.com", "x-forwarded-proto": "https", "x-forwarded-for": "6.6.6.6" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers["strict-transport-security"]).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(seen[0]?.["x-forwarded-host"]).toBeUndefined();
    expect(seen[0]?.["x-forwarded-proto"]).toBeUndefined();
    expect(seen[0]?.["x-forwarded-for"]).toBe("127.0.0.1");
    const refused = await send(port, "/", { method: "POST", headers: { origin: "http://[::1" } });
    expect(refused.status).toBe(400);
    expect(refused.headers["strict-transport-security"]).toBeDefined();
  });

  it("sends no HSTS without an https APP_URL", async () => {
    const { port } = await startRecording(new URL("http://localhost:3000"));
    expect((await send(port, "/")).headers["strict-transport-security"]).toBeUndefined();
  });

  it("answers 400 to an Origin that is not a URL and 403 to a cross-origin server action, before the app", async () => {
    const { port, seen } = await startRecording();
    const malformed = await send(port, "/dashboard", {
      method: "POST",
      headers: { origin: "http://localhost:3300.evil.com", "next-action": "abc" },
    });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: "invalid_origin" } });
    const forged = await send(port, "/dashboard", {
      method: "POST",
      headers: { origin: "https://evil.com", "x-forwarded-host": "evil.com", "next-action": "abc" },
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ error: { code: "cross_origin_action" } });
    expect(seen).toEqual([]);
    const sameOrigin = await send(port, "/dashboard", {
      method: "POST",
      headers: { origin: `http://127.0.0.1:${port}`, "next-action": "abc" },
    });
    expect(sameOrigin.status).toBe(200);
    expect(seen).toHaveLength(1);
  });
});

describe("the request log and metrics under a flood of refusals", () => {
  it("logs the app's refusal, counts the edge's repeats without a log line each", async () => {
    const lines: { path?: string; status?: number }[] = [];
    const destination = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const log = createLogger({ dev: false, destination });
    const metrics = createMetrics({ token: undefined, routes: [], sql: undefined });
    const next = (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(429, { "cache-control": "private, max-age=5", "content-type": "application/json" });
      res.end('{"error":{"code":"rate_limited","message":"app"}}');
    };
    server = createServer(createEdgeHandler(next, { log, metrics }));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    for (let i = 0; i < 5; i++) expect((await send(port, "/limited", { method: "POST" })).status).toBe(429);
    const requests = lines.filter((line) => line.path === "/limited");
    expect(requests).toEqual([expect.objectContaining({ status: 429 })]);
    const refusals = await metrics.registry.getSingleMetric("abacus_edge_refusals_total")?.get();
    expect(refusals?.values).toContainEqual(
      expect.objectContaining({ labels: { reason: "repeated_refusal" }, value: 4 }),
    );
  });

  it("names each request by its route pattern, also when the same path comes again", () => {
    const routes = [
      { page: "/docs/[slug]", regex: /^\/docs\/([^/]+?)(?:\/)?$/ },
      { page: "/pricing", regex: /^\/pricing(?:\/)?$/ },
    ];
    for (let round = 0; round < 2; round++) {
      expect(routePattern(routes, "/docs/api?x=1")).toBe("/docs/[slug]");
      expect(routePattern(routes, "/pricing")).toBe("/pricing");
      expect(routePattern(routes, "/nope")).toBe("(unmatched)");
    }
    // Thousands of distinct probe paths stay within the memo's bound and keep matching.
    for (let i = 0; i < 5_000; i++) expect(routePattern(routes, `/probe-${i}`)).toBe("(unmatched)");
    expect(routePattern(routes, "/docs/x")).toBe("/docs/[slug]");
  });
});
