import "server-only";
import { eq } from "drizzle-orm";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db } from "@/server/db/client";
import { orders } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { chargeOrder } from "./charge";
import { type CheckoutOutcome, lockOrganizationBilling, outcomeOf } from "./outcome";
import { type CheckoutRequest, placeOrder } from "./place";

export type { CheckoutOutcome } from "./outcome";
export type { CheckoutRequest } from "./place";

import { currentSigningKey } from "./receipt-keys";
import { settleCharge } from "./settle";

/**
 * Places and pays an order exactly once per (organization, idempotency key).
 *
 * Two transactions, each first taking a PostgreSQL advisory lock on the organization, so concurrent
 * submits (a double click, a retry, two tabs, two app instances) and webhooks queue behind each other:
 *
 * 1. The order is placed as `pending`, with its payment attempt (brand and last four only), and
 *    committed before any money moves, so a charge whose answer is lost (timeout, crash, a client
 *    that went away) always has an order a retry or a webhook can settle.
 * 2. The order is charged, only if it is still pending, and settled: paid (plan, receipt), failed
 *    (a definite decline: the form may try again under a new key), or left pending when the
 *    provider's answer is unknown (the same key retries: the provider receives the same
 *    idempotency key and returns the first attempt's result instead of charging again).
 *
 * A submit with another key while an order of the organization is pending is refused without
 * charging, and a second tab with its own key finds the plan already active and is shown that order.
 */
export async function processCheckout(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  request: CheckoutRequest,
  options: { now?: () => Date; issuer?: string; seller?: ReceiptSeller } = {},
): Promise<CheckoutOutcome> {
  const now = options.now ?? (() => new Date());
  const plan = getPlan(request.plan);
  if (!plan) return { status: "invalid", message: "Unknown plan." };
  const quote = quoteOrder({
    plan,
    interval: request.interval,
    currency: request.currency,
    country: request.billing.country,
    table: rates,
  });
  if (!quote.ok) return { status: "invalid", message: quote.error.message };
  const q = quote.value;
  const orgId = request.organization.id;
  // Before the transactions: publishing the key uses a connection of its own, and every other submit
  // of this organization may be holding a pooled connection while it waits for the lock.
  const key = await currentSigningKey(db);

  const placed = await placeOrder(db, provider, request, q, now);
  if ("done" in placed) return placed.done;

  return db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, orgId);
    const [order] = await tx.select().from(orders).where(eq(orders.id, placed.order.id));
    if (!order) throw new Error("The order disappeared");
    // Another submit of this key (or a webhook) settled it while this one waited for the lock.
    if (order.status !== "pending") return outcomeOf(tx, order);
    const charge = await chargeOrder(
      provider,
      order,
      request.card,
      `Abacus ${plan.name} (${order.interval})`,
    );
    return settleCharge(tx, order, charge, {
      key,
      issuer: options.issuer,
      seller: options.seller,
      paidAt: now(),
    });
  });
}
