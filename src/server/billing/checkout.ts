import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { CheckedCard } from "@/core/billing/card";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { addPeriod } from "@/core/billing/subscription";
import { toDecimalString } from "@/core/money";
import type { RateTable } from "@/core/money/fx";
import {
  canonicalJson,
  RECEIPT_TYPE,
  RECEIPT_VERSION,
  type ReceiptPayload,
  type ReceiptSeller,
} from "@/core/receipts/receipt";
import type { Db, Tx } from "../db/client";
import { orders, organization, payments, receipts, subscriptions } from "../db/schema";
import type { ChargeResult, PaymentProvider } from "../payments/provider";
import { currentSigningKey, signBytes } from "./receipt-keys";

export interface CheckoutRequest {
  organization: { id: string; name: string };
  userId: string;
  idempotencyKey: string;
  plan: "pro" | "team";
  interval: "monthly" | "yearly";
  currency: string;
  billing: { name: string; country: string; vatId: string | null };
  card: CheckedCard;
}

export type CheckoutOutcome =
  | { status: "paid"; orderId: string; receiptNumber: string | null; alreadyActive?: boolean }
  | { status: "failed"; orderId: string; code: string; reason: string }
  /** The provider has not said whether the money moved: retry with the same key, never a new one. */
  | { status: "pending"; orderId: string; reason: string }
  | { status: "invalid"; message: string };

type OrderRow = typeof orders.$inferSelect;
type SigningKey = Awaited<ReturnType<typeof currentSigningKey>>;
/** A settlement's outcome, and whether this call changed the order (false: it was already settled). */
type Settled = { outcome: CheckoutOutcome; applied: boolean };

export const PENDING_REASON =
  "The payment provider has not confirmed this payment yet, so it may or may not have gone through. " +
  "Submit again with the same card to check on it: it will not be charged twice.";

async function outcomeOf(tx: Tx, order: OrderRow): Promise<CheckoutOutcome> {
  if (order.status === "paid") {
    const [receipt] = await tx
      .select({ number: receipts.receiptNumber })
      .from(receipts)
      .where(eq(receipts.orderId, order.id));
    return { status: "paid", orderId: order.id, receiptNumber: receipt?.number ?? null };
  }
  if (order.status === "pending") return { status: "pending", orderId: order.id, reason: PENDING_REASON };
  return {
    status: "failed",
    orderId: order.id,
    code: order.failureCode ?? "processing_error",
    reason: order.failureReason ?? "The payment failed.",
  };
}

export function receiptNumberFor(orderId: string, paidAt: Date): string {
  return `AB-${paidAt.getUTCFullYear()}-${orderId.replace(/-/g, "").slice(0, 12).toUpperCase()}`;
}

/**
 * Serializes everything that places, charges or settles an organization's orders (checkout submits
 * on any app instance, and webhooks), until the transaction ends.
 */
export async function lockOrganizationBilling(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`abacus:checkout:${organizationId}`}, 0))`,
  );
}

/** The key sent to the provider for every attempt at one order (Stripe: `pm:`/`pi:` + this). */
export function providerKeyOf(order: Pick<OrderRow, "organizationId" | "idempotencyKey">): string {
  return `${order.organizationId}:${order.idempotencyKey}`;
}

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

  const placed = await db.transaction(
    async (tx): Promise<{ done: CheckoutOutcome } | { order: OrderRow }> => {
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
            reason:
              "An earlier payment for this organization is still being confirmed. Reload checkout to check on it; nothing new was charged.",
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
      const [order] = await tx
        .insert(orders)
        .values({
          organizationId: orgId,
          userId: request.userId,
          idempotencyKey: request.idempotencyKey,
          plan: request.plan,
          interval: request.interval,
          currency: q.total.currency,
          netMinor: q.net.amount,
          taxMinor: q.tax.amount,
          totalMinor: q.total.amount,
          taxRate: q.taxRate,
          taxTreatment: q.treatment,
          basePriceUsd: q.usd,
          fxRate: q.fxRate,
          fxDate: q.fxDate || null,
          billingName: request.billing.name,
          billingCountry: q.country,
          vatId: request.billing.vatId,
          status: "pending",
        })
        .returning();
      if (!order) throw new Error("The order was not inserted");
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
    },
  );
  if ("done" in placed) return placed.done;

  return db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, orgId);
    const [order] = await tx.select().from(orders).where(eq(orders.id, placed.order.id));
    if (!order) throw new Error("The order disappeared");
    // Another submit of this key (or a webhook) settled it while this one waited for the lock.
    if (order.status !== "pending") return outcomeOf(tx, order);
    let charge: ChargeResult;
    try {
      // The order's own amounts (a retry never re-quotes) and key: the same request every attempt.
      charge = await provider.charge({
        amount: { amount: order.totalMinor, currency: order.currency },
        card: request.card,
        idempotencyKey: providerKeyOf(order),
        description: `Abacus ${plan.name} (${order.interval})`,
        metadata: { orderId: order.id, organizationId: orgId },
      });
    } catch (error) {
      // Never log the request: it holds the card. The error's message is the provider's own.
      console.error("Payment provider error:", error instanceof Error ? error.message : "unknown");
      charge = { status: "unknown", reason: "The payment provider did not answer." };
    }
    if (charge.status === "unknown") {
      if (charge.reference) {
        await tx
          .update(payments)
          .set({ providerReference: charge.reference })
          .where(and(eq(payments.orderId, order.id), eq(payments.status, "unknown")));
      }
      return { status: "pending", orderId: order.id, reason: PENDING_REASON };
    }
    if (charge.status === "declined") {
      return (await settleFailed(tx, order, charge.code, charge.reason, charge.reference ?? null)).outcome;
    }
    return (
      await settlePaid(tx, order, charge.reference, {
        key,
        issuer: options.issuer,
        seller: options.seller,
        paidAt: now(),
      })
    ).outcome;
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

async function settleFailed(
  tx: Tx,
  order: OrderRow,
  code: string,
  reason: string,
  reference: string | null,
): Promise<Settled> {
  const [failed] = await tx
    .update(orders)
    .set({ status: "failed", failureCode: code, failureReason: reason })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending")))
    .returning();
  if (!failed) {
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    return { outcome: await outcomeOf(tx, current ?? order), applied: false };
  }
  await tx
    .update(payments)
    .set({ status: "failed", failureCode: code, ...(reference ? { providerReference: reference } : {}) })
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "unknown")));
  return { outcome: await outcomeOf(tx, failed), applied: true };
}

/**
 * Marks a pending order failed (a webhook's `payment_intent.payment_failed`). Exactly once: only a
 * pending order changes. The caller holds the organization's lock.
 */
export async function failPendingOrder(
  tx: Tx,
  order: OrderRow,
  code: string,
  reason: string,
  reference: string | null,
): Promise<boolean> {
  return (await settleFailed(tx, order, code, reason, reference)).applied;
}

/**
 * Settles a pending order as paid, exactly once: the order (only while pending), its payment attempt,
 * the organization's plan and the signed receipt, all from the order's own row. The caller holds the
 * organization's lock; a second call for the same order changes nothing and returns its outcome.
 */
export async function settlePaid(
  tx: Tx,
  order: OrderRow,
  reference: string,
  options: { key: SigningKey; issuer?: string; seller?: ReceiptSeller; paidAt: Date },
): Promise<Settled> {
  const { key, paidAt } = options;
  const [paidOrder] = await tx
    .update(orders)
    .set({ status: "paid", paidAt, failureCode: null, failureReason: null })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending")))
    .returning();
  if (!paidOrder) {
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    return { outcome: await outcomeOf(tx, current ?? order), applied: false };
  }
  const [attempt] = await tx
    .update(payments)
    .set({ status: "succeeded", providerReference: reference })
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "unknown")))
    .returning();
  const [org] = await tx
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, order.organizationId));
  const periodEnd = addPeriod(paidAt, order.interval);
  const subscription = {
    plan: order.plan,
    interval: order.interval,
    currency: order.currency,
    status: "active" as const,
    currentPeriodStart: paidAt,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: false,
    scheduledPlan: null,
    lastOrderId: order.id,
    updatedAt: paidAt,
  };
  await tx
    .insert(subscriptions)
    .values({ organizationId: order.organizationId, ...subscription })
    .onConflictDoUpdate({ target: subscriptions.organizationId, set: subscription });
  const receiptNumber = receiptNumberFor(order.id, paidAt);
  const money = (amount: bigint) => toDecimalString({ amount, currency: order.currency });
  const payload: ReceiptPayload = {
    type: RECEIPT_TYPE,
    version: RECEIPT_VERSION,
    kid: key.kid,
    issuer: options.issuer ?? "Abacus",
    ...(options.seller ? { seller: options.seller } : {}),
    receiptNumber,
    orderId: order.id,
    issuedAt: paidAt.toISOString(),
    paidAt: paidAt.toISOString(),
    organization: { id: order.organizationId, name: org?.name ?? order.billingName },
    billing: { name: order.billingName, country: order.billingCountry, vatId: order.vatId },
    plan: order.plan,
    interval: order.interval,
    period: { start: paidAt.toISOString(), end: periodEnd.toISOString() },
    currency: order.currency,
    net: money(order.netMinor),
    tax: money(order.taxMinor),
    total: money(order.totalMinor),
    taxRate: order.taxRate,
    taxTreatment: order.taxTreatment,
    basePrice: { currency: "USD", amount: order.basePriceUsd },
    fx: { rate: order.fxRate, date: order.fxDate ?? "" },
    payment: {
      provider: attempt?.provider ?? "unknown",
      reference,
      brand: attempt?.cardBrand ?? "unknown",
      last4: attempt?.cardLast4 ?? "0000",
    },
  };
  const canonical = canonicalJson(payload);
  const signature = Buffer.from(signBytes(key, new TextEncoder().encode(canonical))).toString("base64");
  await tx.insert(receipts).values({
    orderId: order.id,
    organizationId: order.organizationId,
    receiptNumber,
    kid: key.kid,
    payload: canonical,
    signature,
    issuedAt: paidAt,
  });
  return { outcome: { status: "paid", orderId: order.id, receiptNumber }, applied: true };
}

/** The organization's newest pending order (a payment whose outcome is not known yet), with its card. */
export async function pendingOrder(db: Db, organizationId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      idempotencyKey: orders.idempotencyKey,
      plan: orders.plan,
      interval: orders.interval,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "pending")))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!row) return null;
  const [attempt] = await db
    .select({ brand: payments.cardBrand, last4: payments.cardLast4 })
    .from(payments)
    .where(eq(payments.orderId, row.id))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return { ...row, card: attempt ?? null };
}

/** The organization's orders, newest first (at most `limit`). */
export async function listOrders(db: Db, organizationId: string, limit = 50) {
  return db
    .select({
      id: orders.id,
      plan: orders.plan,
      interval: orders.interval,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      status: orders.status,
      failureReason: orders.failureReason,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      receiptNumber: receipts.receiptNumber,
    })
    .from(orders)
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .where(eq(orders.organizationId, organizationId))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/**
 * The billing details of the organization's last paid order (else its last order of any status):
 * what its next checkout starts from, so an upgrade keeps the currency, country and name it was
 * billed in.
 */
export async function lastBillingDetails(db: Db, organizationId: string) {
  const [row] = await db
    .select({
      currency: orders.currency,
      name: orders.billingName,
      country: orders.billingCountry,
      vatId: orders.vatId,
    })
    .from(orders)
    .where(eq(orders.organizationId, organizationId))
    .orderBy(sql`${orders.status} = 'paid' desc`, desc(orders.createdAt))
    .limit(1);
  return row ?? null;
}

/** One receipt of an organization by its number (scoped: another organization's number finds nothing). */
export async function findReceipt(db: Db, organizationId: string, receiptNumber: string) {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.organizationId, organizationId), eq(receipts.receiptNumber, receiptNumber)));
  return row ?? null;
}
