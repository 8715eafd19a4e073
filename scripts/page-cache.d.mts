import type { IncomingMessage, ServerResponse } from "node:http";

export type CachedRoute = { path: string; params: string[]; prerendered?: boolean };
type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
export interface PageCache {
  wrap(handle: Handler): Handler;
  stats: { hits: number; misses: number; stored: number };
  entries: Map<
    string,
    {
      version: number | string;
      headers: Record<string, unknown>;
      body: Buffer;
      gzip: Buffer;
      /** Made off the event loop; until then gzip is served. */
      br?: Buffer;
    }
  >;
}
export function acceptedEncodings(header: string | string[] | undefined): {
  br: boolean;
  gzip: boolean;
};
export const versionMarker: (version: number) => string;
export function cacheKey(
  req: Pick<IncomingMessage, "method" | "url" | "headers">,
  routes: CachedRoute[],
): { key: string; prerendered: boolean } | null;
export function createPageCache(options: {
  routes: CachedRoute[];
  readVersion: () => Promise<number>;
  maxEntries?: number;
}): PageCache;
export function fxVersionReader(sql: import("postgres").Sql): () => Promise<number>;
