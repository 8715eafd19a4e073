import { sql as raw } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppPoolStats } from "@/core/http/edge-contract";
import { createTestDatabase } from "../../../tests/support/db";
import { countPoolUse } from "./client";
import * as schema from "./schema";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

/** Waits (bounded) until PostgreSQL shows `n` sessions of this pool sleeping in pg_sleep. */
async function sleepers(n: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await t.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and query like 'select pg_sleep(%' and state = 'active'`;
    if (row?.n === n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never saw ${n} sleeping sessions`);
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe("the pool's counts for /metrics", () => {
  it("counts queries and transactions in use, and those beyond the pool's size as waiting", async () => {
    const sql = postgres(t.url, { max: 2, onnotice: () => {} });
    const stats: AppPoolStats = { size: 2, active: 0, waited: 0 };
    countPoolUse(sql, stats);
    const db = drizzle(sql, { schema });
    try {
      expect(await db.execute(raw`select 1 as one`)).toEqual([{ one: 1 }]);
      expect(stats).toEqual({ size: 2, active: 0, waited: 0 });

      // A transaction holds one connection, a query the other, three more wait for them.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const transaction = db.transaction(async (tx) => {
        await tx.execute(raw`select 1`);
        await held;
      });
      await until(() => stats.active === 1);
      const queries = Array.from({ length: 4 }, () => Promise.resolve(db.execute(raw`select pg_sleep(0.3)`)));
      await until(() => stats.active === 5);
      expect(stats.waited).toBe(3);
      await sleepers(1);
      release();
      await Promise.all([transaction, ...queries]);
      expect(stats).toEqual({ size: 2, active: 0, waited: 3 });

      // A failing query is over too.
      await expect(db.execute(raw`select 1/0`)).rejects.toThrow(/select 1\/0/);
      expect(stats.active).toBe(0);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
