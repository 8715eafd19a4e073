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
// Until then this instance refuses the subject from memory, without a database round trip. The
// database stays the source of truth for everything allowed: the pre-check only repeats refusals,
// and it ends early rather than late (its deadline is measured from before the database looked).

/** Deadlines (performance.now() milliseconds) until which a rule's subject is known to be refused. */
const refusedUntil = new Map<string, number>();
/** Bounded: a flood of distinct subjects can cost memory only up to this many entries. */
const MAX_REMEMBERED = 10_000;

const keyOf = (rule: RateLimitRule, subject: string) =>
  `${rule.bucket}:${rule.limit}:${rule.windowSeconds}:${subject}`;

/**
 * A refusal when this instance already knows the subject is over the rule's limit, else null (then
 * ask the database: `consumeRateLimit`). Never refuses what the database would allow.
 */
export function knownRefusal(rule: RateLimitRule, subject: string): RateLimitDecision | null {
  const key = keyOf(rule, subject);
  const until = refusedUntil.get(key);
  if (until === undefined) return null;
  const left = until - performance.now();
  if (left <= 0) {
    refusedUntil.delete(key);
    return null;
  }
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
}

function rememberRefusal(key: string, until: number) {
  refusedUntil.delete(key);
  if (refusedUntil.size >= MAX_REMEMBERED) {
    const now = performance.now();
    for (const [k, deadline] of refusedUntil) if (deadline <= now) refusedUntil.delete(k);
    // Still full: forget the oldest entries (those subjects are simply checked in the database again).
    for (const k of refusedUntil.keys()) {
      if (refusedUntil.size < MAX_REMEMBERED) break;
      refusedUntil.delete(k);
    }
  }
  refusedUntil.set(key, until);
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
    if (retryAfterMs > 0) rememberRefusal(keyOf(rule, subject), startedAt + retryAfterMs);
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
