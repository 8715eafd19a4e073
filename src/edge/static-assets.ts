/**
 * Build assets answered by the edge in Brotli: the `.br` copies scripts/build/precompress-static.mjs wrote
 * beside the build's scripts and style sheets (`npm run build`), read into memory once at start (the
 * set is fixed by the build: ~1.6 MB for ~85 files). A GET or HEAD for exactly one of those paths,
 * from a client that accepts `br`, is answered from memory with the headers Next.js gives build
 * assets (the security headers, immutable caching, `Vary: Accept-Encoding`); anything else (another
 * path, no Brotli, a Range request, a build without copies) passes to Next.js, which sends gzip.
 * The request path is looked up in the list made at start, never joined to a file name.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import path from "node:path";
import { securityHeaders } from "@/core/security-headers.mjs";
import { acceptedEncodings } from "./page-cache";

/** The build files scripts/build/precompress-static.mjs gives a Brotli copy. */
const PRECOMPRESSED = /\.(js|css)$/;

const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
};

function* filesUnder(dir: string): Generator<string> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // no build folder (yet): nothing to answer
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** If-None-Match (RFC 9110 §13.1.2: a list, weak comparison, or `*`) against our tag. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (typeof header !== "string") return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * Reads the Brotli copies under `<distDir>/static`. Returns `{ size, answer(req, res) }`: `answer`
 * returns true when it answered the request, false when Next.js should.
 */
export interface StaticAssets {
  size: number;
  answer(req: IncomingMessage, res: ServerResponse): boolean;
}

type Asset = {
  body: Buffer;
  etag: string;
  headers: OutgoingHttpHeaders & { "Cache-Control": string; ETag: string; Vary: string };
};

export function createStaticAssets({ distDir }: { distDir: string }): StaticAssets {
  const root = path.join(distDir, "static");
  const common = Object.fromEntries(securityHeaders(false).map(({ key, value }) => [key, value]));
  const assets = new Map<string, Asset>();
  for (const file of filesUnder(root)) {
    if (!PRECOMPRESSED.test(file)) continue;
    let body: Buffer;
    try {
      // A copy older than its file belongs to an earlier build: not used.
      if (statSync(`${file}.br`).mtimeMs < statSync(file).mtimeMs) continue;
      body = readFileSync(`${file}.br`);
    } catch {
      continue;
    }
    const url = `/_next/static/${path.relative(root, file).split(path.sep).join("/")}`;
    const etag = `"br-${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    assets.set(url, {
      body,
      etag,
      headers: {
        ...common,
        "Cache-Control": "public, max-age=31536000, immutable",
        "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "Content-Encoding": "br",
        Vary: "Accept-Encoding",
        ETag: etag,
      },
    });
  }

  return {
    size: assets.size,
    answer(req, res) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const url = req.url ?? "";
      const query = url.indexOf("?");
      const asset = assets.get(query === -1 ? url : url.slice(0, query));
      if (!asset || req.headers.range !== undefined) return false;
      if (!acceptedEncodings(req.headers["accept-encoding"]).br) return false;
      if (matchesEtag(req.headers["if-none-match"], asset.etag)) {
        const { ETag, Vary } = asset.headers;
        res.writeHead(304, { ...common, "Cache-Control": asset.headers["Cache-Control"], ETag, Vary });
        res.end();
        return true;
      }
      res.writeHead(200, { ...asset.headers, "Content-Length": asset.body.length });
      res.end(req.method === "HEAD" ? undefined : asset.body);
      return true;
    },
  };
}
