import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressStatic } from "../../scripts/build/precompress-static.mjs";
import { createEdgeHandler } from "./edge";
import { createStaticAssets } from "./static-assets";

// A build folder of our own, the real precompress step, and the real edge on a real HTTP server, with
// a stand-in for Next.js that says when it was asked.

const SCRIPT = `console.log(${JSON.stringify("abacus ".repeat(2000))});\n`;
const STYLE = `body{color:red}\n${".a{margin:0}\n".repeat(500)}`;
let dist: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), "abacus-static-"));
  mkdirSync(path.join(dist, "static/chunks"), { recursive: true });
  mkdirSync(path.join(dist, "static/media"), { recursive: true });
  writeFileSync(path.join(dist, "static/chunks/app.js"), SCRIPT);
  writeFileSync(path.join(dist, "static/chunks/app.css"), STYLE);
  writeFileSync(path.join(dist, "static/chunks/stale.js"), SCRIPT);
  writeFileSync(path.join(dist, "static/media/font.woff2"), "binary");
  writeFileSync(path.join(dist, "secret.js"), "outside static");
  const summary = await precompressStatic(dist);
  expect(summary).toMatchObject({ files: 3, made: 3 });
  // stale.js changed after its copy was made (a rebuild without the precompress step).
  const later = new Date(statSync(path.join(dist, "static/chunks/stale.js.br")).mtimeMs + 60_000);
  utimesSync(path.join(dist, "static/chunks/stale.js"), later, later);

  const staticAssets = createStaticAssets({ distDir: dist });
  const next = (req: { url?: string }, res: { end: (body: string) => void }) => res.end(`next ${req.url}`);
  server = createServer(createEdgeHandler(next, { staticAssets }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

function send(
  pathName: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathName, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const BR = { "accept-encoding": "gzip, deflate, br, zstd" };

describe("build assets in Brotli", () => {
  it("answers a script and a style sheet from the Brotli copy, with the build assets' headers", async () => {
    const script = await send("/_next/static/chunks/app.js", BR);
    expect(script.status).toBe(200);
    expect(script.headers["content-encoding"]).toBe("br");
    expect(script.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(brotliDecompressSync(script.body).toString()).toBe(SCRIPT);
    expect(script.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(Number(script.headers["content-length"])).toBe(script.body.length);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.headers.vary).toBe("Accept-Encoding");
    expect(script.headers["x-content-type-options"]).toBe("nosniff");
    expect(script.headers["content-security-policy"]).toContain("frame-ancestors 'none'");

    const style = await send("/_next/static/chunks/app.css?v=1", BR);
    expect(style.headers["content-type"]).toBe("text/css; charset=UTF-8");
    expect(brotliDecompressSync(style.body).toString()).toBe(STYLE);
  });

  it("leaves to Next.js what it has no Brotli copy for, or a client that does not take Brotli", async () => {
    for (const [pathName, headers] of [
      ["/_next/static/chunks/app.js", { "accept-encoding": "gzip" }],
      ["/_next/static/chunks/app.js", { "accept-encoding": "gzip, br;q=0" }],
      ["/_next/static/chunks/app.js", { ...BR, range: "bytes=0-10" }],
      ["/_next/static/chunks/stale.js", BR],
      ["/_next/static/media/font.woff2", BR],
      ["/_next/static/chunks/missing.js", BR],
      ["/_next/static/chunks/app.js.br", BR],
    ] as const) {
      const answer = await send(pathName, headers);
      expect(answer.body.toString(), `${pathName} ${JSON.stringify(headers)}`).toBe(`next ${pathName}`);
    }
    // A path with dot segments is refused by the edge before any lookup (edge-hostile.test.ts).
    for (const pathName of ["/_next/static/../secret.js", "/_next/static/chunks/../../secret.js"]) {
      expect((await send(pathName, BR)).status).toBe(400);
    }
    const post = await send("/_next/static/chunks/app.js", BR, "POST");
    expect(post.body.toString()).toBe("next /_next/static/chunks/app.js");
  });

  it("answers HEAD without a body and a matching If-None-Match with 304", async () => {
    const full = await send("/_next/static/chunks/app.js", BR);
    const head = await send("/_next/static/chunks/app.js", BR, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(full.headers["content-length"]);

    const etag = String(full.headers.etag);
    for (const match of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await send("/_next/static/chunks/app.js", { ...BR, "if-none-match": match });
      expect(again.status, match).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    expect((await send("/_next/static/chunks/app.js", { ...BR, "if-none-match": '"other"' })).status).toBe(
      200,
    );
  });

  it("makes each copy once per build", async () => {
    const again = await precompressStatic(dist);
    // Only stale.js (changed since) is made again.
    expect(again).toMatchObject({ files: 3, made: 1 });
  });
});
