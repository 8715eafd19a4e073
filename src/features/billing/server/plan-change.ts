import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { type BillingInterval, getPlan, type PaidPlanId } from "@/core/billing/plans";
import { applyTax, planPrice } from "@/core/billing/pricing";
import {
  classifyChange,
  epochSeconds,
  type Proration,
  prorate,
  prorationDiscount,
} from "@/core/billing/proration";
import { effectivePlan } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db, Tx } from "@/server/db/client";
import { coupons, orders, paymentMethods, payments, subscriptions } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { chargeSavedCard, providerKeyOf } from "./charge";
import { subscriptionCoupon } from "./coupons";
import { claimOrder, lockOrganizationBilling, type OrderRow, outcomeOf, unclaimedOrder } from "./outcome";
import { currentSigningKey } from "./receipt-keys";
import { settleCharge } from "./settle";

/** How long one request may take to charge a plan change before a retry of its key may ask again. */
const CLAIM_SECONDS = 120;

export interface PlanTarget {
  plan: PaidPlanId;
  interval: BillingInterval;
}

/** What an upgrade costs now: the proration and the order amounts it becomes (minor units). */
export interface PlanChangeQuote {
  currency: string;
  proration: Proration;
  credit: bigint;
  charge: bigint;
  /** The subscription's coupon on the charge (zero without one), and the coupon. */
  discount: bigint;
  coupon: { id: string; code: string } | null;
  net: bigint;
  tax: bigint;
  total: bigint;
  taxRate: string;
  reverseCharge: boolean;
  usd: string;
  fxRate: string;
  fxDate: string;
  at: Date;
}

export type PlanChangeOutcome =
  | { ok: true; orderId: string; receiptNumber: string | null; quote: PlanChangeQuote }
  | { ok: false; error: string; pending?: boolean };

type Refusal = { ok: false; error: string; pending?: boolean };
type Prepared = { ok: true; quote: PlanChangeQuote; last: OrderRow; sub: typeof subscriptions.$inferSelect };

const planName = (id: string) => getPlan(id as PaidPlanId)?.name ?? id;

/** The whole second of an instant: a change is exact to the second. */
function toSecond(at: Date): Date {
  return new Date(Number(epochSeconds(at)) * 1000);
}

/**
 * Checks that the change is an upgrade the organization may make now, and prices it: the unused part
 * of what was paid for the current plan is credited, the new plan's time is charged, at the tax rate
 * of the subscription's own orders (the same treatment as checkout and renewals: list prices are
 * before tax, tax is added on top of the net).
 */
async function prepare(
  tx: Db | Tx,
  rates: RateTable | null,
  organizationId: string,
  target: PlanTarget,
  now: Date,
): Promise<Prepared | Refusal> {
  const at = toSecond(now);
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId));
  if (sub?.status === "past_due") return pastDueRefusal;
  if (!sub || effectivePlan(sub, at) === "free" || !sub.lastOrderId) {
    return { ok: false, error: "This organization is on the Free plan: choose a paid plan at checkout." };
  }
  const kind = classifyChange(sub, target);
  if (kind === "same") {
    return {
      ok: false,
      error: `The organization is already on ${planName(sub.plan)}, billed ${sub.interval}.`,
    };
  }
  if (kind === "downgrade") {
    return {
      ok: false,
      error:
        "A lower plan or a shorter billing interval takes effect at the end of the paid period: schedule a downgrade instead.",
    };
  }
  const plan = getPlan(target.plan);
  if (!plan) return { ok: false, error: "Unknown plan." };
  const [last] = await tx.select().from(orders).where(eq(orders.id, sub.lastOrderId));
  if (last?.status !== "paid" || last.currency !== sub.currency) {
    return {
      ok: false,
      error: "The payment for the current period was not found, so no credit can be computed.",
    };
  }
  const price = planPrice(plan, target.interval, sub.currency, rates);
  if (!price.ok) return { ok: false, error: price.error.message };
  // What was actually paid for the current plan, and the time it covered: a proration paid for the
  // new plan from the change on; a purchase or renewal for the whole period; net of any discount.
  const paid = last.subtotalMinor - last.discountMinor;
  const coveredStart =
    last.kind === "proration" && last.periodStart ? last.periodStart : sub.currentPeriodStart;
  if (epochSeconds(at) < epochSeconds(coveredStart)) {
    return { ok: false, error: "The current period has not started yet." };
  }
  const proration = prorate({
    paid,
    coveredStart,
    periodStart: sub.currentPeriodStart,
    periodEnd: sub.currentPeriodEnd,
    newPrice: price.value.price.amount,
    currentInterval: sub.interval,
    newInterval: target.interval,
    at,
  });
  // The subscription's coupon, while it has charges left or is forever, discounts the charge too.
  const coupon = await subscriptionCoupon(tx, organizationId, sub.currency);
  const discount = coupon ? prorationDiscount(coupon, proration, sub.currency).amount : 0n;
  const net = proration.charge - proration.credit - discount;
  if (net <= 0n) {
    return {
      ok: false,
      error: "The credit for the current plan covers this change: there is nothing to charge.",
    };
  }
  const taxRate = last.reverseCharge ? "0" : last.taxRate;
  const amounts = applyTax({ amount: net, currency: sub.currency }, taxRate, "exclusive");
  return {
    ok: true,
    sub,
    last,
    quote: {
      currency: sub.currency,
      proration,
      credit: proration.credit,
      charge: proration.charge,
      discount,
      coupon: coupon && discount > 0n ? { id: coupon.id, code: coupon.code } : null,
      net: amounts.net.amount,
      tax: amounts.tax.amount,
      total: amounts.total.amount,
      taxRate,
      reverseCharge: last.reverseCharge,
      usd: price.value.usd,
      fxRate: price.value.fxRate,
      fxDate: price.value.fxDate,
      at,
    },
  };
}

/** The price of an upgrade if it were confirmed now (nothing is written). */
export async function previewPlanChange(
  db: Db,
  rates: RateTable | null,
  organizationId: string,
  target: PlanTarget,
  now = new Date(),
): Promise<{ ok: true; quote: PlanChangeQuote } | Refusal> {
  const prepared = await prepare(db, rates, organizationId, target, now);
  return prepared.ok ? { ok: true, quote: prepared.quote } : prepared;
}

type Claim = { done: PlanChangeOutcome } | { order: OrderRow; quote: PlanChangeQuote; card: Card };
type Card = typeof paymentMethods.$inferSelect;

/**
 * Places the `proration` order and its payment attempt in a short transaction under the
 * organization's lock, claimed for this request. A retry of the same key takes over an abandoned
 * claim (and the provider answers it with the first attempt's result); another key is refused while
 * any order of the organization is pending, so a double click charges once.
 */
async function claimChange(
  db: Db,
  rates: RateTable | null,
  request: { organizationId: string; userId: string | null; idempotencyKey: string; target: PlanTarget },
  now: Date,
): Promise<Claim> {
  const { organizationId } = request;
  const orderKey = `proration:${request.idempotencyKey}`;
  return db.transaction(async (tx): Promise<Claim> => {
    await lockOrganizationBilling(tx, organizationId);
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organizationId, organizationId));
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.idempotencyKey, orderKey)));
    if (existing) {
      if (existing.status !== "pending") return { done: await doneOf(tx, existing) };
      if (existing.plan !== request.target.plan || existing.interval !== request.target.interval) {
        return { done: { ok: false, error: "This form belongs to another plan change. Reload the page." } };
      }
      const claimed = await claimOrder(tx, existing.id, CLAIM_SECONDS);
      if (!claimed || !card) return { done: pendingRefusal };
      return { order: claimed, quote: await quoteOfOrder(tx, claimed), card };
    }
    const [pending] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "pending")))
      .limit(1);
    if (pending) {
      // A renewal left pending while its declined payment waits for a retry: past due, not a payment
      // being confirmed.
      const [sub] = await tx
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.organizationId, organizationId));
      if (pending.kind === "renewal" && sub?.status === "past_due") return { done: pastDueRefusal };
      // An upgrade whose answer was lost and whose request is gone (the page was reloaded): nothing
      // else settles it, so this request asks the provider again under that order's own key, which
      // answers with the first attempt's result. Anything else pending refuses the change.
      if (pending.kind !== "proration" || !card) return { done: pendingRefusal };
      const resumed = await claimOrder(tx, pending.id, CLAIM_SECONDS);
      if (!resumed) return { done: pendingRefusal };
      return { order: resumed, quote: await quoteOfOrder(tx, resumed), card };
    }
    const prepared = await prepare(tx, rates, organizationId, request.target, now);
    if (!prepared.ok) return { done: prepared };
    if (!card)
      return { done: { ok: false, error: "There is no card on file: add a card before upgrading." } };
    const { quote, last } = prepared;
    const [order] = await tx
      .insert(orders)
      .values({
        organizationId,
        userId: request.userId,
        idempotencyKey: orderKey,
        plan: request.target.plan,
        interval: request.target.interval,
        currency: quote.currency,
        subtotalMinor: quote.charge,
        creditMinor: quote.credit,
        discountMinor: quote.discount,
        couponId: quote.coupon?.id ?? null,
        netMinor: quote.net,
        taxMinor: quote.tax,
        totalMinor: quote.total,
        taxRate: quote.taxRate,
        taxTreatment: "exclusive",
        reverseCharge: quote.reverseCharge,
        basePriceUsd: quote.usd,
        fxRate: quote.fxRate,
        fxDate: quote.fxDate || null,
        billingName: last.billingName,
        billingCountry: last.billingCountry,
        vatId: last.vatId,
        status: "pending",
        kind: "proration",
        periodStart: quote.at,
        periodEnd: quote.proration.periodEnd,
        claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      })
      .returning();
    if (!order) throw new Error("The proration order was not inserted");
    await tx.insert(payments).values({
      orderId: order.id,
      provider: card.provider,
      status: "unknown",
      amountMinor: order.totalMinor,
      currency: order.currency,
      cardBrand: card.brand,
      cardLast4: card.last4,
    });
    return { order, quote, card };
  });
}

const pastDueRefusal: Refusal = {
  ok: false,
  error:
    "The last renewal payment was declined, so the plan cannot change until it is paid. Update the card on file first.",
};

const pendingRefusal: Refusal = {
  ok: false,
  pending: true,
  error: "An earlier payment for this organization is still being confirmed; nothing new was charged.",
};

/**
 * A placed order's own amounts (a retry never re-prices), with the coupon it was discounted by, named
 * as its invoice names it.
 */
async function quoteOfOrder(tx: Tx, order: OrderRow): Promise<PlanChangeQuote> {
  const [coupon] =
    order.couponId && order.discountMinor !== 0n
      ? await tx
          .select({ id: coupons.id, code: coupons.code })
          .from(coupons)
          .where(eq(coupons.id, order.couponId))
      : [];
  const start = order.periodStart ?? order.createdAt;
  const end = order.periodEnd ?? start;
  return {
    currency: order.currency,
    proration: {
      credit: order.creditMinor,
      charge: order.subtotalMinor,
      restarts: false,
      periodStart: start,
      periodEnd: end,
      unusedSeconds: epochSeconds(end) - epochSeconds(start),
      coveredSeconds: epochSeconds(end) - epochSeconds(start),
    },
    credit: order.creditMinor,
    charge: order.subtotalMinor,
    discount: order.discountMinor,
    coupon: coupon ?? null,
    net: order.netMinor,
    tax: order.taxMinor,
    total: order.totalMinor,
    taxRate: order.taxRate,
    reverseCharge: order.reverseCharge,
    usd: order.basePriceUsd,
    fxRate: order.fxRate,
    fxDate: order.fxDate ?? "",
    at: start,
  };
}

async function doneOf(tx: Tx, order: OrderRow): Promise<PlanChangeOutcome> {
  const outcome = await outcomeOf(tx, order);
  if (outcome.status === "paid") {
    return {
      ok: true,
      orderId: order.id,
      receiptNumber: outcome.receiptNumber,
      quote: await quoteOfOrder(tx, order),
    };
  }
  if (outcome.status === "pending") return { ok: false, pending: true, error: outcome.reason };
  if (outcome.status === "failed") return { ok: false, error: `The plan was not changed: ${outcome.reason}` };
  return { ok: false, error: outcome.message };
}

/**
 * Upgrades now: the proration order is placed under the organization's lock, the card on file is
 * charged outside any transaction (idempotency key from the order), and the answer is settled in a
 * short transaction by `settleCharge`, which changes the plan and issues the invoice. A declined
 * charge leaves the subscription as it was and says why.
 */
export async function changePlan(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  request: { organizationId: string; userId: string | null; idempotencyKey: string; target: PlanTarget },
  options: { now?: () => Date; issuer?: string; seller?: ReceiptSeller } = {},
): Promise<PlanChangeOutcome> {
  const now = options.now ?? (() => new Date());
  const key = await currentSigningKey(db);
  const claim = await claimChange(db, rates, request, now());
  if ("done" in claim) return claim.done;
  const { order, card } = claim;
  const charge = await chargeSavedCard(provider, {
    amount: { amount: order.totalMinor, currency: order.currency },
    card: { customerReference: card.customerReference, methodReference: card.methodReference },
    idempotencyKey: providerKeyOf(order),
    description: `Abacus upgrade to ${planName(order.plan)} (${order.interval})`,
    metadata: { orderId: order.id, organizationId: order.organizationId },
  });
  return db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, order.organizationId);
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    if (!current) throw new Error("The proration order disappeared");
    const outcome = await settleCharge(tx, current, charge, {
      key,
      issuer: options.issuer,
      seller: options.seller,
      paidAt: now(),
    });
    if (outcome.status === "pending") {
      // Unknown answer: release the claim so a retry of the same key asks the provider again at once.
      await tx.update(orders).set({ claimedUntil: null }).where(eq(orders.id, order.id));
    }
    const [settled] = await tx.select().from(orders).where(eq(orders.id, order.id));
    return doneOf(tx, settled ?? current);
  });
}

/** How many pending upgrades one clock run asks about at most (the rest wait for the next run). */
const MAX_PENDING_PER_RUN = 100;

/**
 * The billing clock's part for upgrades whose provider answer was lost and whose request is gone:
 * each pending `proration` order no request holds (its claim expired or released) goes through
 * `changePlan` again under its own key, so the provider answers with the first attempt's result and
 * the order is settled (plan changed and invoiced, or failed) without a second charge. Returns how
 * many were settled either way.
 */
export async function settlePendingProrations(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  options: { now?: () => Date; issuer?: string; seller?: ReceiptSeller } = {},
): Promise<number> {
  const pending = await db
    .select()
    .from(orders)
    .where(and(eq(orders.kind, "proration"), eq(orders.status, "pending"), unclaimedOrder))
    .orderBy(orders.createdAt)
    .limit(MAX_PENDING_PER_RUN);
  let settled = 0;
  for (const order of pending) {
    const outcome = await changePlan(
      db,
      provider,
      rates,
      {
        organizationId: order.organizationId,
        userId: order.userId,
        idempotencyKey: order.idempotencyKey.replace(/^proration:/, ""),
        target: { plan: order.plan, interval: order.interval },
      },
      options,
    );
    if (outcome.ok || !outcome.pending) settled += 1;
  }
  return settled;
}
