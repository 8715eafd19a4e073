import "server-only";
import { sql } from "drizzle-orm";
import { routeFor } from "@/core/routes";
import type { Db } from "../db/client";
import { pageViews } from "../db/schema";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit";

const MAX_PATH_LENGTH = 512;

/**
 * The route a beacon's path belongs to, or undefined: only same-origin paths of known routes are
 * counted (query and fragment dropped, one trailing slash ignored), so junk cannot grow the table.
 */
export function countedPath(input: unknown): string | undefined {
  if (typeof input !== "string" || input.length === 0 || input.length > MAX_PATH_LENGTH) return undefined;
  if (!input.startsWith("/") || input.startsWith("//") || input.includes("\\")) return undefined;
  let path = input.split(/[?#]/, 1)[0] ?? "";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  // Known routes only (core/routes.ts); a catch-all screen's sub-paths count as the screen itself.
  return routeFor(path)?.path;
}

export const PAGE_VIEWS_PER_CLIENT: RateLimitRule = { bucket: "page-views", limit: 120, windowSeconds: 600 };

export type PageViewResult = "counted" | "ignored" | "limited";

/**
 * Counts one view of a route for today (UTC). Nothing about the visitor is stored: the rate limit keys
 * on a keyed hash of the address (server/client-identity.ts) and forgets it after its window.
 */
export async function recordPageView(
  db: Db,
  input: unknown,
  subject: string,
  rule: RateLimitRule = PAGE_VIEWS_PER_CLIENT,
): Promise<PageViewResult> {
  const path = countedPath(input);
  if (!path) return "ignored";
  return db.transaction(async (tx) => {
    const decision = await consumeRateLimit(tx, rule, subject);
    if (!decision.allowed) return "limited";
    await tx
      .insert(pageViews)
      .values({ day: sql`(now() at time zone 'utc')::date`, path, views: 1 })
      .onConflictDoUpdate({
        target: [pageViews.day, pageViews.path],
        set: { views: sql`${pageViews.views} + 1` },
      });
    return "counted";
  });
}
