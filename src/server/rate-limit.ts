import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { EDGE_REFUSAL_MAX_HOLD_MS } from "@/core/http/edge-contract";
import type { Db, Tx } from "./db/client";
import { rateLimitEvents } from "./db/schema";

export type RateLimitRule = { bucket: string; limit: number; windowSeconds: number };

/** Events older than this are of no use to any rule; every rule's window must fit in it. */
export const RATE_LIMIT_RETENTION_SECONDS = 24 * 60 * 60;
/** A global prune runs when an inserted id crosses a multiple of this (cheap; right across instances). */
export const RATE_LIMIT_PRUNE_EVERY = 500n;
/** The most events one call may record (e.g. the items of one monitoring envelope). */
export const MAX_RATE_LIMIT_COST = 1000;
export type RateLimitDecision =
  | { allowed: true; remaining: number }
  | {
      allowed: false;
      retryAfterSeconds: number;
      /**
       * How long (ms) this refusal is certain to hold for any request of the subject: the window is
       * full, so nothing fits until its oldest event expires (capped at MAX_REMEMBER_MS, so the
       * database is asked again within 10 s). 0 when a smaller request might still fit.
       */
      holdsForMs: number;
    };

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
const MAX_REMEMBER_MS = EDGE_REFUSAL_MAX_HOLD_MS;

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
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((refusal.retryAt - now) / 1000)),
    holdsForMs: Math.floor(refusal.recheckAt - now),
  };
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
 * rolls back, so does the count. `cost` records that many events at once (e.g. one per item of a
 * monitoring envelope), allowed only if all fit in the limit.
 *
 * Each subject's own old events go on its next call; events of subjects that never return go in a
 * global prune (everything older than RATE_LIMIT_RETENTION_SECONDS) every RATE_LIMIT_PRUNE_EVERY
 * inserts, so the table stays bounded.
 *
 * A subject this instance already saw refused (with the limit full) is refused again without a
 * query until its window moves (see `knownRefusal`).
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
  if (count + cost > rule.limit) {
    const retryAfterMs = Math.max(0, row?.retryAfterMs ?? 0);
    let holdsForMs = 0;
    // Remember only a subject whose window is full: a smaller request might still fit otherwise.
    if (count >= rule.limit && retryAfterMs > 0) {
      const recheckAt = startedAt + Math.min(retryAfterMs, MAX_REMEMBER_MS);
      rememberRefusal(keyOf(rule, subject), { recheckAt, retryAt: startedAt + retryAfterMs });
      holdsForMs = Math.max(0, Math.floor(recheckAt - performance.now()));
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)), holdsForMs };
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

/**
 * One rate-limited request on its own (nothing else in the transaction): refused from memory when
 * this instance already knows the subject is over the limit, else counted exactly in PostgreSQL.
 */
export async function limitRequest(
  db: Db,
  rule: RateLimitRule,
  subject: string,
  cost = 1,
): Promise<RateLimitDecision> {
  return knownRefusal(rule, subject) ?? db.transaction((tx) => consumeRateLimit(tx, rule, subject, cost));
}
