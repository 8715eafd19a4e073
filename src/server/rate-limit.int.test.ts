import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/db";
import { rateLimitEvents } from "./db/schema";
import {
  consumeRateLimit,
  forgetRefusals,
  pruneRateLimitEvents,
  RATE_LIMIT_PRUNE_EVERY,
  RATE_LIMIT_RETENTION_SECONDS,
} from "./rate-limit";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(rateLimitEvents);
  forgetRefusals(); // refusals remembered in memory belong to the events just deleted
});

const rule = { bucket: "test", limit: 10, windowSeconds: 60 };
const consume = (subject: string, cost?: number) =>
  t.db.transaction((tx) => consumeRateLimit(tx, rule, subject, cost));
const rows = async (subject?: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(rateLimitEvents)
      .where(subject ? eq(rateLimitEvents.subject, subject) : undefined)
  )[0]?.n;

/** Events of a client that never came back, dated two days ago. */
async function oldEvents(subject: string, n: number) {
  await t.db.insert(rateLimitEvents).values(
    Array.from({ length: n }, () => ({
      bucket: "test",
      subject,
      at: sql`clock_timestamp() - interval '2 days'`,
    })),
  );
}

describe("consumeRateLimit with a cost", () => {
  it("records `cost` events at once and refuses a cost that does not fit", async () => {
    expect(await consume("a", 7)).toEqual({ allowed: true, remaining: 3 });
    expect((await consume("a", 4)).allowed).toBe(false);
    expect(await rows("a")).toBe(7);
    expect(await consume("a", 3)).toEqual({ allowed: true, remaining: 0 });
    expect((await consume("a")).allowed).toBe(false);
  });

  it("refuses nonsense costs", async () => {
    await expect(consume("a", 0)).rejects.toThrow(/cost/);
    await expect(consume("a", 1.5)).rejects.toThrow(/cost/);
  });
});

describe("pruning rate_limit_events", () => {
  it("deletes events of clients that never return, keeping recent ones", async () => {
    await oldEvents("gone", 50);
    await consume("recent");
    await pruneRateLimitEvents(t.db);
    expect(await rows("gone")).toBe(0);
    expect(await rows("recent")).toBe(1);
  });

  it("runs by itself when an insert's id crosses a multiple of RATE_LIMIT_PRUNE_EVERY", async () => {
    await oldEvents("gone", 1);
    const [last] = await t.db
      .select({ id: sql<string>`max(${rateLimitEvents.id})::text` })
      .from(rateLimitEvents);
    const next = BigInt(last?.id ?? "0") + 1n;
    // Old events up to just before the next multiple, then one real call lands on it.
    const gap = Number((RATE_LIMIT_PRUNE_EVERY - (next % RATE_LIMIT_PRUNE_EVERY)) % RATE_LIMIT_PRUNE_EVERY);
    if (gap > 0) await oldEvents("gone", gap);
    expect(await rows("gone")).toBe(1 + gap);
    await consume("recent");
    expect(await rows("gone")).toBe(0);
    expect(await rows("recent")).toBe(1);
    expect(
      (
        await t.db
          .select({ n: count() })
          .from(rateLimitEvents)
          .where(and(eq(rateLimitEvents.bucket, "test")))
      )[0]?.n,
    ).toBe(1);
  });

  it("refuses a rule whose window is longer than the retention", async () => {
    const tooLong = { ...rule, windowSeconds: RATE_LIMIT_RETENTION_SECONDS + 1 };
    await expect(t.db.transaction((tx) => consumeRateLimit(tx, tooLong, "a"))).rejects.toThrow(/retention/);
  });
});
