// What an organization builds up while it works: saved calculations, API keys and their usage.
import { sql } from "drizzle-orm";
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { organization, roundingModes } from "./organizations";

export const savedCalculationModes = ["decimal", "currency"] as const;

/** A calculation saved from the calculator into an organization's history. */
export const savedCalculations = pgTable(
  "saved_calculations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    mode: text("mode", { enum: savedCalculationModes }).notNull(),
    expression: text("expression").notNull(),
    result: text("result").notNull(),
    precision: integer("precision").notNull(),
    rounding: text("rounding", { enum: roundingModes }).notNull(),
    currencies: text("currencies").array().notNull().default(sql`'{}'::text[]`),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by delete; cleared by undo. Deleted rows are invisible and do not count. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [index("saved_calculations_org_created_idx").on(table.organizationId, table.createdAt)],
);

/** Organization API keys: only a SHA-256 hash of the secret is kept, plus a visible prefix. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("api_keys_hash_unique").on(table.hash),
    index("api_keys_organization_id_idx").on(table.organizationId),
  ],
);

/** Keyed API calls per organization and UTC day: the monthly quota and the 30-day chart. */
export const apiUsage = pgTable(
  "api_usage",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.day] })],
);
