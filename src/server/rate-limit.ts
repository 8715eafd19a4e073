import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "./db/client";
import { rateLimitEvents } from "./db/schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type RateLimitRule = { bucket: string; limit: number; windowSeconds: number };

/** Events older than this are of no use to any rule; every rule's window must fit in it. */
export const RATE_LIMIT_RETENTION_SECONDS = 24 * 60 * 60;
/** A global prune runs when an inserted id crosses a multiple of this (cheap; right across instances). */
export const RATE_LIMIT_PRUNE_EVERY = 500n;
/** The most events one call may record (e.g. the items of one monitoring envelope). */
export const MAX_RATE_LIMIT_COST = 1000;
export type RateLimitDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Sliding-window rate limit kept in PostgreSQL, so it holds across restarts and app instances.
 * Must run inside a transaction: it takes a transaction-scoped advisory lock on (bucket, subject),
 * so concurrent requests from one client are counted one after another. When the request is
 * allowed the event is recorded in the same transaction as the work it guards: if that work
 * rolls back, so does the count. `cost` records that many events at once (e.g. one per item of a
 * monitoring envelope), allowed only if all fit in the limit.
 *
 * Each subject's own old events go on its next call; events of subjects that never return go in a
 * global prune (everything older than RATE_LIMIT_RETENTION_SECONDS) every RATE_LIMIT_PRUNE_EVERY
 * inserts, so the table stays bounded.
 */
export async function consumeRateLimit(
  tx: Tx,
  rule: RateLimitRule,
  subject: string,
  cost = 1,
): Promise<RateLimitDecision> {
  if (rule.windowSeconds > RATE_LIMIT_RETENTION_SECONDS) {
    throw new Error(`rate limit ${rule.bucket}: the window is longer than the retention`);
  }
  if (!Number.isInteger(cost) || cost < 1 || cost > MAX_RATE_LIMIT_COST) {
    throw new Error(
      `rate limit ${rule.bucket}: cost must be a whole number from 1 to ${MAX_RATE_LIMIT_COST}`,
    );
  }
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
  if (count + cost > rule.limit) {
    return { allowed: false, retryAfterSeconds: Math.max(1, row?.retryAfter ?? rule.windowSeconds) };
  }
  const inserted = await tx
    .insert(rateLimitEvents)
    .values(Array.from({ length: cost }, () => ({ bucket: rule.bucket, subject })))
    .returning({ id: rateLimitEvents.id });
  if (inserted.some(({ id }) => id % RATE_LIMIT_PRUNE_EVERY === 0n)) await pruneRateLimitEvents(tx);
  return { allowed: true, remaining: rule.limit - count - cost };
}

/**
 * Deletes every event older than the retention, whoever it belongs to. Ids grow with time, so the
 * scan walks the primary key from the oldest row and stops at the first one still kept: its cost
 * is the number of rows deleted.
 */
export async function pruneRateLimitEvents(
  db: Pick<Tx, "execute">,
  retentionSeconds = RATE_LIMIT_RETENTION_SECONDS,
): Promise<void> {
  await db.execute(sql`
    delete from ${rateLimitEvents}
    where ${rateLimitEvents.id} < (
      select ${rateLimitEvents.id} from ${rateLimitEvents}
      where ${rateLimitEvents.at} >= clock_timestamp() - make_interval(secs => ${retentionSeconds})
      order by ${rateLimitEvents.id} limit 1
    )`);
}
