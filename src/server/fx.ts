import "server-only";
import { sql } from "drizzle-orm";
import type { RateTable } from "@/core/money/fx";
import type { Db } from "./db/client";
import { fxRates } from "./db/schema";

/**
 * The instance's FX table (base EUR), rates as exact decimal strings. `numeric::text` keeps every
 * digit PostgreSQL stored; nothing passes through a binary float.
 */
export async function loadRateTable(db: Db): Promise<RateTable> {
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
