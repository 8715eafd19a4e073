import "server-only";
import { sql } from "drizzle-orm";
import type { RateTable } from "@/core/money/fx";
import type { Db } from "./db/client";
import { fxRates, fxRatesVersion } from "./db/schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The instance's FX table (base EUR), rates as exact decimal strings, read from the database now.
 * `numeric::text` keeps every digit PostgreSQL stored; nothing passes through a binary float.
 */
export async function readRateTable(db: Db | Tx): Promise<RateTable> {
  const rows = await db
    .select({
      currency: fxRates.currency,
      rate: sql<string>`${fxRates.rate}::text`,
      date: sql<string>`${fxRates.ratesDate}::text`,
    })
    .from(fxRates)
    .orderBy(fxRates.currency);
  const rates: Record<string, string> = {};
  let date = "";
  for (const row of rows) {
    rates[row.currency] = row.rate;
    if (row.date > date) date = row.date;
  }
  return { base: "EUR", date, rates };
}

/** The FX table's version: 0 until rates are first changed after the migration that seeded them. */
async function readVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: fxRatesVersion.version }).from(fxRatesVersion).limit(1);
  return row?.version ?? 0;
}

/**
 * Records that the FX rates changed (import or edit): every instance reloads its cached table on its
 * next use. Call it in the same transaction as the change (`ratesChanged(tx)`), so the new rates and
 * the new version become visible together; called after the change's commit, it works too, but
 * between the commit and this call other instances still answer with the old rates.
 */
export async function ratesChanged(db: Db | Tx): Promise<void> {
  await db
    .insert(fxRatesVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({
      target: fxRatesVersion.id,
      set: { version: sql`${fxRatesVersion.version} + 1`, changedAt: sql`now()` },
    });
}

type Cached = { version: number; table: Promise<RateTable> };
// Per database handle (tests use one database each), so a handle's cache never answers for another.
const cache = new WeakMap<Db, Cached>();

/**
 * The FX table, cached per instance and checked against the database's version on every call (one
 * primary-key read instead of the whole table). The same version returns the same object, so callers
 * can memoize what they derive from it (e.g. in a WeakMap keyed by the table). The version is read
 * before the table: a change that lands in between makes the next call reload, never keeps old rates.
 */
export async function loadRateTable(db: Db): Promise<RateTable> {
  const version = await readVersion(db);
  const hit = cache.get(db);
  if (hit && hit.version === version) return hit.table;
  const table = readRateTable(db);
  const entry = { version, table };
  cache.set(db, entry);
  // A failed read is not kept: the next call tries again.
  table.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return table;
}
