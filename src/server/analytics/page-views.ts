import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { pageViews } from "../db/schema";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit";

/** Routes counted as they are. */
const EXACT = new Set([
  "/",
  "/pricing",
  "/docs",
  "/contact",
  "/calculator",
  "/checkout",
  "/receipt",
  "/onboarding",
  "/dashboard",
  "/admin",
  "/admin/users",
  "/admin/currency-test",
]);
/** Catch-all screens: every path below them counts as the screen itself. */
const CATCH_ALL = ["/sign-in", "/sign-up", "/user-profile", "/organization-profile"];
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
  if (EXACT.has(path)) return path;
  return CATCH_ALL.find((base) => path === base || path.startsWith(`${base}/`));
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
