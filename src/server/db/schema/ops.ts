// What the instance keeps about its own running: rate-limit events, error reports, page views, the
// admin audit log and the mail outbox.
import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

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

export const monitoringEvents = pgTable(
  "monitoring_events",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text("event_id"),
    type: text("type").notNull(),
    level: text("level"),
    message: text("message"),
    url: text("url"),
    release: text("release"),
    environment: text("environment"),
    traceId: text("trace_id"),
    payload: text("payload"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("monitoring_events_received_at_idx").on(table.receivedAt)],
);

/** Page views per day and path; no cookie, IP address or user agent is stored. */
export const pageViews = pgTable(
  "page_views",
  {
    day: date("day").notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.path] })],
);

/**
 * Every platform-admin action: who did what to whom, when, with the state before and after.
 * Actor and target are copied as text (no foreign keys), so the record outlives a deleted user.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    /** The session was an impersonation started by this admin (null otherwise). */
    impersonatedBy: text("impersonated_by"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (table) => [
    index("audit_log_at_idx").on(table.at),
    index("audit_log_action_idx").on(table.action, table.at),
    index("audit_log_target_idx").on(table.targetId, table.at),
  ],
);

export const mailKinds = [
  "verify-email",
  "account-exists",
  "reset-password",
  "change-email",
  "invitation",
  "security",
  "billing",
] as const;
export const mailStatuses = ["kept", "sent", "failed"] as const;

/**
 * Every message the instance sends, whether or not SMTP_URL is set: without a mail server the
 * outbox is where platform admins read them (/admin/outbox); with one, the row records delivery.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    kind: text("kind", { enum: mailKinds }).notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status", { enum: mailStatuses }).notNull().default("kept"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("mail_outbox_created_at_idx").on(table.createdAt),
    index("mail_outbox_to_idx").on(table.to, table.createdAt),
  ],
);
