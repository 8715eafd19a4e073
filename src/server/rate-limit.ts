import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "./db/client";
import { rateLimitEvents } from "./db/schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type RateLimitRule = { bucket: string; limit: number; windowSeconds: number };
export type RateLimitDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Sliding-window rate limit kept in PostgreSQL, so it holds across restarts and app instances.
 * Must run inside a transaction: it takes a transaction-scoped advisory lock on (bucket, subject),
 * so concurrent requests from one client are counted one after another. When the request is
 * allowed the event is recorded in the same transaction as the work it guards: if that work
 * rolls back, so does the count.
 */
export async function consumeRateLimit(
  tx: Tx,
  rule: RateLimitRule,
  subject: string,
): Promise<RateLimitDecision> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${rule.bucket}:${subject}`}, 0))`);
  const windowStart = sql`clock_timestamp() - make_interval(secs => ${rule.windowSeconds})`;
  const scope = and(eq(rateLimitEvents.bucket, rule.bucket), eq(rateLimitEvents.subject, subject));
  // Old events of this subject are of no further use.
  await tx.delete(rateLimitEvents).where(and(scope, lt(rateLimitEvents.at, windowStart)));
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      retryAfter: sql<number>`coalesce(ceil(extract(epoch from (min(${rateLimitEvents.at}) + make_interval(secs => ${rule.windowSeconds}) - clock_timestamp()))), 0)::int`,
    })
    .from(rateLimitEvents)
    .where(and(scope, gt(rateLimitEvents.at, windowStart)));
  const count = row?.count ?? 0;
  if (count >= rule.limit) {
    return { allowed: false, retryAfterSeconds: Math.max(1, row?.retryAfter ?? rule.windowSeconds) };
  }
  await tx.insert(rateLimitEvents).values({ bucket: rule.bucket, subject });
  return { allowed: true, remaining: rule.limit - count - 1 };
}
