import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { CheckedCard } from "@/core/billing/card";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { addPeriod } from "@/core/billing/subscription";
import { toDecimalString } from "@/core/money";
import type { RateTable } from "@/core/money/fx";
import { canonicalJson, RECEIPT_TYPE, RECEIPT_VERSION, type ReceiptPayload } from "@/core/receipts/receipt";
import type { Db } from "../db/client";
import { orders, payments, receipts, subscriptions } from "../db/schema";
import type { PaymentProvider } from "../payments/provider";
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
  | { status: "invalid"; message: string };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type OrderRow = typeof orders.$inferSelect;

async function outcomeOf(tx: Tx, order: OrderRow): Promise<CheckoutOutcome> {
  if (order.status === "paid") {
    const [receipt] = await tx
      .select({ number: receipts.receiptNumber })
      .from(receipts)
      .where(eq(receipts.orderId, order.id));
    return { status: "paid", orderId: order.id, receiptNumber: receipt?.number ?? null };
  }
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
 * Places and pays an order exactly once per (organization, idempotency key).
 *
 * Everything happens in one transaction that first takes a PostgreSQL advisory lock on the
 * organization, so concurrent submits (a double click, a retry, two tabs, two app instances) queue
 * behind each other: the first places the order and charges; the others then find its order under
 * the same key and return the same outcome without charging. The unique index on (organization,
 * idempotency key) backs this up. A second tab with its own key finds the plan already active and is
 * shown that order instead of paying again.
 */
export async function processCheckout(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  request: CheckoutRequest,
  options: { now?: () => Date; issuer?: string } = {},
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
  // Before the transaction: publishing the key uses a connection of its own, and every other submit
  // of this organization may be holding a pooled connection while it waits for the lock.
  const key = await currentSigningKey(db);

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`abacus:checkout:${orgId}`}, 0))`);

    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.idempotencyKey, request.idempotencyKey)));
    if (existing) return outcomeOf(tx, existing);

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
      if (last) return { ...(await outcomeOf(tx, last)), alreadyActive: true } as CheckoutOutcome;
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

    let charge: Awaited<ReturnType<PaymentProvider["charge"]>>;
    try {
      charge = await provider.charge({
        amount: q.total,
        card: request.card,
        idempotencyKey: `${orgId}:${request.idempotencyKey}`,
        description: `Abacus ${plan.name} (${request.interval})`,
        metadata: { orderId: order.id, organizationId: orgId },
      });
    } catch (error) {
      // Never log the request: it holds the card. The error's message is the provider's own.
      console.error("Payment provider error:", error instanceof Error ? error.message : "unknown");
      charge = { ok: false, code: "processing_error", reason: "The payment could not be processed." };
    }

    await tx.insert(payments).values({
      orderId: order.id,
      provider: provider.id,
      providerReference: charge.reference ?? null,
      status: charge.ok ? "succeeded" : "failed",
      amountMinor: q.total.amount,
      currency: q.total.currency,
      cardBrand: request.card.brand,
      cardLast4: request.card.last4,
      failureCode: charge.ok ? null : charge.code,
    });

    if (!charge.ok) {
      const [failed] = await tx
        .update(orders)
        .set({ status: "failed", failureCode: charge.code, failureReason: charge.reason })
        .where(eq(orders.id, order.id))
        .returning();
      return outcomeOf(tx, failed ?? order);
    }

    const paidAt = now();
    const periodEnd = addPeriod(paidAt, request.interval);
    await tx.update(orders).set({ status: "paid", paidAt }).where(eq(orders.id, order.id));
    const subscription = {
      plan: request.plan,
      interval: request.interval,
      currency: q.total.currency,
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
      .values({ organizationId: orgId, ...subscription })
      .onConflictDoUpdate({ target: subscriptions.organizationId, set: subscription });

    const receiptNumber = receiptNumberFor(order.id, paidAt);
    const payload: ReceiptPayload = {
      type: RECEIPT_TYPE,
      version: RECEIPT_VERSION,
      kid: key.kid,
      issuer: options.issuer ?? "Abacus",
      receiptNumber,
      orderId: order.id,
      issuedAt: paidAt.toISOString(),
      paidAt: paidAt.toISOString(),
      organization: { id: orgId, name: request.organization.name },
      billing: { name: request.billing.name, country: q.country, vatId: request.billing.vatId },
      plan: request.plan,
      interval: request.interval,
      period: { start: paidAt.toISOString(), end: periodEnd.toISOString() },
      currency: q.total.currency,
      net: toDecimalString(q.net),
      tax: toDecimalString(q.tax),
      total: toDecimalString(q.total),
      taxRate: q.taxRate,
      taxTreatment: q.treatment,
      basePrice: { currency: "USD", amount: q.usd },
      fx: { rate: q.fxRate, date: q.fxDate },
      payment: {
        provider: provider.id,
        reference: charge.reference,
        brand: request.card.brand,
        last4: request.card.last4,
      },
    };
    const canonical = canonicalJson(payload);
    const signature = Buffer.from(signBytes(key, new TextEncoder().encode(canonical))).toString("base64");
    await tx.insert(receipts).values({
      orderId: order.id,
      organizationId: orgId,
      receiptNumber,
      kid: key.kid,
      payload: canonical,
      signature,
      issuedAt: paidAt,
    });
    return { status: "paid", orderId: order.id, receiptNumber };
  });
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

/** One receipt of an organization by its number (scoped: another organization's number finds nothing). */
export async function findReceipt(db: Db, organizationId: string, receiptNumber: string) {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.organizationId, organizationId), eq(receipts.receiptNumber, receiptNumber)));
  return row ?? null;
}
