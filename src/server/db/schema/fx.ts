// Exchange rates: units of `currency` per 1 EUR, as exact decimals (ECB reference-rate convention).
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { FX_RATE_SOURCES } from "../../../core/money/rate-sources";

export const fxRates = pgTable(
  "fx_rates",
  {
    currency: text("currency").primaryKey(),
    rate: numeric("rate").notNull(),
    ratesDate: date("rates_date").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("fx_rates_currency_check", sql`${table.currency} ~ '^[A-Z]{3}$' and ${table.currency} <> 'EUR'`),
    check("fx_rates_rate_check", sql`${table.rate} > 0`),
  ],
);

/** Every dated rate the instance has held (units of `currency` per 1 EUR); `fx_rates` is the current set. */
export const fxRateHistory = pgTable(
  "fx_rate_history",
  {
    ratesDate: date("rates_date").notNull(),
    currency: text("currency").notNull(),
    rate: numeric("rate").notNull(),
    source: text("source", { enum: FX_RATE_SOURCES }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.ratesDate, table.currency] }),
    check(
      "fx_rate_history_currency_check",
      sql`${table.currency} ~ '^[A-Z]{3}$' and ${table.currency} <> 'EUR'`,
    ),
    check("fx_rate_history_rate_check", sql`${table.rate} > 0`),
  ],
);

/**
 * One row: the FX table's version, bumped by `ratesChanged()` whenever rates are imported or edited.
 * Every instance compares it with the version of its cached rate table on each use (a primary-key
 * read), so no instance serves prices older than the last change.
 */
export const fxRatesVersion = pgTable(
  "fx_rates_version",
  {
    id: integer("id").primaryKey().default(1),
    version: bigint("version", { mode: "number" }).notNull().default(0),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("fx_rates_version_single_row", sql`${table.id} = 1`)],
);
