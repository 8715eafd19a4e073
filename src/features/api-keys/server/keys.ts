import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, gte, isNull, or, sql } from "drizzle-orm";
import { planOf } from "@/core/billing/plans";
import { isoDay, monthBounds } from "@/core/calendar";
import type { Db } from "@/server/db/client";
import { apiKeys, apiUsage, user } from "@/server/db/schema";
import { organizationPlan } from "@/server/plan-limits";
import { consumeRateLimit } from "@/server/rate-limit";

/**
 * Organization API keys and the keyed API's quota. A key is `abk_` + 32 random bytes (base64url);
 * only its SHA-256 is stored (the secret has 256 bits of entropy, so a slow hash adds nothing) and
 * its first 12 characters are kept in clear to tell keys apart. Every keyed call is counted in
 * PostgreSQL inside one transaction that holds an advisory lock on the organization, so the
 * monthly quota and the per-second burst are exact under concurrency and across app instances.
 */

export const API_KEY_PREFIX = "abk_";
const VISIBLE_PREFIX_LENGTH = 12;

export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { secret, prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH), hash: hashApiKey(secret) };
}

/** The bearer token of a request, or null when it carries none. */
export function bearerOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

export type RateLimitHeaders = Record<string, string>;

export const SUSPENDED_KEY_MESSAGE =
  "This API key was created by an account that is suspended, and works only while that account is in good standing. Ask an owner or admin of the organization for a new key.";

export type KeyedCallDecision =
  | { ok: true; organizationId: string; keyId: string; headers: RateLimitHeaders }
  | { ok: false; status: 401; code: "invalid_api_key"; message: string; headers: RateLimitHeaders }
  | {
      ok: false;
      status: 429;
      code: "quota_exceeded" | "rate_limited";
      message: string;
      headers: RateLimitHeaders;
      /** How long this refusal is certain to hold, in ms (this instance repeats it from memory). */
      holdsForMs: number;
    };

/**
 * Authenticates a key and counts one call against its organization's plan. Revoked or unknown
 * keys are refused; past the burst or the monthly quota the call is refused with `Retry-After`
 * and the `RateLimit-*` headers (the monthly quota: limit, remaining, seconds to reset).
 */
export async function consumeKeyedCall(db: Db, secret: string, now = new Date()): Promise<KeyedCallDecision> {
  const invalid: KeyedCallDecision = {
    ok: false,
    status: 401,
    code: "invalid_api_key",
    message: "The API key is not valid or has been revoked. Create one on your dashboard.",
    headers: {},
  };
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return invalid;
  const hash = hashApiKey(secret);
  const remembered = rememberedRefusal(hash, now);
  if (remembered) return remembered;
  const decision = await db.transaction(async (tx): Promise<KeyedCallDecision> => {
    const [key] = await tx
      .select({
        id: apiKeys.id,
        organizationId: apiKeys.organizationId,
        // A key acts for the member who created it: while that account is banned, so is the key.
        creatorBanned: sql<boolean>`coalesce(${and(
          eq(user.banned, true),
          or(isNull(user.banExpires), gt(user.banExpires, now)),
        )}, false)`,
      })
      .from(apiKeys)
      .leftJoin(user, eq(user.id, apiKeys.createdBy))
      .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)));
    if (!key) return invalid;
    if (key.creatorBanned) return { ...invalid, message: SUSPENDED_KEY_MESSAGE };
    const plan = planOf(await organizationPlan(tx, key.organizationId));
    const limit = plan.limits.apiCallsPerMonth;
    const { start, next } = monthBounds(now);
    const reset = Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));

    const burst = await consumeRateLimit(
      tx,
      { bucket: "api-burst", limit: plan.limits.apiBurstPerSecond, windowSeconds: 1 },
      key.organizationId,
    );
    // The organization's lock: one counter update at a time, on every instance.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`api-quota:${key.organizationId}`}, 0))`,
    );
    const [usage] = await tx
      .select({ used: sql<number>`coalesce(sum(${apiUsage.calls}), 0)::int` })
      .from(apiUsage)
      .where(and(eq(apiUsage.organizationId, key.organizationId), gte(apiUsage.day, isoDay(start))));
    const used = usage?.used ?? 0;
    const headers = (remaining: number): RateLimitHeaders => ({
      "RateLimit-Limit": String(limit),
      "RateLimit-Remaining": String(Math.max(0, remaining)),
      "RateLimit-Reset": String(reset),
      "RateLimit-Policy": `${limit};w=2592000, ${plan.limits.apiBurstPerSecond};w=1`,
    });
    if (used >= limit) {
      return {
        ok: false,
        status: 429,
        code: "quota_exceeded",
        message: `This organization has used all ${limit.toLocaleString("en-US")} API calls of the ${plan.name} plan this month. Upgrade the plan on the pricing page, or wait until the quota resets.`,
        headers: { ...headers(0), "Retry-After": String(reset) },
        holdsForMs: Math.min(REMEMBER_MS, reset * 1000),
      };
    }
    if (!burst.allowed) {
      return {
        ok: false,
        status: 429,
        code: "rate_limited",
        message: `More than ${plan.limits.apiBurstPerSecond} calls in one second. Slow down and retry.`,
        headers: { ...headers(limit - used), "Retry-After": String(burst.retryAfterSeconds) },
        // Until the oldest call in the one-second window leaves it (not the whole rounded-up second).
        holdsForMs: burst.holdsForMs,
      };
    }
    await tx
      .insert(apiUsage)
      .values({ organizationId: key.organizationId, day: isoDay(now), calls: 1 })
      .onConflictDoUpdate({
        target: [apiUsage.organizationId, apiUsage.day],
        set: { calls: sql`${apiUsage.calls} + 1` },
      });
    await tx.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, key.id));
    return {
      ok: true,
      organizationId: key.organizationId,
      keyId: key.id,
      headers: headers(limit - used - 1),
    };
  });
  if (!decision.ok && decision.status === 429) rememberRefusal(hash, decision, now);
  return decision;
}

// A key refused for its burst or its monthly quota is refused again from memory (no transaction,
// no lock) until its Retry-After has passed, and for at most 10 s: an upgrade or a new month is
// seen within 10 s. PostgreSQL stays the only judge of every call that is allowed.
const REMEMBER_MS = 10_000;
const MAX_REMEMBERED_KEYS = 10_000;
const refusedKeys = new Map<string, { until: number; retryAt: number; decision: KeyRefusal }>();

type KeyRefusal = Extract<KeyedCallDecision, { status: 429 }>;

function rememberRefusal(hash: string, decision: KeyRefusal, now: Date) {
  const hold = Math.min(REMEMBER_MS, decision.holdsForMs);
  if (!(hold > 0)) return;
  if (refusedKeys.size >= MAX_REMEMBERED_KEYS) refusedKeys.clear();
  const retryAfter = Math.max(1, Number(decision.headers["Retry-After"] ?? 1));
  refusedKeys.set(hash, {
    until: now.getTime() + hold,
    retryAt: now.getTime() + retryAfter * 1000,
    decision,
  });
}

function rememberedRefusal(hash: string, now: Date): KeyedCallDecision | null {
  const known = refusedKeys.get(hash);
  if (!known) return null;
  const holdsForMs = known.until - now.getTime();
  if (holdsForMs <= 0) {
    refusedKeys.delete(hash);
    return null;
  }
  // The answer's own Retry-After, counted down (a month's quota says when the month ends).
  const seconds = String(Math.max(1, Math.ceil((known.retryAt - now.getTime()) / 1000)));
  return { ...known.decision, holdsForMs, headers: { ...known.decision.headers, "Retry-After": seconds } };
}

/** Forgets every remembered key refusal (tests). */
export function forgetKeyRefusals() {
  refusedKeys.clear();
}
