import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { CheckedCard } from "@/core/billing/card";
import type { CouponTerms } from "@/core/billing/coupon";
import type { Quote } from "@/core/billing/pricing";
import type { Db, Tx } from "@/server/db/client";
import { orders, payments, subscriptions } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { lockCoupon, recordRedemption, saveBillingDetails } from "./coupons";
import { type CheckoutOutcome, lockOrganizationBilling, type OrderRow, outcomeOf } from "./outcome";

export interface CheckoutRequest {
  organization: { id: string; name: string };
  userId: string;
  idempotencyKey: string;
  plan: "pro" | "team";
  interval: "monthly" | "yearly";
  currency: string;
  billing: { name: string; country: string; vatId: string | null };
  card: CheckedCard;
  /** A promotion code as typed (normalized upper case), or null. */
  couponCode?: string | null;
}

/** Either the request is answered already (a settled or refused order), or this order is to be charged. */
/**
 * An order's amount columns, as the quote computed them: the one mapping from a quote to what an
 * order stores, for a checkout and a renewal alike.
 */
export function orderAmounts(q: Quote) {
  return {
    currency: q.total.currency,
    subtotalMinor: q.subtotal.amount,
    discountMinor: q.discount.amount,
    couponId: q.coupon?.id ?? null,
    reverseCharge: q.reverseCharge,
    netMinor: q.net.amount,
    taxMinor: q.tax.amount,
    totalMinor: q.total.amount,
    taxRate: q.taxRate,
    taxTreatment: q.treatment,
    basePriceUsd: q.usd,
    fxRate: q.fxRate,
    fxDate: q.fxDate || null,
  };
}

export type Placement = { done: CheckoutOutcome } | { order: OrderRow };

/**
 * Places the order as `pending`, with its payment attempt (brand and last four only), committed
 * before any money moves, so a charge whose answer is lost always has an order a retry or a webhook
 * can settle. An existing order under the same key is returned instead (or its outcome, once settled).
 *
 * A promotion code is checked again here with the coupon's row locked, and its redemption (row and
 * count) is written with the order, so the cap holds under any concurrency; `priceWith` prices the
 * order with the coupon's terms. The billing details are kept for renewals (the billing profile).
 */
export async function placeOrder(
  db: Db,
  provider: Pick<PaymentProvider, "id">,
  request: CheckoutRequest,
  priceWith: (coupon: CouponTerms | null) => Quote,
  now: () => Date,
): Promise<Placement> {
  const orgId = request.organization.id;
  return db.transaction(async (tx): Promise<Placement> => {
    await lockOrganizationBilling(tx, orgId);
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.idempotencyKey, request.idempotencyKey)));
    if (existing) {
      if (existing.status !== "pending") return { done: await outcomeOf(tx, existing) };
      const mismatch = await retryMismatch(tx, existing, request);
      return mismatch ? { done: mismatch } : { order: existing };
    }
    const [pending] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.status, "pending")))
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (pending) {
      return {
        done: {
          status: "pending",
          orderId: pending.id,
          // A renewal stays pending while its declined payment waits for its next retry (past due).
          reason:
            pending.kind === "renewal"
              ? "This organization's plan renewal is past due and is being retried. Update the card on the billing page to pay it now; nothing new was charged."
              : "An earlier payment for this organization is still being confirmed. Reload checkout to check on it; nothing new was charged.",
        },
      };
    }
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId));
    if (
      sub?.status === "active" &&
      sub.plan === request.plan &&
      sub.interval === request.interval &&
      !sub.cancelAtPeriodEnd &&
      !sub.scheduledPlan &&
      sub.currentPeriodEnd > now() &&
      sub.lastOrderId
    ) {
      const [last] = await tx.select().from(orders).where(eq(orders.id, sub.lastOrderId));
      if (last) return { done: { ...(await outcomeOf(tx, last)), alreadyActive: true } as CheckoutOutcome };
    }
    let coupon: CouponTerms | null = null;
    if (request.couponCode) {
      const redeemable = await lockCoupon(tx, {
        code: request.couponCode.trim().toUpperCase(),
        organizationId: orgId,
        currency: request.currency,
        now: now(),
      });
      if (!redeemable.ok)
        return { done: { status: "invalid", message: redeemable.error, field: "couponCode" } };
      coupon = redeemable.terms;
    }
    const q = priceWith(coupon);
    const [order] = await tx
      .insert(orders)
      .values({
        organizationId: orgId,
        userId: request.userId,
        idempotencyKey: request.idempotencyKey,
        plan: request.plan,
        interval: request.interval,
        ...orderAmounts(q),
        billingName: request.billing.name,
        billingCountry: q.country,
        vatId: q.vatId,
        status: "pending",
      })
      .returning();
    if (!order) throw new Error("The order was not inserted");
    if (order.couponId) await recordRedemption(tx, order.couponId, orgId, order.id);
    await saveBillingDetails(tx, orgId, { name: request.billing.name, country: q.country, vatId: q.vatId });
    // The attempt, before any money moves: "unknown" until the provider answers.
    await tx.insert(payments).values({
      orderId: order.id,
      provider: provider.id,
      status: "unknown",
      amountMinor: order.totalMinor,
      currency: order.currency,
      cardBrand: request.card.brand,
      cardLast4: request.card.last4,
    });
    return { order };
  });
}

/**
 * A retry of a pending order must be the same purchase with the same card: the provider would refuse
 * other parameters under the order's key, and the order's amounts never change.
 */
async function retryMismatch(
  tx: Tx,
  order: OrderRow,
  request: CheckoutRequest,
): Promise<CheckoutOutcome | null> {
  if (
    order.plan !== request.plan ||
    order.interval !== request.interval ||
    order.currency !== request.currency
  ) {
    return {
      status: "invalid",
      message: "This form belongs to another order. Reload checkout and try again.",
    };
  }
  const [attempt] = await tx
    .select({ brand: payments.cardBrand, last4: payments.cardLast4 })
    .from(payments)
    .where(eq(payments.orderId, order.id))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  if (attempt && (attempt.brand !== request.card.brand || attempt.last4 !== request.card.last4)) {
    return {
      status: "pending",
      orderId: order.id,
      reason: `This payment is still being confirmed with the ${attempt.brand} card ending ${attempt.last4}. Submit again with that card to check on it: it will not be charged twice.`,
    };
  }
  return null;
}
