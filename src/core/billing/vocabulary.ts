/**
 * The states and kinds billing records take, each listed once. The database columns (and any CHECK
 * constraint on them) derive from these arrays.
 */
export { PAID_PLAN_IDS, type PaidPlanId } from "./plans";

export const ORDER_STATUSES = ["pending", "paid", "failed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ["active", "ended"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** "unknown": the attempt was made but the provider's answer is not known yet (order pending). */
export const PAYMENT_STATUSES = ["succeeded", "failed", "unknown"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const TAX_TREATMENTS = ["exclusive", "inclusive"] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
