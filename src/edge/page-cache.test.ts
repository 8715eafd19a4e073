import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";

// The whole-page cache the server puts in front of Next.js (issue 17: /pricing per FX version).
import { acceptedEncodings, cacheKey, createPageCache, versionMarker } from "./page-cache";

type Answer = { status: number; headers: Record<string, unknown>; body: Buffer };

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
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
 * A stand-in for Next.js rendering /pricing: the price comes from `state.rate`, and the page marks
 * the version it rendered at, like the real page (unless `state.marker` is off: rendered without
 * rates). It writes in several chunks, as Next.js streams.
 */
async function start(state: { version: number; rate: string; marker: boolean; cookie?: boolean }) {
  let renders = 0;
  const next = (req: IncomingMessage, res: ServerResponse) => {
    renders++;
    res.statusCode = 200;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("vary", "rsc");
    if (state.cookie) res.setHeader("set-cookie", "a=b");
    const currency = new URL(req.url ?? "/", "http://x").searchParams.get("currency") ?? "USD";
    res.write("<html><body>");
    res.write(`<div ${state.marker ? versionMarker(state.version) : ""}>${currency} ${state.rate}</div>`);
    res.end("</body></html>");
  };
  const cache = createPageCache({
    routes: [
      { path: "/pricing", params: ["currency"] },
      { path: "/", params: [], prerendered: true },
    ],
    readVersion: async () => state.version,
  });
  server = createServer(cache.wrap(next));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, renders: () => renders, cache };
}

describe("the page cache", () => {
  it("renders once per version and currency, and again as soon as the version changes", async () => {
    const state = { version: 3, rate: "1.10", marker: true };
    const { port, renders } = await start(state);
    const first = await get(port, "/pricing?currency=JPY");
    expect(first.body.toString()).toContain("JPY 1.10");
    expect((await get(port, "/pricing?currency=JPY")).body).toEqual(first.body);
    expect(renders()).toBe(1);
    expect((await get(port, "/pricing")).body.toString()).toContain("USD 1.10");
    expect(renders()).toBe(2);

    // The rates change (version bumped in the same transaction): the very next request renders.
    state.version = 4;
    state.rate = "1.20";
    expect((await get(port, "/pricing?currency=JPY")).body.toString()).toContain("JPY 1.20");
    expect((await get(port, "/pricing?currency=JPY")).body.toString()).toContain("JPY 1.20");
    expect(renders()).toBe(3);
  });

  it("keeps the headers and serves gzip and Brotli copies made once", async () => {
    const { port, renders, cache } = await start({ version: 1, rate: "2", marker: true });
    const plain = await get(port, "/pricing");
    const zipped = await get(port, "/pricing", { "accept-encoding": "gzip" });
    expect(renders()).toBe(1);
    expect(plain.headers["x-abacus-cache"]).toBeUndefined();
    expect(zipped.headers["x-abacus-cache"]).toBe("hit");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
    expect(zipped.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(zipped.headers.vary).toBe("rsc, Accept-Encoding");
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);

    // Brotli is made on zlib's thread pool; once there, a browser that accepts it gets it.
    await expect.poll(() => cache.entries.get("/pricing?currency=")?.br).toBeDefined();
    const browser = await get(port, "/pricing", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(browser.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(browser.body)).toEqual(plain.body);
    expect(Number(browser.headers["content-length"])).toBe(browser.body.length);
    const refused = await get(port, "/pricing", { "accept-encoding": "br;q=0, gzip" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const identity = await get(port, "/pricing", { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toEqual(plain.body);
    expect(renders()).toBe(1);
  });

  it("reads Accept-Encoding with its weights", () => {
    expect(acceptedEncodings("gzip, deflate, br, zstd")).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings("gzip;q=0, BR;q=0.5")).toEqual({ br: true, gzip: false });
    expect(acceptedEncodings("br;q=0,*;q=0.1")).toEqual({ br: false, gzip: true });
    expect(acceptedEncodings("*")).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings("identity")).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings(undefined)).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings("gzip;q=abc")).toEqual({ br: false, gzip: false });
  });

  it("does not keep an answer without the current version's mark, or with a cookie", async () => {
    const state = { version: 1, rate: "2", marker: false, cookie: false };
    const { port, renders } = await start(state);
    await get(port, "/pricing");
    await get(port, "/pricing");
    expect(renders()).toBe(2);
    state.marker = true;
    state.cookie = true;
    await get(port, "/pricing");
    await get(port, "/pricing");
    expect(renders()).toBe(4);
  });

  it("keeps a prerendered page without asking for a version", async () => {
    const state = { version: 1, rate: "2", marker: false };
    const { port, renders } = await start(state);
    await get(port, "/");
    state.version = 2;
    await get(port, "/");
    expect(renders()).toBe(1);
  });

  it("passes client-router, action and conditional requests and other queries to the app", () => {
    const routes = [{ path: "/pricing", params: ["currency"] }];
    const plain = { method: "GET", url: "/pricing?currency=EUR", headers: {} };
    expect(cacheKey(plain, routes)).toEqual({ key: "/pricing?currency=EUR", prerendered: false });
    expect(cacheKey({ ...plain, url: "/pricing" }, routes)?.key).toBe("/pricing?currency=");
    expect(cacheKey({ ...plain, headers: { rsc: "1" } }, routes)).toBeNull();
    expect(cacheKey({ ...plain, headers: { "next-action": "x" } }, routes)).toBeNull();
    expect(cacheKey({ ...plain, headers: { "if-none-match": '"x"' } }, routes)).toBeNull();
    expect(cacheKey({ ...plain, method: "POST" }, routes)).toBeNull();
    expect(cacheKey({ ...plain, url: "/pricing?_rsc=abc" }, routes)).toBeNull();
    expect(cacheKey({ ...plain, url: "/pricing?currency=EUR&currency=JPY" }, routes)).toBeNull();
    expect(cacheKey({ ...plain, url: `/pricing?currency=${"x".repeat(40)}` }, routes)).toBeNull();
    expect(cacheKey({ ...plain, url: "/docs" }, routes)).toBeNull();
  });

  it("holds a bounded number of pages", async () => {
    const { port, cache } = await start({ version: 1, rate: "2", marker: true });
    for (let i = 0; i < 70; i++) await get(port, `/pricing?currency=C${i}`);
    expect(cache.entries.size).toBe(64);
  });
});
