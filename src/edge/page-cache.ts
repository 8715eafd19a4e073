/**
 * A cache of whole HTML answers, in front of Next.js, for pages every visitor sees alike. Used by
 * main.ts (through edge.ts) for `/pricing`, which renders about 700 elements from the FX table
 * on every request: cached, it answers at the cost of a static file plus one primary-key read. The
 * public pages Next.js prerendered at build time are kept too (Next.js's own path to a prerendered
 * page costs about as much as our whole request, see the README's performance notes).
 *
 * Never stale past a rate change, also with several instances on one database: each request reads
 * the FX table's version (`fx_rates_version`, bumped by `ratesChanged(tx)` in the transaction that
 * changes rates) and an entry is used only when it was rendered at exactly that version. The page
 * says which version it rendered with (`data-fx-version="N"` in its HTML); an answer without the
 * current version (rendered during a change, or without rates because the database failed) is
 * passed on but not kept. Only plain page loads are cached: GET, no RSC / router / action headers,
 * no query but the listed parameters, status 200 and no Set-Cookie. Entries are bounded (LRU) and
 * kept per instance; each keeps an identity, a gzip and a Brotli body (compressed once, not per
 * request). Brotli is made off the event loop (zlib's thread pool) and served once it is ready: at
 * the highest quality for the prerendered pages (a fixed, short list), at a cheap quality for the
 * per-version pages, whose number a client can drive up.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliCompress, gzipSync, constants as zlib } from "node:zlib";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import type { Sql } from "postgres";
import { chooseEncoding } from "./encoding";

export type CachedRoute = { path: string; params: string[]; prerendered?: boolean };
type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
type Entry = {
  version: number | string;
  /** When it was stored (ms since the epoch), for the `Age` of answers given from it. */
  storedAt: number;
  /** A strong validator of the page (its uncompressed bytes), for If-None-Match. */
  etag: string;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  gzip: Buffer;
  /** Made off the event loop; until then gzip is served. */
  br?: Buffer;
};
export interface PageCache {
  wrap(handle: Handler): Handler;
  stats: { hits: number; misses: number; stored: number };
  entries: LRUCache<string, Entry>;
}

const DROPPED = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
// Client-router and action requests and ranges pass by (revalidations are answered from the cache).
const ROUTER_HEADERS = [
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-url",
  "next-action",
  "range",
];

/** `versionMarker(7)` is what a page writes into its HTML to say it rendered at version 7. */
export const versionMarker = (version: number | string): string => `data-fx-version="${version}"`;

/**
 * The cache key of a request for one of `routes` (`{ path, params, prerendered? }`), or null when
 * the request is not a plain page load of such a route (then it is never cached). A `prerendered`
 * route is a page Next.js built as static HTML: it changes only with a new build (a new process),
 * so it is kept without a version.
 */
export function cacheKey(
  req: Pick<IncomingMessage, "method" | "url" | "headers">,
  routes: CachedRoute[],
): { key: string; prerendered: boolean } | null {
  if (req.method !== "GET") return null;
  for (const name of ROUTER_HEADERS) if (req.headers[name] !== undefined) return null;
  const url = new URL(req.url ?? "/", "http://x");
  const route = routes.find((r) => r.path === url.pathname);
  if (!route) return null;
  const parts = [route.path];
  for (const [name, value] of url.searchParams) {
    if (!route.params.includes(name)) return null;
    // Values outside the short, plain form a link of ours uses are answered but not kept.
    if (!/^[A-Za-z0-9_-]{1,16}$/.test(value)) return null;
  }
  for (const name of route.params) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) return null;
    parts.push(`${name}=${values[0] ?? ""}`);
  }
  return { key: parts.join("?"), prerendered: route.prerendered === true };
}

const PRERENDERED = "prerendered";

// Brotli quality per kind of entry: 11 costs ~300 ms of a pool thread for /docs, 6 about 5 ms.
const BROTLI_QUALITY = { prerendered: 11, versioned: 6 };

/**
 * Wraps a Node request handler. `readVersion()` resolves to the current version (a number), or
 * rejects when it cannot be read (then requests pass through uncached).
 */
export function createPageCache({
  routes,
  readVersion,
  maxBytes = 32 * 1024 * 1024,
  now = Date.now,
}: {
  routes: CachedRoute[];
  readVersion: () => Promise<number>;
  /** The most bytes all entries may hold together (each counted with its compressed copies). */
  maxBytes?: number;
  now?: () => number;
}): PageCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    // Brotli arrives later: an entry is counted as if it were as large as its gzip copy again.
    sizeCalculation: (entry) => entry.body.length + 2 * entry.gzip.length,
  });
  const stats = { hits: 0, misses: 0, stored: 0 };

  function remember(key: string, entry: Entry) {
    entries.set(key, entry);
    stats.stored++;
  }

  function serve(req: IncomingMessage, res: ServerResponse, entry: Entry) {
    const age = String(Math.max(0, Math.floor((now() - entry.storedAt) / 1000)));
    if (fresh(req.headers, { etag: entry.etag })) {
      res.writeHead(304, { ...entry.headers, etag: entry.etag, age });
      res.end();
      return;
    }
    const coding = chooseEncoding(req, entry.br ? ["br", "gzip"] : ["gzip"]);
    const body = coding === "br" && entry.br ? entry.br : coding === "gzip" ? entry.gzip : entry.body;
    res.writeHead(200, {
      ...entry.headers,
      etag: entry.etag,
      age,
      ...(coding === "br" || coding === "gzip" ? { "content-encoding": coding } : {}),
      "content-length": body.length,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** Adds the Brotli body to `entry` when it is made (unless the entry was replaced meanwhile). */
  function addBrotli(entry: Entry, quality: number) {
    const params = {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: entry.body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    };
    brotliCompress(entry.body, { params }, (error, compressed) => {
      if (!error) entry.br = compressed;
    });
  }

  /** Runs `handle`, collecting what it writes; stores it when it is a complete, cacheable answer. */
  function fill(
    req: IncomingMessage,
    res: ServerResponse,
    handle: Handler,
    key: string,
    version: number | typeof PRERENDERED,
  ) {
    // Next.js answers uncompressed then; the gzip copy is made once here.
    delete req.headers["accept-encoding"];
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const collect = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      chunks.push(buffer);
      size += buffer.length;
    };
    res.write = ((chunk: unknown, encoding: unknown, callback: unknown) => {
      collect(chunk, encoding);
      return (write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
    }) as ServerResponse["write"];
    res.end = ((chunk: unknown, encoding: unknown, callback: unknown) => {
      collect(chunk, encoding);
      const result = (end as (...args: unknown[]) => ServerResponse)(chunk, encoding, callback);
      const headers = res.getHeaders();
      if (res.statusCode === 200 && headers["set-cookie"] === undefined && size > 0) {
        const body = Buffer.concat(chunks, size);
        if (version === PRERENDERED || body.includes(versionMarker(version))) {
          const kept: OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(headers)) {
            if (!DROPPED.has(name) && name !== "content-encoding") kept[name] = value;
          }
          const vary = String(kept.vary ?? "");
          delete kept.etag;
          if (!/accept-encoding/i.test(vary))
            kept.vary = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
          const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
          const entry: Entry = { version, storedAt: now(), etag, headers: kept, body, gzip: gzipSync(body) };
          remember(key, entry);
          addBrotli(entry, BROTLI_QUALITY[version === PRERENDERED ? "prerendered" : "versioned"]);
        }
      }
      return result;
    }) as ServerResponse["end"];
    handle(req, res);
  }

  function wrap(handle: Handler): Handler {
    return (req, res) => {
      const found = cacheKey(req, routes);
      if (found === null) return handle(req, res);
      const { key } = found;
      if (found.prerendered) {
        const entry = entries.get(key);
        if (entry) {
          stats.hits++;
          serve(req, res, entry);
        } else {
          stats.misses++;
          fill(req, res, handle, key, PRERENDERED);
        }
        return;
      }
      readVersion().then(
        (version) => {
          const entry = entries.get(key);
          if (entry && entry.version === version) {
            stats.hits++;
            serve(req, res, entry);
            return;
          }
          stats.misses++;
          fill(req, res, handle, key, version);
        },
        () => handle(req, res),
      );
    };
  }

  return { wrap, stats, entries };
}

/**
 * `readVersion` for the FX rates over a `postgres` (postgres.js) client: one primary-key read per
 * call, never shared between calls (a read that began before a request arrived could predate a
 * change that committed before it).
 */
export function fxVersionReader(sql: Sql): () => Promise<number> {
  return async () => {
    const rows = await sql`select version from fx_rates_version where id = 1`;
    return Number(rows[0]?.version ?? 0);
  };
}
