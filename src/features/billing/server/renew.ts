import "server-only";
import { and, count, desc, eq, lte, sql } from "drizzle-orm";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db, Tx } from "@/server/db/client";
import { orders, paymentMethods, payments, subscriptions } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { chargeSavedCard } from "./charge";
import { renewalPricing } from "./coupons";
import { lockOrganizationBilling, type OrderRow } from "./outcome";
import { orderAmounts } from "./place";
import { currentSigningKey } from "./receipt-keys";
import { settleCharge } from "./settle";

/**
 * How long one instance may take to charge a renewal before another instance may try it again (with
 * the same idempotency key, so the provider answers with the first attempt's result).
 */
const CLAIM_SECONDS = 120;
/** The most subscriptions one run of the clock renews; the rest wait for the next run. */
export const MAX_RENEWALS_PER_RUN = 20_000;

export type RenewalOutcome =
  /** The next period is paid. */
  | "renewed"
  /** The card on file was declined (or there is none): the subscription ended, back to Free. */
  | "failed"
  /** Cancelled at period end: the subscription ended without a charge. */
  | "ended"
  /** The provider's answer is not known yet: the order stays pending and is tried again later. */
  | "pending"
  /** Another instance is charging this period right now, or nothing is due. */
  | "skipped";

/** The provider key of one attempt at one period: the same on every retry of that attempt. */
export function renewalKey(organizationId: string, periodStart: Date, attempt: number): string {
  return `${organizationId}:renew:${periodStart.toISOString()}:${attempt}`;
}

type Claim =
  | { done: RenewalOutcome }
  | { order: OrderRow; card: typeof paymentMethods.$inferSelect; attempt: number };

async function endSubscription(tx: Tx, organizationId: string, at: Date) {
  await tx
    .update(subscriptions)
    .set({ status: "ended", updatedAt: at })
    .where(eq(subscriptions.organizationId, organizationId));
}

/**
 * Claims the due period of one subscription, in a short transaction under the organization's lock:
 * its renewal order (unique per subscription and period start) is placed, or an abandoned claim on
 * it is taken over. Only the instance that holds the claim charges.
 */
async function claimRenewal(db: Db, rates: RateTable | null, organizationId: string, at: Date) {
  return db.transaction(async (tx): Promise<Claim> => {
    await lockOrganizationBilling(tx, organizationId);
    const [sub] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, organizationId));
    if (sub?.status !== "active" || sub.currentPeriodEnd > at) return { done: "skipped" };
    const periodStart = sub.currentPeriodEnd;
    if (sub.cancelAtPeriodEnd) {
      await endSubscription(tx, organizationId, at);
      return { done: "ended" };
    }
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organizationId, organizationId));
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.periodStart, periodStart)));
    let order: OrderRow;
    if (existing) {
      if (existing.status !== "pending" || !card) return { done: "skipped" };
      const [claimed] = await tx
        .update(orders)
        .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
        .where(
          and(
            eq(orders.id, existing.id),
            sql`(${orders.claimedUntil} is null or ${orders.claimedUntil} < now())`,
          ),
        )
        .returning();
      if (!claimed) return { done: "skipped" };
      order = claimed;
    } else {
      if (!card) {
        await endSubscription(tx, organizationId, at);
        return { done: "failed" };
      }
      const plan = getPlan(sub.scheduledPlan ?? sub.plan);
      const [billing] = await tx
        .select({ name: orders.billingName, country: orders.billingCountry, vatId: orders.vatId })
        .from(orders)
        .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "paid")))
        .orderBy(desc(orders.paidAt))
        .limit(1);
      const quote = plan
        ? quoteOrder({
            plan,
            interval: sub.interval,
            currency: sub.currency,
            country: billing?.country ?? "",
            table: rates,
            ...(await renewalPricing(tx, organizationId, sub.currency, billing?.vatId ?? null)),
          })
        : null;
      if (!plan || !billing || !quote?.ok) {
        await endSubscription(tx, organizationId, at);
        return { done: "failed" };
      }
      const q = quote.value;
      const [placed] = await tx
        .insert(orders)
        .values({
          organizationId,
          userId: null,
          idempotencyKey: `renew:${periodStart.toISOString()}`,
          plan: plan.id === "free" ? sub.plan : plan.id,
          interval: sub.interval,
          ...orderAmounts(q),
          billingName: billing.name,
          billingCountry: q.country,
          vatId: q.vatId,
          status: "pending",
          kind: "renewal",
          periodStart,
          periodEnd: addPeriod(periodStart, sub.interval),
          claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
        })
        .returning();
      if (!placed) throw new Error("The renewal order was not inserted");
      await tx.insert(payments).values({
        orderId: placed.id,
        provider: card.provider,
        status: "unknown",
        amountMinor: placed.totalMinor,
        currency: placed.currency,
        cardBrand: card.brand,
        cardLast4: card.last4,
      });
      order = placed;
    }
    const [attempts] = await tx.select({ n: count() }).from(payments).where(eq(payments.orderId, order.id));
    return { order, card, attempt: Math.max(1, attempts?.n ?? 1) };
  });
}

/**
 * Renews the subscription's due period exactly once, however many instances run this at once: a
 * short transaction claims the period, the provider is called outside any transaction (no lock is
 * held while it answers), and a second short transaction settles the outcome. A crash after the
 * provider's answer leaves the order pending with its claim; once the claim lapses the next run
 * charges again under the same key, and the provider answers with the first charge.
 */
export async function renewSubscription(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  organizationId: string,
  at: Date,
  options: { issuer?: string; seller?: ReceiptSeller } = {},
): Promise<RenewalOutcome> {
  const key = await currentSigningKey(db);
  const claim = await claimRenewal(db, rates, organizationId, at);
  if ("done" in claim) return claim.done;
  const { order, card, attempt } = claim;
  const periodStart = order.periodStart ?? at;
  const charge = await chargeSavedCard(provider, {
    amount: { amount: order.totalMinor, currency: order.currency },
    card: { customerReference: card.customerReference, methodReference: card.methodReference },
    idempotencyKey: renewalKey(organizationId, periodStart, attempt),
    description: `Abacus ${order.plan} (${order.interval}) renewal`,
    metadata: { orderId: order.id, organizationId },
  });
  return db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, organizationId);
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    if (!current) throw new Error("The renewal order disappeared");
    const outcome = await settleCharge(tx, current, charge, { key, ...options, paidAt: at });
    if (outcome.status === "paid") return "renewed";
    if (outcome.status === "pending") return "pending";
    if (outcome.status === "failed") {
      await endSubscription(tx, organizationId, at);
      return "failed";
    }
    return "skipped";
  });
}

export type ClockSummary = { at: string; due: number } & Record<RenewalOutcome, number>;

/** A clock that jumps several periods renews them in turn, this many at most per subscription. */
const MAX_PASSES = 36;

/**
 * Runs every renewal due at `at` once: each active subscription whose period has ended and whose
 * next period has no settled renewal yet, again while renewals leave periods due (a clock that
 * jumped several months renews each month in turn).
 */
export async function runBillingClock(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  at: Date,
  options: { issuer?: string; seller?: ReceiptSeller; concurrency?: number } = {},
): Promise<ClockSummary> {
  const summary: ClockSummary = {
    at: at.toISOString(),
    due: 0,
    renewed: 0,
    failed: 0,
    ended: 0,
    pending: 0,
    skipped: 0,
  };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const due = await dueSubscriptions(db, at);
    summary.due += due.length;
    const renewedBefore = summary.renewed;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < due.length; i = next++) {
        const row = due[i];
        if (!row) continue;
        summary[await renewSubscription(db, provider, rates, row.organizationId, at, options)] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
    if (summary.renewed === renewedBefore) break;
  }
  return summary;
}

/**
 * Active subscriptions whose period has ended by `at` and whose next period has no settled or
 * failed renewal yet, oldest first: what the test clock and the graphile-worker tick both renew.
 */
export async function dueSubscriptions(db: Db, at: Date) {
  return db
    .select({ organizationId: subscriptions.organizationId, periodStart: subscriptions.currentPeriodEnd })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, "active"),
        lte(subscriptions.currentPeriodEnd, at),
        sql`not exists (select 1 from ${orders} o where o.organization_id = ${subscriptions.organizationId}
              and o.period_start = ${subscriptions.currentPeriodEnd} and o.status <> 'pending')`,
      ),
    )
    .orderBy(subscriptions.currentPeriodEnd)
    .limit(MAX_RENEWALS_PER_RUN);
}
