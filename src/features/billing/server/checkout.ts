import "server-only";
import { eq } from "drizzle-orm";
import type { CouponTerms } from "@/core/billing/coupon";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { checkVatId } from "@/core/billing/vat";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db } from "@/server/db/client";
import { orders } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { chargeOrder } from "./charge";
import { type CheckoutOutcome, claimOrder, lockOrganizationBilling, outcomeOf } from "./outcome";
import { type CheckoutRequest, placeOrder } from "./place";

import { currentSigningKey } from "./receipt-keys";
import { settleCharge } from "./settle";

export type { CheckoutOutcome } from "./outcome";

export type { CheckoutRequest } from "./place";

/**
 * How long a submit may take to charge before another submit of the same order may ask the provider
 * again (same key): longer than the Stripe client's timeout with its retries.
 */
const CHARGE_CLAIM_SECONDS = 90;
/** How long a concurrent submit of the same order waits for the charging one to settle it. */
const SETTLEMENT_WAIT_MS = 30_000;
const SETTLEMENT_POLL_MS = 50;

/** Waits (bounded) for another submit's charge of this order to settle, then answers its outcome. */
async function waitForSettlement(db: Db, orderId: string): Promise<CheckoutOutcome> {
  const deadline = Date.now() + SETTLEMENT_WAIT_MS;
  for (;;) {
    const settled = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
      if (!order) throw new Error("The order disappeared");
      return order.status !== "pending" || !order.claimedUntil || Date.now() >= deadline
        ? outcomeOf(tx, order)
        : null;
    });
    if (settled) return settled;
    await new Promise((resolve) => setTimeout(resolve, SETTLEMENT_POLL_MS));
  }
}

/**
 * Places and pays an order exactly once per (organization, idempotency key).
 *
 * Short transactions, each first taking a PostgreSQL advisory lock on the organization, so concurrent
 * submits (a double click, a retry, two tabs, two app instances) and webhooks queue behind each other:
 *
 * 1. The order is placed as `pending`, with its payment attempt (brand and last four only), and
 *    committed before any money moves, so a charge whose answer is lost (timeout, crash, a client
 *    that went away) always has an order a retry or a webhook can settle.
 * 2. One submit claims the pending order (a lease on it) and charges it with no transaction open
 *    and no lock held; concurrent submits of the same order wait for its settlement. A third short
 *    transaction settles it: paid (plan, receipt), failed
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
  options: {
    now?: () => Date;
    issuer?: string;
    seller?: ReceiptSeller;
    /** The seller's country (SELLER_COUNTRY), for the EU reverse charge. */
    sellerCountry?: string | null;
  } = {},
): Promise<CheckoutOutcome> {
  const now = options.now ?? (() => new Date());
  const plan = getPlan(request.plan);
  if (!plan) return { status: "invalid", message: "Unknown plan." };
  const vatIdError = checkVatId(request.billing.vatId, request.billing.country);
  if (vatIdError) return { status: "invalid", message: vatIdError, field: "vatId" };
  const price = (coupon: CouponTerms | null) =>
    quoteOrder({
      plan,
      interval: request.interval,
      currency: request.currency,
      country: request.billing.country,
      table: rates,
      coupon,
      vatId: request.billing.vatId,
      sellerCountry: options.sellerCountry ?? null,
    });
  // Priced without the coupon first: a country or currency that cannot be priced fails here, before
  // anything is written; the coupon is checked and applied under its lock when the order is placed.
  const quote = price(null);
  if (!quote.ok) return { status: "invalid", message: quote.error.message };
  const orgId = request.organization.id;
  // Before the transactions: publishing the key uses a connection of its own, and every other submit
  // of this organization may be holding a pooled connection while it waits for the lock.
  const key = await currentSigningKey(db);

  const placed = await placeOrder(
    db,
    provider,
    request,
    (coupon) => {
      const priced = price(coupon);
      if (!priced.ok) throw new Error(priced.error.message);
      return priced.value;
    },
    now,
  );
  if ("done" in placed) return placed.done;

  // Claim the charge in a short transaction; only the claimant calls the provider, outside any
  // transaction, so a slow provider pins no connection and blocks no webhook of the organization.
  const claim = await db.transaction(
    async (tx): Promise<{ done: CheckoutOutcome } | { claimed: boolean }> => {
      await lockOrganizationBilling(tx, orgId);
      const [order] = await tx.select().from(orders).where(eq(orders.id, placed.order.id));
      if (!order) throw new Error("The order disappeared");
      // Another submit of this key (or a webhook) settled it while this one waited for the lock.
      if (order.status !== "pending") return { done: await outcomeOf(tx, order) };
      const claimed = await claimOrder(tx, order.id, CHARGE_CLAIM_SECONDS);
      return { claimed: Boolean(claimed) };
    },
  );
  if ("done" in claim) return claim.done;
  if (!claim.claimed) return waitForSettlement(db, placed.order.id);

  const order = placed.order;
  const charge = await chargeOrder(provider, order, request.card, `Abacus ${plan.name} (${order.interval})`);
  return db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, orgId);
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    if (!current) throw new Error("The order disappeared");
    const outcome = await settleCharge(tx, current, charge, {
      key,
      issuer: options.issuer,
      seller: options.seller,
      paidAt: now(),
    });
    // The answer is unknown: release the claim so a retry with the same key may ask again at once.
    if (outcome.status === "pending") {
      await tx.update(orders).set({ claimedUntil: null }).where(eq(orders.id, order.id));
    }
    return outcome;
  });
}
