import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "./db/client";
import { rateLimitEvents } from "./db/schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type RateLimitRule = { bucket: string; limit: number; windowSeconds: number };
export type RateLimitDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

// ---- The per-instance pre-check -----------------------------------------------------------------
// When PostgreSQL refuses a subject, it stays over the limit at least until the oldest event in its
// window expires: events leave the window only by expiring, and other instances can only add more.
// Until then (for at most 10 s at a time) this instance refuses the subject from memory, without a
// database round trip. The database stays the source of truth for everything allowed: the pre-check
// only repeats refusals, and it ends early rather than late (its deadline is measured from before
// the database looked).

/**
 * Per rule and subject (performance.now() milliseconds): until when a refusal is repeated from memory,
 * and when the subject's oldest counted request leaves the window (for Retry-After).
 */
type Refusal = { recheckAt: number; retryAt: number };
const refusedUntil = new Map<string, Refusal>();
/** Bounded: a flood of distinct subjects can cost memory only up to this many entries. */
const MAX_REMEMBERED = 10_000;
/**
 * A refusal is repeated from memory for at most this long, then PostgreSQL is asked again: a limit
 * reset in the database (events deleted by an operator or a test) is honoured within 10 s, and a
 * client hammering past its limit still costs one query per 10 s instead of one per request.
 */
const MAX_REMEMBER_MS = 10_000;

const keyOf = (rule: RateLimitRule, subject: string) =>
  `${rule.bucket}:${rule.limit}:${rule.windowSeconds}:${subject}`;

/**
 * A refusal when this instance already knows the subject is over the rule's limit, else null (then
 * ask the database: `consumeRateLimit`). Never refuses what the database would allow.
 */
export function knownRefusal(rule: RateLimitRule, subject: string): RateLimitDecision | null {
  const key = keyOf(rule, subject);
  const refusal = refusedUntil.get(key);
  if (refusal === undefined) return null;
  const now = performance.now();
  if (refusal.recheckAt <= now) {
    refusedUntil.delete(key);
    return null;
  }
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((refusal.retryAt - now) / 1000)) };
}

function rememberRefusal(key: string, refusal: Refusal) {
  refusedUntil.delete(key);
  if (refusedUntil.size >= MAX_REMEMBERED) {
    const now = performance.now();
    for (const [k, known] of refusedUntil) if (known.recheckAt <= now) refusedUntil.delete(k);
    // Still full: forget the oldest entries (those subjects are simply checked in the database again).
    for (const k of refusedUntil.keys()) {
      if (refusedUntil.size < MAX_REMEMBERED) break;
      refusedUntil.delete(k);
    }
  }
  refusedUntil.set(key, refusal);
}

/** Forgets every remembered refusal (tests). */
export function forgetRefusals() {
  refusedUntil.clear();
}
// ---------------------------------------------------------------------------------------------------

/**
 * Sliding-window rate limit kept in PostgreSQL, so it holds across restarts and app instances.
 * Must run inside a transaction: it takes a transaction-scoped advisory lock on (bucket, subject),
 * so concurrent requests from one client are counted one after another. When the request is
 * allowed the event is recorded in the same transaction as the work it guards: if that work
 * rolls back, so does the count. A subject this instance already saw refused is refused again
 * without a query until its window moves (see `knownRefusal`).
 */
export async function consumeRateLimit(
  tx: Tx,
  rule: RateLimitRule,
  subject: string,
): Promise<RateLimitDecision> {
  const known = knownRefusal(rule, subject);
  if (known) return known;
  const startedAt = performance.now();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${rule.bucket}:${subject}`}, 0))`);
  const windowStart = sql`clock_timestamp() - make_interval(secs => ${rule.windowSeconds})`;
  const scope = and(eq(rateLimitEvents.bucket, rule.bucket), eq(rateLimitEvents.subject, subject));
  // Old events of this subject are of no further use.
  await tx.delete(rateLimitEvents).where(and(scope, lt(rateLimitEvents.at, windowStart)));
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      // Milliseconds until the oldest event in the window expires.
      retryAfterMs: sql<number>`coalesce(extract(epoch from (min(${rateLimitEvents.at}) + make_interval(secs => ${rule.windowSeconds}) - clock_timestamp())) * 1000, 0)::float8`,
    })
    .from(rateLimitEvents)
    .where(and(scope, gt(rateLimitEvents.at, windowStart)));
  const count = row?.count ?? 0;
  if (count >= rule.limit) {
    const retryAfterMs = Math.max(0, row?.retryAfterMs ?? 0);
    if (retryAfterMs > 0) {
      rememberRefusal(keyOf(rule, subject), {
        recheckAt: startedAt + Math.min(retryAfterMs, MAX_REMEMBER_MS),
        retryAt: startedAt + retryAfterMs,
      });
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }
  await tx.insert(rateLimitEvents).values({ bucket: rule.bucket, subject });
  return { allowed: true, remaining: rule.limit - count - 1 };
}

/**
 * One rate-limited request on its own (nothing else in the transaction): refused from memory when
 * this instance already knows the subject is over the limit, else counted exactly in PostgreSQL.
 */
export async function limitRequest(db: Db, rule: RateLimitRule, subject: string): Promise<RateLimitDecision> {
  return knownRefusal(rule, subject) ?? db.transaction((tx) => consumeRateLimit(tx, rule, subject));
}
