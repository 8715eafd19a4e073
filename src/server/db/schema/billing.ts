// Checkout, billing and receipts. Money is integer minor units (bigint) plus an ISO 4217 code;
// rates are exact numerics. No card number is ever stored: payments keep the brand and the last
// four digits only. Financial records (orders, payments, receipts) are never deleted with the
// organization or the user that made them: they reference neither through a cascading key.
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
import { BILLING_INTERVALS } from "../../../core/billing/plans";
import {
  COUPON_DURATIONS,
  COUPON_KINDS,
  CREDIT_NOTE_STATUSES,
  INVOICE_LINE_KINDS,
  INVOICE_STATUSES,
  ORDER_KINDS,
  ORDER_STATUSES,
  PAID_PLAN_IDS,
  PAYMENT_STATUSES,
  SUBSCRIPTION_STATUSES,
  TAX_TREATMENTS,
} from "../../../core/billing/vocabulary";
import { user } from "./auth";
import { oneOf } from "./checks";
import { organization } from "./organizations";

export const billingIntervals = BILLING_INTERVALS;
export const paidPlans = PAID_PLAN_IDS;
export const orderStatuses = ORDER_STATUSES;

/** An organization's paid plan (at most one row per organization; no row means Free). */
export const subscriptions = pgTable(
  "subscriptions",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    plan: text("plan", { enum: paidPlans }).notNull(),
    interval: text("interval", { enum: billingIntervals }).notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** A downgrade (Team to Pro) that takes effect at the end of the current period. */
    scheduledPlan: text("scheduled_plan", { enum: paidPlans }),
    lastOrderId: uuid("last_order_id"),
    /** The coupon whose discount applies to the coming charges, if any. */
    couponId: uuid("coupon_id").references(() => coupons.id, { onDelete: "restrict" }),
    /** Charges the coupon still discounts; null with a coupon means every charge (forever). */
    discountPeriodsLeft: integer("discount_periods_left"),
    /** Declined renewal attempts of the current period so far (dunning); 0 when paid up. */
    dunningAttempt: integer("dunning_attempt").notNull().default(0),
    /** When past_due: when the clock tries the card again; null after the last attempt. */
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("subscriptions_status_check", oneOf(table.status, SUBSCRIPTION_STATUSES)),
    check("subscriptions_dunning_attempt_check", sql`${table.dunningAttempt} >= 0`),
    check(
      "subscriptions_discount_periods_check",
      sql`${table.discountPeriodsLeft} is null or ${table.discountPeriodsLeft} >= 0`,
    ),
    check("subscriptions_cancel_reason_check", sql`char_length(${table.cancelReason}) <= 500`),
    index("subscriptions_due_idx").on(table.status, table.currentPeriodEnd),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The organization that bought, as plain text: no foreign key, so the order (and its payments,
     * receipt and the revenue it counts for) outlives the organization. The billing name it was
     * issued to is kept on the order itself.
     */
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    idempotencyKey: text("idempotency_key").notNull(),
    plan: text("plan", { enum: paidPlans }).notNull(),
    interval: text("interval", { enum: billingIntervals }).notNull(),
    currency: text("currency").notNull(),
    netMinor: bigint("net_minor", { mode: "bigint" }).notNull(),
    taxMinor: bigint("tax_minor", { mode: "bigint" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "bigint" }).notNull(),
    taxRate: numeric("tax_rate").notNull(),
    taxTreatment: text("tax_treatment", { enum: TAX_TREATMENTS }).notNull(),
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
    /** A renewal: the start of the period it pays for (null for a checkout, whose period starts when paid). */
    periodStart: timestamp("period_start", { withTimezone: true }),
    /**
     * While in the future, one instance is charging this renewal outside any transaction; the others
     * leave it alone. Past (the instance died), the next run charges it again under the same key.
     */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    kind: text("kind", { enum: ORDER_KINDS }).notNull().default("purchase"),
    /** The end of the period paid for (renewal, proration: the current period's end). */
    periodEnd: timestamp("period_end", { withTimezone: true }),
    /**
     * Net amounts before tax, in minor units: the plan's price for the period (or, for a proration,
     * the charge for the new plan's remaining time), minus the unused old plan's credit, minus the
     * coupon's discount, is `net_minor`.
     */
    subtotalMinor: bigint("subtotal_minor", { mode: "bigint" }).notNull(),
    creditMinor: bigint("credit_minor", { mode: "bigint" }).notNull().default(sql`0`),
    discountMinor: bigint("discount_minor", { mode: "bigint" }).notNull().default(sql`0`),
    couponId: uuid("coupon_id").references(() => coupons.id, { onDelete: "restrict" }),
    /** An EU business customer in another member state than the seller: 0 % tax, reverse charge. */
    reverseCharge: boolean("reverse_charge").notNull().default(false),
  },
  (table) => [
    uniqueIndex("orders_org_idempotency_unique").on(table.organizationId, table.idempotencyKey),
    // Each period of a subscription is renewed at most once.
    uniqueIndex("orders_renewal_period_unique")
      .on(table.organizationId, table.periodStart)
      .where(sql`${table.kind} = 'renewal'`),
    check("orders_kind_check", oneOf(table.kind, ORDER_KINDS)),
    check("orders_status_check", oneOf(table.status, ORDER_STATUSES)),
    check(
      "orders_net_check",
      sql`${table.subtotalMinor} - ${table.creditMinor} - ${table.discountMinor} = ${table.netMinor}`,
    ),
    check("orders_credit_discount_check", sql`${table.creditMinor} >= 0 and ${table.discountMinor} >= 0`),
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
      .references(() => orders.id, { onDelete: "restrict" }),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    /** "unknown": the attempt was made but the provider's answer is not known yet (order pending). */
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
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

/**
 * An organization's card on file: the provider's reusable reference to it, and the brand, last four
 * digits and expiry a customer recognises it by. Never the number. One per organization; checkout
 * replaces it. Unlike the financial records it goes with the organization.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerReference: text("customer_reference"),
    methodReference: text("method_reference").notNull(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("payment_methods_last4_check", sql`${table.last4} ~ '^[0-9]{4}$'`),
    check("payment_methods_exp_month_check", sql`${table.expMonth} between 1 and 12`),
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
      .references(() => orders.id, { onDelete: "restrict" }),
    /** Plain text like the order's: a receipt is kept when its organization is deleted. */
    organizationId: text("organization_id").notNull(),
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

/**
 * A numbered document series per calendar year (`INV-2026`, `CN-2026`) and the last number it gave.
 * The number is taken by `update … set last_value = last_value + 1 … returning` in the transaction
 * that finalizes the document, so a rolled-back finalization gives its number back: no gaps.
 */
export const documentSequences = pgTable(
  "document_sequences",
  {
    series: text("series").primaryKey(),
    lastValue: bigint("last_value", { mode: "bigint" }).notNull().default(sql`0`),
  },
  (table) => [check("document_sequences_last_value_check", sql`${table.lastValue} >= 0`)],
);

/**
 * One invoice per order. A draft until the order is paid; then it takes its number and is never
 * changed again. It copies the billing details and amounts it was issued with, so it outlives the
 * organization (plain-text organization id, no foreign key) and later edits of the billing profile.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    organizationId: text("organization_id").notNull(),
    /** `INV-2026-000042`; null until the invoice is paid (drafts and void invoices have none). */
    number: text("number").unique(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("draft"),
    currency: text("currency").notNull(),
    subtotalMinor: bigint("subtotal_minor", { mode: "bigint" }).notNull(),
    creditMinor: bigint("credit_minor", { mode: "bigint" }).notNull().default(sql`0`),
    discountMinor: bigint("discount_minor", { mode: "bigint" }).notNull().default(sql`0`),
    netMinor: bigint("net_minor", { mode: "bigint" }).notNull(),
    taxMinor: bigint("tax_minor", { mode: "bigint" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "bigint" }).notNull(),
    taxRate: numeric("tax_rate").notNull(),
    reverseCharge: boolean("reverse_charge").notNull().default(false),
    billingName: text("billing_name").notNull(),
    billingCountry: text("billing_country").notNull(),
    vatId: text("vat_id"),
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finalizedAt: timestamp("finalized_at", { withTimezone: true }),
    voidedAt: timestamp("voided_at", { withTimezone: true }),
  },
  (table) => [
    index("invoices_org_idx").on(table.organizationId, table.createdAt),
    check("invoices_status_check", oneOf(table.status, INVOICE_STATUSES)),
    check(
      "invoices_number_check",
      sql`(${table.status} = 'paid') = (${table.number} is not null and ${table.finalizedAt} is not null)`,
    ),
    check("invoices_totals_check", sql`${table.netMinor} + ${table.taxMinor} = ${table.totalMinor}`),
    check(
      "invoices_net_check",
      sql`${table.subtotalMinor} - ${table.creditMinor} - ${table.discountMinor} = ${table.netMinor}`,
    ),
  ],
);

/** An invoice's lines, in order. Credits and discounts are negative; the lines sum to the total. */
export const invoiceLines = pgTable(
  "invoice_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    position: integer("position").notNull(),
    kind: text("kind", { enum: INVOICE_LINE_KINDS }).notNull(),
    description: text("description").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
  },
  (table) => [
    uniqueIndex("invoice_lines_position_unique").on(table.invoiceId, table.position),
    check("invoice_lines_kind_check", oneOf(table.kind, INVOICE_LINE_KINDS)),
    check("invoice_lines_description_check", sql`char_length(${table.description}) between 1 and 300`),
  ],
);

/**
 * A refund of (part of) a paid invoice, as a credit note with its own gap-free series. Pending while
 * the provider is asked (outside any lock), then issued with its number and signature, or failed.
 * Pending and issued notes of an invoice never total more than the invoice.
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    organizationId: text("organization_id").notNull(),
    /** `CN-2026-000001`; null unless issued. */
    number: text("number").unique(),
    status: text("status", { enum: CREDIT_NOTE_STATUSES }).notNull().default("pending"),
    currency: text("currency").notNull(),
    netMinor: bigint("net_minor", { mode: "bigint" }).notNull(),
    taxMinor: bigint("tax_minor", { mode: "bigint" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "bigint" }).notNull(),
    reason: text("reason").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    failureCode: text("failure_code"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    issuedAt: timestamp("issued_at", { withTimezone: true }),
    /** The signed credit note: canonical JSON exactly as signed, its Ed25519 signature and key id. */
    kid: text("kid").references(() => receiptKeys.kid),
    payload: text("payload"),
    signature: text("signature"),
  },
  (table) => [
    index("credit_notes_invoice_idx").on(table.invoiceId),
    index("credit_notes_org_idx").on(table.organizationId, table.createdAt),
    check("credit_notes_status_check", oneOf(table.status, CREDIT_NOTE_STATUSES)),
    check("credit_notes_totals_check", sql`${table.netMinor} + ${table.taxMinor} = ${table.totalMinor}`),
    check(
      "credit_notes_positive_check",
      sql`${table.totalMinor} > 0 and ${table.netMinor} >= 0 and ${table.taxMinor} >= 0`,
    ),
    check(
      "credit_notes_number_check",
      sql`(${table.status} = 'issued') = (${table.number} is not null and ${table.issuedAt} is not null)`,
    ),
    check("credit_notes_reason_check", sql`char_length(${table.reason}) between 1 and 500`),
  ],
);

/**
 * Coupons (promotion codes), created by a platform admin: a percentage, or a fixed amount per
 * currency (`coupon_amounts`), for the first charge, N charges or every charge.
 */
export const coupons = pgTable(
  "coupons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Upper case, letters, digits and dashes; what a customer types at checkout. */
    code: text("code").notNull().unique(),
    kind: text("kind", { enum: COUPON_KINDS }).notNull(),
    /** For a percent coupon: the exact percentage off (0 < p ≤ 100). */
    percentOff: numeric("percent_off"),
    duration: text("duration", { enum: COUPON_DURATIONS }).notNull(),
    /** For a repeating coupon: how many charges it discounts. */
    durationPeriods: integer("duration_periods"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    maxRedemptions: integer("max_redemptions"),
    redemptionCount: integer("redemption_count").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("coupons_code_check", sql`${table.code} ~ '^[A-Z0-9][A-Z0-9-]{1,39}$'`),
    check("coupons_kind_check", oneOf(table.kind, COUPON_KINDS)),
    check("coupons_duration_check", oneOf(table.duration, COUPON_DURATIONS)),
    check(
      "coupons_percent_check",
      sql`(${table.kind} = 'percent') = (${table.percentOff} is not null) and (${table.percentOff} is null or (${table.percentOff} > 0 and ${table.percentOff} <= 100))`,
    ),
    check(
      "coupons_periods_check",
      sql`(${table.duration} = 'repeating') = (${table.durationPeriods} is not null) and (${table.durationPeriods} is null or ${table.durationPeriods} > 0)`,
    ),
    check(
      "coupons_redemptions_check",
      sql`${table.redemptionCount} >= 0 and (${table.maxRedemptions} is null or (${table.maxRedemptions} > 0 and ${table.redemptionCount} <= ${table.maxRedemptions}))`,
    ),
  ],
);

/** A fixed-amount coupon's amount in each currency it can be used in. */
export const couponAmounts = pgTable(
  "coupon_amounts",
  {
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.couponId, table.currency] }),
    check("coupon_amounts_positive_check", sql`${table.amountMinor} > 0`),
  ],
);

/** Each use of a coupon: by one organization, once, on the order that redeemed it. */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "restrict" }),
    organizationId: text("organization_id").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("coupon_redemptions_org_unique").on(table.couponId, table.organizationId)],
);

/**
 * An organization's billing details for its next invoices (name, country, VAT ID, an address and an
 * email for invoices). Issued invoices keep the copy they were issued with.
 */
export const billingProfiles = pgTable(
  "billing_profiles",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    country: text("country").notNull(),
    vatId: text("vat_id"),
    address: text("address"),
    email: text("email"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("billing_profiles_name_check", sql`char_length(${table.name}) between 1 and 200`),
    check("billing_profiles_country_check", sql`${table.country} ~ '^[A-Z]{2}$'`),
    check("billing_profiles_address_check", sql`char_length(${table.address}) <= 500`),
  ],
);
