import type { IncomingMessage, ServerResponse } from "node:http";

export interface StaticAssets {
  /** How many build assets have a Brotli copy in memory. */
  size: number;
  /** True when it answered `req` (from memory), false when Next.js should. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
}
export function createStaticAssets(options: { distDir: string }): StaticAssets;
