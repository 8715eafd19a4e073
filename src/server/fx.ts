import "server-only";
import Decimal from "decimal.js";
import { desc, eq, sql } from "drizzle-orm";
import type { RateTable } from "@/core/money/fx";
import type { ParsedRates, RateIssue, RatesSource } from "@/core/money/rates";
import { type AuditActor, writeAudit } from "./audit";
import type { Db, Tx } from "./db/client";
import { fxRateHistory, fxRates, fxRatesVersion } from "./db/schema";

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
// The version each loaded table was read at (see rateTableVersion).
const versions = new WeakMap<RateTable, number>();

/**
 * The `fx_rates_version` a table from loadRateTable was read at (its rates are of that version or
 * newer), or undefined for a table read otherwise. `/pricing` writes it into its HTML so that the
 * page cache in front of Next.js (src/edge/page-cache.ts) keeps only answers of the current version.
 */
export function rateTableVersion(table: RateTable): number | undefined {
  return versions.get(table);
}
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
  const table = readRateTable(db).then((read) => {
    versions.set(read, version);
    return read;
  });
  const entry = { version, table };
  cache.set(db, entry);
  // A failed read is not kept: the next call tries again.
  table.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return table;
}

/**
 * The FX table for a page that must render without it (calculator, pricing): null when there are
 * no rates yet or the database cannot be read; the page then says conversion is unavailable.
 */
export async function loadRatesOrNull(db: Db): Promise<RateTable | null> {
  try {
    const table = await loadRateTable(db);
    return table.date ? table : null;
  } catch (err) {
    console.error("Could not load the FX rates", err);
    return null;
  }
}

/** The current rates with their dates, by currency. */
export async function loadCurrentRates(db: Db) {
  return db
    .select({
      currency: fxRates.currency,
      rate: sql<string>`${fxRates.rate}::text`,
      date: sql<string>`${fxRates.ratesDate}::text`,
      updatedAt: fxRates.updatedAt,
    })
    .from(fxRates)
    .orderBy(fxRates.currency);
}

/** The dates the history holds, newest first, with how many rates each has. */
export async function listRateDates(db: Db, limit = 400) {
  return db
    .select({ date: sql<string>`${fxRateHistory.ratesDate}::text`, count: sql<number>`count(*)::int` })
    .from(fxRateHistory)
    .groupBy(fxRateHistory.ratesDate)
    .orderBy(desc(fxRateHistory.ratesDate))
    .limit(limit);
}

/** The rates held for one date. */
export async function loadRatesOn(db: Db, date: string) {
  return db
    .select({
      currency: fxRateHistory.currency,
      rate: sql<string>`${fxRateHistory.rate}::text`,
      source: fxRateHistory.source,
    })
    .from(fxRateHistory)
    .where(eq(fxRateHistory.ratesDate, date))
    .orderBy(fxRateHistory.currency);
}

export type CurrentChange = {
  currency: string;
  before: string | null;
  beforeDate: string | null;
  after: string;
  date: string;
};

export type RatePreview = {
  source: RatesSource;
  dates: string[];
  rowCount: number;
  issues: RateIssue[];
  /** Changes to the current table (the newest date of the file, where it is not older). */
  current: CurrentChange[];
  /** History rows that are new, that change, and that are already held with the same rate. */
  added: number;
  changed: number;
  unchanged: number;
};

const sameRate = (a: string | null | undefined, b: string) => a != null && new Decimal(a).eq(b);

/** What applying a parsed file would change, computed against the database without changing it. */
export async function previewRates(db: Pick<Db, "select">, parsed: ParsedRates): Promise<RatePreview> {
  const dates = parsed.days.map((d) => d.date);
  const held = dates.length
    ? await db
        .select({
          date: sql<string>`${fxRateHistory.ratesDate}::text`,
          currency: fxRateHistory.currency,
          rate: sql<string>`${fxRateHistory.rate}::text`,
        })
        .from(fxRateHistory)
        .where(
          sql`${fxRateHistory.ratesDate} in (${sql.join(
            dates.map((d) => sql`${d}::date`),
            sql`, `,
          )})`,
        )
    : [];
  const heldRate = new Map(held.map((h) => [`${h.date} ${h.currency}`, h.rate]));
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  for (const day of parsed.days)
    for (const [currency, rate] of Object.entries(day.rates)) {
      const before = heldRate.get(`${day.date} ${currency}`);
      if (before === undefined) added++;
      else if (sameRate(before, rate)) unchanged++;
      else changed++;
    }
  const currentRows = await db
    .select({
      currency: fxRates.currency,
      rate: sql<string>`${fxRates.rate}::text`,
      date: sql<string>`${fxRates.ratesDate}::text`,
    })
    .from(fxRates);
  const current = new Map(currentRows.map((r) => [r.currency, r]));
  // The newest rate of each currency in the file replaces the current one unless that is newer.
  const newest = new Map<string, { rate: string; date: string }>();
  for (const day of parsed.days)
    for (const [currency, rate] of Object.entries(day.rates))
      if (!newest.has(currency)) newest.set(currency, { rate, date: day.date });
  const changes: CurrentChange[] = [];
  for (const [currency, next] of [...newest.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const now = current.get(currency);
    if (now && now.date > next.date) continue;
    if (now && now.date === next.date && sameRate(now.rate, next.rate)) continue;
    changes.push({
      currency,
      before: now?.rate ?? null,
      beforeDate: now?.date ?? null,
      after: next.rate,
      date: next.date,
    });
  }
  return {
    source: parsed.source,
    dates,
    rowCount: parsed.rowCount,
    issues: [...parsed.issues],
    current: changes,
    added,
    changed,
    unchanged,
  };
}

/**
 * Applies a parsed file with no row issues: every dated rate into the history, and the newest ones
 * into the current table (see `previewRates`). One transaction, one audit row and `ratesChanged`, in one transaction.
 */
export async function applyRates(db: Db, actor: AuditActor, parsed: ParsedRates): Promise<RatePreview> {
  if (parsed.issues.length > 0) throw new Error("A file with row issues cannot be applied");
  const preview = await db.transaction(async (tx) => {
    // One import at a time, so the preview computed inside matches what is written.
    await tx.execute(sql`lock table ${fxRates} in share row exclusive mode`);
    const result = await previewRates(tx, parsed);
    const history = parsed.days.flatMap((day) =>
      Object.entries(day.rates).map(([currency, rate]) => ({
        ratesDate: day.date,
        currency,
        rate,
        source: parsed.source,
      })),
    );
    for (let i = 0; i < history.length; i += 1000) {
      await tx
        .insert(fxRateHistory)
        .values(history.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: [fxRateHistory.ratesDate, fxRateHistory.currency],
          set: { rate: sql`excluded.rate`, source: sql`excluded.source`, updatedAt: sql`now()` },
        });
    }
    if (result.current.length > 0) {
      await tx
        .insert(fxRates)
        .values(result.current.map((c) => ({ currency: c.currency, rate: c.after, ratesDate: c.date })))
        .onConflictDoUpdate({
          target: fxRates.currency,
          set: { rate: sql`excluded.rate`, ratesDate: sql`excluded.rates_date`, updatedAt: sql`now()` },
        });
    }
    await writeAudit(tx, actor, {
      action: "fx.import",
      targetType: "fx_rates",
      targetLabel: `${parsed.source === "csv" ? "CSV" : "ECB XML"}: ${describeDates(result.dates)}`,
      before: Object.fromEntries(result.current.map((c) => [c.currency, c.before])),
      after: {
        rates: Object.fromEntries(result.current.map((c) => [c.currency, c.after])),
        history: { added: result.added, changed: result.changed, unchanged: result.unchanged },
      },
    });
    await ratesChanged(tx); // with the change, so every instance sees both together
    return result;
  });
  return preview;
}

function describeDates(dates: readonly string[]): string {
  if (dates.length === 0) return "no dates";
  if (dates.length === 1) return dates[0] ?? "";
  return `${dates.length} dates, ${dates.at(-1)} to ${dates[0]}`;
}

/** Sets one currency's current rate (and the history row of `date`), audited. */
export async function setRate(
  db: Db,
  actor: AuditActor,
  input: { currency: string; rate: string; date: string },
): Promise<{ before: string | null; after: string }> {
  const result = await db.transaction(async (tx) => {
    const [now] = await tx
      .select({ rate: sql<string>`${fxRates.rate}::text`, date: sql<string>`${fxRates.ratesDate}::text` })
      .from(fxRates)
      .where(eq(fxRates.currency, input.currency))
      .for("update");
    await tx
      .insert(fxRates)
      .values({ currency: input.currency, rate: input.rate, ratesDate: input.date })
      .onConflictDoUpdate({
        target: fxRates.currency,
        set: { rate: input.rate, ratesDate: input.date, updatedAt: sql`now()` },
      });
    await tx
      .insert(fxRateHistory)
      .values({ currency: input.currency, rate: input.rate, ratesDate: input.date, source: "manual" })
      .onConflictDoUpdate({
        target: [fxRateHistory.ratesDate, fxRateHistory.currency],
        set: { rate: input.rate, source: "manual", updatedAt: sql`now()` },
      });
    await writeAudit(tx, actor, {
      action: "fx.edit",
      targetType: "fx_rates",
      targetId: input.currency,
      targetLabel: input.currency,
      before: now ? { rate: now.rate, date: now.date } : null,
      after: { rate: input.rate, date: input.date },
    });
    await ratesChanged(tx);
    return { before: now?.rate ?? null, after: input.rate };
  });
  return result;
}
