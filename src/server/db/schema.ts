import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { MEMBER_ROLES, PLATFORM_ROLES } from "../../core/auth/roles";
import { PLAN_IDS } from "../../core/billing/plans";
import { ROUNDING_MODES } from "../../core/decimal/rounding";
import { ONBOARDING_STEPS } from "../../core/onboarding/steps";

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

// ---------------------------------------------------------------------------------------------
// Accounts and organizations. Better Auth reads and writes these through its Drizzle adapter:
// the JavaScript keys are its field names; the columns are ours (snake_case). Columns Better Auth
// does not know (onboarding, organization preferences) have defaults, so its inserts still work.

// The vocabularies live in src/core; the columns derive from them (relative imports: drizzle-kit
// loads this file without the `@/` alias).
export const onboardingSteps = [...ONBOARDING_STEPS, "done"] as const;

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  role: text("role", { enum: PLATFORM_ROLES }).notNull().default("user"),
  banned: boolean("banned").notNull().default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  onboardingStep: text("onboarding_step", { enum: onboardingSteps }).notNull().default("profile"),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    activeOrganizationId: text("active_organization_id"),
    impersonatedBy: text("impersonated_by"),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

export const roundingModes = ROUNDING_MODES;

export const organization = pgTable("organization", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  logo: text("logo"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  metadata: text("metadata"),
  defaultCurrency: text("default_currency").notNull().default("USD"),
  roundingMode: text("rounding_mode", { enum: roundingModes }).notNull().default("half-even"),
  precision: integer("precision").notNull().default(20),
});

export const memberRoles = MEMBER_ROLES;

export const member = pgTable(
  "member",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: memberRoles }).notNull().default("member"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("member_organization_id_idx").on(table.organizationId),
    uniqueIndex("member_user_org_unique").on(table.userId, table.organizationId),
  ],
);

export const invitation = pgTable(
  "invitation",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: memberRoles }),
    status: text("status").notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    inviterId: text("inviter_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (table) => [
    index("invitation_organization_id_idx").on(table.organizationId),
    index("invitation_email_idx").on(table.email),
  ],
);

// ---------------------------------------------------------------------------------------------
// FX rates: units of `currency` per 1 EUR, as exact decimals (ECB reference-rate convention).

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

// ---------------------------------------------------------------------------------------------
// Error reporting kept by the instance itself (no SENTRY_DSN), and first-party page views.

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

// ---- issue 12: dashboard, API keys, plan quotas and saved calculations

/**
 * The plan in force for an organization (absent: Free). Checkout (issue 11) writes it when an
 * order is paid; the seed puts the demo organization on a plan that fits its members.
 */
export const organizationPlan = pgTable("organization_plan", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  plan: text("plan", { enum: PLAN_IDS }).notNull().default("free"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

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
