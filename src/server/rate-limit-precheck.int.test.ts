import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/db";
import { rateLimitEvents } from "./db/schema";
import { consumeRateLimit, forgetRefusals, knownRefusal, limitRequest } from "./rate-limit";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(rateLimitEvents);
  forgetRefusals();
});

/** A database that fails the test if anything touches it. */
const noDatabase = new Proxy({} as typeof t.db, {
  get(_, name) {
    throw new Error(`the database was used (${String(name)})`);
  },
});

describe("the in-memory pre-check in front of PostgreSQL", () => {
  it("refuses a client already refused without a database round trip", async () => {
    const rule = { bucket: "test", limit: 3, windowSeconds: 60 };
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limitRequest(t.db, rule, "client-a"));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);

    const again = await limitRequest(noDatabase, rule, "client-a");
    expect(again).toMatchObject({ allowed: false });
    const retry = again.allowed ? 0 : again.retryAfterSeconds;
    // Retry-After still tells when the window frees a slot (about a minute here), not when this
    // instance will next ask the database.
    expect(retry).toBeGreaterThan(30);
    expect(retry).toBeLessThanOrEqual(60);
    // Inside a caller's transaction too.
    expect((await t.db.transaction((tx) => consumeRateLimit(tx, rule, "client-a"))).allowed).toBe(false);
    // Refusals are not recorded as events: the database holds the three allowed ones only.
    const [row] = await t.db
      .select({ n: count() })
      .from(rateLimitEvents)
      .where(eq(rateLimitEvents.subject, "client-a"));
    expect(row?.n).toBe(3);
  });

  it("knows nothing of clients the database has not refused, nor of other rules", async () => {
    const rule = { bucket: "test", limit: 1, windowSeconds: 60 };
    await limitRequest(t.db, rule, "client-b");
    expect(knownRefusal(rule, "client-b")).toBeNull();
    expect((await limitRequest(t.db, rule, "client-b")).allowed).toBe(false);
    expect(knownRefusal(rule, "client-b")).not.toBeNull();
    expect(knownRefusal(rule, "client-c")).toBeNull();
    expect(knownRefusal({ ...rule, limit: 2 }, "client-b")).toBeNull();
    expect(knownRefusal({ ...rule, bucket: "other" }, "client-b")).toBeNull();
  });

  it("never outlasts the window: a client is allowed again as soon as the database would allow it", async () => {
    const rule = { bucket: "test", limit: 2, windowSeconds: 1 };
    expect((await limitRequest(t.db, rule, "client-d")).allowed).toBe(true);
    expect((await limitRequest(t.db, rule, "client-d")).allowed).toBe(true);
    expect((await limitRequest(t.db, rule, "client-d")).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(knownRefusal(rule, "client-d")).toBeNull();
    expect((await limitRequest(t.db, rule, "client-d")).allowed).toBe(true);
  });
});
