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
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { BILLING_INTERVALS } from "../../../core/billing/plans";
import {
  ORDER_STATUSES,
  PAID_PLAN_IDS,
  PAYMENT_STATUSES,
  SUBSCRIPTION_STATUSES,
  TAX_TREATMENTS,
} from "../../../core/billing/vocabulary";
import { user } from "./auth";
import { organization } from "./organizations";

export const billingIntervals = BILLING_INTERVALS;
export const paidPlans = PAID_PLAN_IDS;
export const orderStatuses = ORDER_STATUSES;

/** An organization's paid plan (at most one row per organization; no row means Free). */
export const subscriptions = pgTable("subscriptions", {
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
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

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
  },
  (table) => [
    uniqueIndex("orders_org_idempotency_unique").on(table.organizationId, table.idempotencyKey),
    // Each period of a subscription is renewed at most once.
    uniqueIndex("orders_renewal_period_unique").on(table.organizationId, table.periodStart),
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
