// Notebook sheets saved to an organization: readable and editable by every member.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { LIMITS } from "../../../core/decimal/limits";
import { SHEET_ROW_LIMITS } from "../../../core/notebook/limits";
import { user } from "./auth";
import { oneOf } from "./checks";
import { organization, roundingModes } from "./organizations";

export const sheets = pgTable(
  "sheets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    body: text("body").notNull().default(""),
    precision: integer("precision").notNull(),
    rounding: text("rounding", { enum: roundingModes }).notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by delete, cleared by undo; deleted sheets are invisible, do not count, and are purged later. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    index("sheets_org_updated_idx").on(table.organizationId, table.updatedAt),
    check("sheets_title_length_check", sql.raw(`char_length("title") <= ${SHEET_ROW_LIMITS.titleChars}`)),
    check("sheets_body_bytes_check", sql.raw(`octet_length("body") <= ${SHEET_ROW_LIMITS.bodyBytes}`)),
    check(
      "sheets_precision_check",
      sql`${table.precision} between ${sql.raw(String(LIMITS.minPrecision))} and ${sql.raw(String(LIMITS.maxPrecision))}`,
    ),
    check("sheets_rounding_check", oneOf(table.rounding, roundingModes)),
  ],
);
