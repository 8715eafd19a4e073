/**
 * The states and kinds billing records take, each listed once. The database columns (and any CHECK
 * constraint on them) derive from these arrays.
 */
export { PAID_PLAN_IDS, type PaidPlanId } from "./plans";

export const ORDER_STATUSES = ["pending", "paid", "failed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * "past_due": the renewal of the current period was declined and is being retried (dunning); the
 * organization keeps its plan only until the period it paid for ends.
 */
export const SUBSCRIPTION_STATUSES = ["active", "past_due", "ended"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** "unknown": the attempt was made but the provider's answer is not known yet (order pending). */
export const PAYMENT_STATUSES = ["succeeded", "failed", "unknown"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** What an order pays for: a first purchase, the renewal of a period, or a mid-period upgrade. */
export const ORDER_KINDS = ["purchase", "renewal", "proration"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/**
 * An invoice is a draft while its order is unpaid, takes the next number of its series when it is
 * paid (finalized), and is void when its order fails for good. Only paid invoices have numbers.
 */
export const INVOICE_STATUSES = ["draft", "paid", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Invoice lines; credits and discounts are negative amounts, and the lines sum to the total. */
export const INVOICE_LINE_KINDS = [
  "plan",
  "proration_credit",
  "proration_charge",
  "discount",
  "tax",
] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/**
 * A credit note (a refund) is pending while the provider is asked, issued (numbered) when the
 * refund went through, failed otherwise. Only issued credit notes have numbers.
 */
export const CREDIT_NOTE_STATUSES = ["pending", "issued", "failed"] as const;
export type CreditNoteStatus = (typeof CREDIT_NOTE_STATUSES)[number];

/** Numbered document series, each gap-free per calendar year: `INV-2026-000042`, `CN-2026-000001`. */
export const DOCUMENT_SERIES = ["INV", "CN"] as const;
export type DocumentSeries = (typeof DOCUMENT_SERIES)[number];

export const COUPON_KINDS = ["percent", "fixed"] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** How long a coupon's discount lasts: the first charge, N charges, or every charge. */
export const COUPON_DURATIONS = ["once", "repeating", "forever"] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];

export const TAX_TREATMENTS = ["exclusive", "inclusive"] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
