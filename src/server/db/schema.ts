import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { MEMBER_ROLES, PLATFORM_ROLES } from "../../core/auth/roles";
import { ONBOARDING_STEPS } from "../../core/onboarding/steps";
import { ROUNDING_MODES } from "../../core/rounding";

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
  // issue 10: Better Auth's two-factor plugin keeps this flag on the user.
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
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

// ---- issue 13: administration (audit log, FX rate history)

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

/** Every dated rate the instance has held (units of `currency` per 1 EUR); `fx_rates` is the current set. */
export const fxRateHistory = pgTable(
  "fx_rate_history",
  {
    ratesDate: date("rates_date").notNull(),
    currency: text("currency").notNull(),
    rate: numeric("rate").notNull(),
    source: text("source", { enum: ["ecb-xml", "csv", "manual", "seed"] }).notNull(),
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

// ---- issue 11: checkout, billing and receipts
// Money is integer minor units (bigint) plus an ISO 4217 code; rates are exact numerics. No card
// number is ever stored: payments keep the brand and the last four digits only.

export const billingIntervals = ["monthly", "yearly"] as const;
export const paidPlans = ["pro", "team"] as const;
export const orderStatuses = ["pending", "paid", "failed"] as const;

/** An organization's paid plan (at most one row per organization; no row means Free). */
export const subscriptions = pgTable("subscriptions", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  plan: text("plan", { enum: paidPlans }).notNull(),
  interval: text("interval", { enum: billingIntervals }).notNull(),
  currency: text("currency").notNull(),
  status: text("status", { enum: ["active", "ended"] }).notNull(),
  currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
  /** A downgrade (Team to Pro) that takes effect at the end of the current period. */
  scheduledPlan: text("scheduled_plan", { enum: paidPlans }),
  lastOrderId: uuid("last_order_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    idempotencyKey: text("idempotency_key").notNull(),
    plan: text("plan", { enum: paidPlans }).notNull(),
    interval: text("interval", { enum: billingIntervals }).notNull(),
    currency: text("currency").notNull(),
    netMinor: bigint("net_minor", { mode: "bigint" }).notNull(),
    taxMinor: bigint("tax_minor", { mode: "bigint" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "bigint" }).notNull(),
    taxRate: numeric("tax_rate").notNull(),
    taxTreatment: text("tax_treatment", { enum: ["exclusive", "inclusive"] }).notNull(),
    basePriceUsd: numeric("base_price_usd").notNull(),
    fxRate: numeric("fx_rate").notNull(),
    fxDate: date("fx_date"),
    billingName: text("billing_name").notNull(),
    billingCountry: text("billing_country").notNull(),
    vatId: text("vat_id"),
    status: text("status", { enum: orderStatuses }).notNull().default("pending"),
    failureCode: text("failure_code"),
    failureReason: text("failure_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("orders_org_idempotency_unique").on(table.organizationId, table.idempotencyKey),
    index("orders_org_created_idx").on(table.organizationId, table.createdAt),
    index("orders_status_paid_idx").on(table.status, table.paidAt),
    check("orders_amounts_check", sql`${table.netMinor} + ${table.taxMinor} = ${table.totalMinor}`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    /** "unknown": the attempt was made but the provider's answer is not known yet (order pending). */
    status: text("status", { enum: ["succeeded", "failed", "unknown"] }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    cardBrand: text("card_brand").notNull(),
    cardLast4: text("card_last4").notNull(),
    failureCode: text("failure_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payments_order_idx").on(table.orderId),
    check("payments_last4_check", sql`${table.cardLast4} ~ '^[0-9]{4}$'`),
  ],
);

/** The instance's receipt keys, current and retired: public halves only, so old receipts verify. */
export const receiptKeys = pgTable("receipt_keys", {
  kid: text("kid").primaryKey(),
  publicKeyPem: text("public_key_pem").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});

export const receipts = pgTable(
  "receipts",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    receiptNumber: text("receipt_number").notNull().unique(),
    kid: text("kid")
      .notNull()
      .references(() => receiptKeys.kid),
    /** The canonical JSON exactly as signed. */
    payload: text("payload").notNull(),
    /** Ed25519 signature of `payload`'s UTF-8 bytes, base64. */
    signature: text("signature").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("receipts_org_idx").on(table.organizationId, table.issuedAt)],
);

// ---- issue 10: accounts (mail outbox, security events, two-factor, passkeys)

export const mailKinds = [
  "verify-email",
  "account-exists",
  "reset-password",
  "change-email",
  "invitation",
  "security",
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

export const securityEventKinds = [
  "new-device-sign-in",
  "password-changed",
  "password-reset",
  "email-changed",
  "two-factor-enabled",
  "two-factor-disabled",
  "passkey-added",
  "passkey-removed",
  "email-confirmed",
  "first-sign-in",
] as const;

/** What happened to an account's security, listed in the profile and emailed to the user. */
export const securityEvents = pgTable(
  "security_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: securityEventKinds }).notNull(),
    detail: text("detail"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index("security_events_user_idx").on(table.userId, table.createdAt)],
);

/** Better Auth's two-factor plugin: the TOTP secret and backup codes (both encrypted by it). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [
    index("two_factor_user_id_idx").on(table.userId),
    index("two_factor_secret_idx").on(table.secret),
  ],
);

/** Better Auth's passkey plugin: WebAuthn credentials that sign a user in without a password. */
export const passkey = pgTable(
  "passkey",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow(),
    aaguid: text("aaguid"),
  },
  (table) => [
    index("passkey_user_id_idx").on(table.userId),
    index("passkey_credential_id_idx").on(table.credentialID),
  ],
);

// ---- issue 17: server speed, memory and several instances
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

// ---- issue 12: dashboard, API keys, plan quotas and saved calculations

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
