import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isoDay } from "@/core/calendar";
import type { Db } from "@/server/db/client";
import { apiKeys, apiUsage, organization, subscriptions, user } from "@/server/db/schema";
import { forgetRefusals } from "@/server/rate-limit";
import { activeSubscription, createTestDatabase } from "../../../../tests/support/db";
import { consumeKeyedCall, forgetKeyRefusals, newApiKeySecret, SUSPENDED_KEY_MESSAGE } from "./keys";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db as unknown as Db;
  await db.insert(user).values({ id: "u1", name: "Ada", email: "ada@example.com" });
  await db.insert(organization).values([
    { id: "org-a", name: "A", slug: "a" },
    { id: "org-b", name: "B", slug: "b" },
    { id: "org-c", name: "C", slug: "c" },
  ]);
  await db.insert(subscriptions).values(activeSubscription("org-a", "team"));
});
afterAll(async () => {
  await t.drop();
});

async function keyFor(organizationId: string) {
  const key = newApiKeySecret();
  const [row] = await db
    .insert(apiKeys)
    .values({ organizationId, createdBy: "u1", name: "test", prefix: key.prefix, hash: key.hash })
    .returning({ id: apiKeys.id });
  return { ...key, id: row?.id as string };
}

async function usageOf(organizationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${apiUsage.calls}), 0)::int` })
    .from(apiUsage)
    .where(eq(apiUsage.organizationId, organizationId));
  return row?.n ?? 0;
}

// Each test starts with no remembered refusals (a second passing between tests, as it were).
beforeEach(() => {
  forgetRefusals();
  forgetKeyRefusals();
});

describe("keyed API calls", () => {
  it("stores only a hash and a short visible prefix", async () => {
    const key = await keyFor("org-b");
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.prefix).toBe(key.secret.slice(0, 12));
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(12));
  });

  it("counts 100 concurrent calls exactly: one counter step per allowed call, none lost", async () => {
    const key = await keyFor("org-a");
    const decisions = await Promise.all(Array.from({ length: 100 }, () => consumeKeyedCall(db, key.secret)));
    const allowed = decisions.filter((d) => d.ok);
    const refused = decisions.filter((d) => !d.ok);
    expect(allowed.length + refused.length).toBe(100);
    // Every refusal is the burst limit (50 a second on Team), never an error.
    for (const d of refused) expect(d).toMatchObject({ status: 429, code: "rate_limited" });
    expect(allowed.length).toBeGreaterThanOrEqual(1);
    expect(allowed.length).toBeLessThanOrEqual(100);
    expect(await usageOf("org-a")).toBe(allowed.length);
    // Each allowed call saw a different remaining count: they were counted one after another.
    const remaining = allowed.map((d) => Number(d.headers["RateLimit-Remaining"]));
    expect(new Set(remaining).size).toBe(allowed.length);
    expect(Math.min(...remaining)).toBe(500_000 - allowed.length);
  });

  it("counts 100 of 100 calls in concurrent waves of ten, the burst window cleared between waves", async () => {
    const key = await keyFor("org-a");
    const before = await usageOf("org-a");
    let ok = 0;
    // Ten waves of ten concurrent calls; clearing the burst events (and this instance's memory of
    // refusals) before each wave stands for a second passing.
    for (let wave = 0; wave < 10; wave++) {
      await db.execute(sql`delete from rate_limit_events where bucket = 'api-burst'`);
      forgetRefusals();
      forgetKeyRefusals();
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => consumeKeyedCall(db, key.secret, now)),
      );
      ok += results.filter((r) => r.ok).length;
    }
    expect(ok).toBe(100);
    expect(await usageOf("org-a")).toBe(before + 100);
  });

  it("answers 429 with Retry-After and RateLimit headers exactly at the monthly quota", async () => {
    const key = await keyFor("org-c"); // Free: 1,000 calls a month
    const now = new Date();
    await db.insert(apiUsage).values({ organizationId: "org-c", day: isoDay(now), calls: 998 });
    const last = await consumeKeyedCall(db, key.secret, now);
    expect(last).toMatchObject({
      ok: true,
      headers: { "RateLimit-Limit": "1000", "RateLimit-Remaining": "1" },
    });
    const lastOne = await consumeKeyedCall(db, key.secret, now);
    expect(lastOne).toMatchObject({ ok: true, headers: { "RateLimit-Remaining": "0" } });
    const over = await consumeKeyedCall(db, key.secret, now);
    expect(over).toMatchObject({ ok: false, status: 429, code: "quota_exceeded" });
    expect(Number(over.headers["Retry-After"])).toBeGreaterThan(0);
    expect(over.headers["RateLimit-Remaining"]).toBe("0");
    expect(over.ok ? "" : over.message).toMatch(/Upgrade/);
    expect(await usageOf("org-c")).toBe(1000);
    // It holds 10 s (the most this instance and its edge repeat a refusal before asking again).
    expect(over).toMatchObject({ holdsForMs: 10_000 });
    // The refusal is repeated from memory: no transaction, no lock, until at most 10 s later, with
    // the month's Retry-After counted down (not the memory's 10 s).
    const noDatabase = {
      transaction: () => Promise.reject(new Error("the database was asked")),
    } as unknown as Db;
    const remembered = await consumeKeyedCall(noDatabase, key.secret, new Date(now.getTime() + 5_000));
    expect(remembered).toMatchObject({ ok: false, status: 429, code: "quota_exceeded", holdsForMs: 5_000 });
    expect(Number(remembered.headers["Retry-After"])).toBe(Number(over.headers["Retry-After"]) - 5);
    await expect(consumeKeyedCall(noDatabase, key.secret, new Date(now.getTime() + 10_001))).rejects.toThrow(
      "the database was asked",
    );
  });

  it("resets the quota with the month", async () => {
    const key = await keyFor("org-c");
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
    expect(await consumeKeyedCall(db, key.secret, nextMonth)).toMatchObject({ ok: true });
  });

  it("refuses a revoked key at once, and an unknown one", async () => {
    const key = await keyFor("org-b");
    expect(await consumeKeyedCall(db, key.secret)).toMatchObject({ ok: true });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    expect(await consumeKeyedCall(db, key.secret)).toMatchObject({ ok: false, status: 401 });
    expect(await consumeKeyedCall(db, `${key.secret}x`)).toMatchObject({ ok: false, status: 401 });
    expect(await consumeKeyedCall(db, "not-a-key")).toMatchObject({ ok: false, status: 401 });
  });

  it("counts a key only against its own organization", async () => {
    const a = await keyFor("org-a");
    const beforeA = await usageOf("org-a");
    const beforeB = await usageOf("org-b");
    const decision = await consumeKeyedCall(db, a.secret);
    expect(decision).toMatchObject({ ok: true, organizationId: "org-a" });
    expect(await usageOf("org-a")).toBe(beforeA + 1);
    expect(await usageOf("org-b")).toBe(beforeB);
  });
});

describe("keys of banned accounts", () => {
  it("refuses a key while the account that created it is banned, and only then", async () => {
    await db.insert(user).values([
      { id: "u-banned", name: "Mallory", email: "mallory@example.com" },
      { id: "u-good", name: "Grace", email: "grace@example.com" },
    ]);
    await db.insert(organization).values({ id: "org-ban", name: "Ban", slug: "ban" });
    await db.insert(subscriptions).values(activeSubscription("org-ban", "team"));
    const insertKey = async (createdBy: string) => {
      const key = newApiKeySecret();
      await db.insert(apiKeys).values({
        organizationId: "org-ban",
        createdBy,
        name: createdBy,
        prefix: key.prefix,
        hash: key.hash,
      });
      return key.secret;
    };
    const mallorys = await insertKey("u-banned");
    const graces = await insertKey("u-good");
    expect(await consumeKeyedCall(db, mallorys)).toMatchObject({ ok: true });

    await db.update(user).set({ banned: true, banReason: "abuse" }).where(eq(user.id, "u-banned"));
    expect(await consumeKeyedCall(db, mallorys)).toMatchObject({
      ok: false,
      status: 401,
      code: "invalid_api_key",
      message: SUSPENDED_KEY_MESSAGE,
    });
    // The organization's other keys are not the banned account's: they keep working.
    expect(await consumeKeyedCall(db, graces)).toMatchObject({ ok: true });

    // A ban that has run out no longer stops the key; one that runs later still does.
    const hour = 3_600_000;
    await db
      .update(user)
      .set({ banExpires: new Date(Date.now() + hour) })
      .where(eq(user.id, "u-banned"));
    expect(await consumeKeyedCall(db, mallorys)).toMatchObject({ ok: false, status: 401 });
    await db
      .update(user)
      .set({ banExpires: new Date(Date.now() - hour) })
      .where(eq(user.id, "u-banned"));
    expect(await consumeKeyedCall(db, mallorys)).toMatchObject({ ok: true });
  });
});
