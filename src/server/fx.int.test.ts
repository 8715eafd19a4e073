import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/db";
import * as schema from "./db/schema";
import { fxRates } from "./db/schema";
import { loadRateTable, ratesChanged, readRateTable } from "./fx";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
// A second instance: its own connection pool and its own cache, on the same database.
let otherSql: postgres.Sql;
let other: typeof t.db;
beforeAll(async () => {
  t = await createTestDatabase();
  otherSql = postgres(t.url, { max: 2, onnotice: () => {} });
  other = drizzle(otherSql, { schema });
});
afterAll(async () => {
  await otherSql.end({ timeout: 5 });
  await t.drop();
});

describe("the cached FX table", () => {
  it("answers what the database holds, and the same object while nothing changed", async () => {
    const first = await loadRateTable(t.db);
    expect(first).toEqual(await readRateTable(t.db));
    expect(await loadRateTable(t.db)).toBe(first);
  });

  it("is never stale after a change recorded with ratesChanged, on any instance", async () => {
    const before = await loadRateTable(t.db);
    const seenByOther = await loadRateTable(other);
    expect(seenByOther.rates.USD).toBe(before.rates.USD);

    // The change and the version bump in one transaction, made through the other instance.
    await other.transaction(async (tx) => {
      await tx.update(fxRates).set({ rate: "1.2345" }).where(eq(fxRates.currency, "USD"));
      await ratesChanged(tx);
    });
    expect((await loadRateTable(other)).rates.USD).toBe("1.2345");
    const after = await loadRateTable(t.db);
    expect(after.rates.USD).toBe("1.2345");
    expect(after).not.toBe(before);

    // A change recorded after its own commit is seen too.
    await t.db.update(fxRates).set({ rate: "1.5" }).where(eq(fxRates.currency, "USD"));
    await ratesChanged(t.db);
    expect((await loadRateTable(other)).rates.USD).toBe("1.5");
    expect((await loadRateTable(t.db)).rates.USD).toBe("1.5");
  });
});
