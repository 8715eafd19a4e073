import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const contactTopics = ["sales", "support", "billing", "other"] as const;

/** Messages sent through /contact; read and marked handled in the admin inbox. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    topic: text("topic", { enum: contactTopics }).notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (table) => [
    index("contact_messages_created_at_idx").on(table.createdAt),
    check("contact_messages_topic_check", sql`${table.topic} in ('sales', 'support', 'billing', 'other')`),
  ],
);

/**
 * Sliding-window rate limiting shared by every app instance: one row per counted event.
 * `subject` is a keyed hash of the client (never a raw IP address).
 */
export const rateLimitEvents = pgTable(
  "rate_limit_events",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    bucket: text("bucket").notNull(),
    subject: text("subject").notNull(),
    at: timestamp("at", { withTimezone: true, precision: 6 }).notNull().default(sql`clock_timestamp()`),
  },
  (table) => [index("rate_limit_events_lookup_idx").on(table.bucket, table.subject, table.at)],
);
