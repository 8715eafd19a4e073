import "server-only";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { afterDecline } from "@/core/billing/dunning";
import { addPeriod } from "@/core/billing/subscription";
import { toDecimalString } from "@/core/money";
import {
  canonicalJson,
  RECEIPT_TYPE,
  RECEIPT_VERSION,
  type ReceiptPayload,
  type ReceiptSeller,
} from "@/core/receipts/receipt";
import type { Tx } from "@/server/db/client";
import { orders, organization, paymentMethods, payments, receipts, subscriptions } from "@/server/db/schema";
import type { ChargeResult, SavedCard } from "@/server/payments/provider";
import { insertMany, unnestInsert } from "./bulk";
import { couponStateAfterPaid, releaseRedemption } from "./coupons";
import { issueInvoice, issueInvoices } from "./invoices";
import { type CheckoutOutcome, type OrderRow, outcomeOf, PENDING_REASON } from "./outcome";
import { type currentSigningKey, signBytes } from "./receipt-keys";

export type SigningKey = Awaited<ReturnType<typeof currentSigningKey>>;
/** A settlement's outcome, and whether this call changed the order (false: it was already settled). */
export type Settled = { outcome: CheckoutOutcome; applied: boolean };

export function receiptNumberFor(orderId: string, paidAt: Date): string {
  return `AB-${paidAt.getUTCFullYear()}-${orderId.replace(/-/g, "").slice(0, 12).toUpperCase()}`;
}

/**
 * Records a definite decline of a pending order. A checkout's order fails (the form may try again
 * under a new key). A renewal follows the dunning schedule (`afterDecline`): the attempt in flight
 * (its payment row still `unknown`) is marked failed, and either the order stays pending while the
 * subscription is past due until `next_retry_at`, or, after a hard decline or the last attempt, the
 * order fails and the subscription ends (Free). A decline with no attempt in flight (a webhook about
 * an attempt already recorded) changes nothing. The caller holds the organization's lock.
 */
export async function settleFailed(
  tx: Tx,
  order: OrderRow,
  code: string,
  reason: string,
  reference: string | null,
  at: Date = new Date(),
): Promise<Settled> {
  if (order.kind === "renewal" && order.periodStart) {
    return renewalDeclined(tx, order, order.periodStart, { code, reason, reference, at });
  }
  const [failed] = await tx
    .update(orders)
    .set({ status: "failed", failureCode: code, failureReason: reason, claimedUntil: null })
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
  await releaseRedemption(tx, order.id);
  return { outcome: await outcomeOf(tx, failed), applied: true };
}

async function renewalDeclined(
  tx: Tx,
  order: OrderRow,
  periodStart: Date,
  d: { code: string; reason: string; reference: string | null; at: Date },
): Promise<Settled> {
  const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
  const settled = async () => ({ outcome: await outcomeOf(tx, current ?? order), applied: false });
  if (current?.status !== "pending") return settled();
  const [declined] = await tx
    .update(payments)
    .set({
      status: "failed",
      failureCode: d.code,
      ...(d.reference ? { providerReference: d.reference } : {}),
    })
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "unknown")))
    .returning({ id: payments.id });
  if (!declined) return settled();
  // Every attempt at the period is one payment row of its order: this one's number is their count.
  const [made] = await tx.select({ n: count() }).from(payments).where(eq(payments.orderId, order.id));
  const step = afterDecline(periodStart, made?.n ?? 1, d.code);
  const failure = { failureCode: d.code, failureReason: d.reason, claimedUntil: null };
  // The subscription still on the period this renewal follows (to the millisecond: a JavaScript
  // Date's precision, which the order's period start was read with).
  const thisPeriod = and(
    eq(subscriptions.organizationId, order.organizationId),
    sql`date_trunc('milliseconds', ${subscriptions.currentPeriodEnd}) = ${periodStart.toISOString()}::timestamptz`,
    inArray(subscriptions.status, ["active", "past_due"]),
  );
  if (step.kind === "retry") {
    await tx.update(orders).set(failure).where(eq(orders.id, order.id));
    await tx
      .update(subscriptions)
      .set({ status: "past_due", dunningAttempt: step.attempt, nextRetryAt: step.retryAt, updatedAt: d.at })
      .where(thisPeriod);
  } else {
    await tx
      .update(orders)
      .set({ status: "failed", ...failure })
      .where(eq(orders.id, order.id));
    await tx
      .update(subscriptions)
      .set({ status: "ended", dunningAttempt: step.attempt, nextRetryAt: null, updatedAt: d.at })
      .where(thisPeriod);
  }
  return {
    outcome: { status: "failed", orderId: order.id, code: d.code, reason: d.reason },
    applied: true,
  };
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
 * the organization's plan, its numbered invoice and the signed receipt naming it, all from the order's
 * own row. The caller holds the
 * organization's lock; a second call for the same order changes nothing and returns its outcome.
 */
export async function settlePaid(
  tx: Tx,
  order: OrderRow,
  reference: string,
  options: { key: SigningKey; issuer?: string; seller?: ReceiptSeller; paidAt: Date; saved?: SavedCard },
): Promise<Settled> {
  const { key, paidAt } = options;
  const [paidOrder] = await tx
    .update(orders)
    .set({ status: "paid", paidAt, failureCode: null, failureReason: null, claimedUntil: null })
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
  // A renewal pays for the period that follows the last one; a checkout's period starts when paid.
  const periodStart = order.periodStart ?? paidAt;
  const periodEnd =
    order.kind === "proration" && order.periodEnd ? order.periodEnd : addPeriod(periodStart, order.interval);
  const subscription = {
    plan: order.plan,
    interval: order.interval,
    currency: order.currency,
    status: "active" as const,
    // A proration changes the plan at once and keeps the period (it restarts on an interval change).
    currentPeriodStart: order.kind === "proration" ? await prorationPeriodStart(tx, order) : periodStart,
    currentPeriodEnd: periodEnd,
    // A paid plan (an upgrade after a cancel, say) runs on: nothing of a cancellation is left.
    cancelAtPeriodEnd: false,
    canceledAt: null,
    cancelReason: null,
    scheduledPlan: null,
    lastOrderId: order.id,
    // Paid up: a renewal paid by a retry ends the dunning of its period.
    dunningAttempt: 0,
    nextRetryAt: null,
    updatedAt: paidAt,
    ...(await couponStateAfterPaid(tx, paidOrder)),
  };
  // An organization deleted while its payment was being confirmed keeps the paid order and its
  // receipt, but has no plan left to start.
  if (org) {
    await tx
      .insert(subscriptions)
      .values({ organizationId: order.organizationId, ...subscription })
      .onConflictDoUpdate({ target: subscriptions.organizationId, set: subscription });
    if (options.saved && attempt) {
      // The card just paid becomes the card on file: renewals charge it.
      const card = { provider: attempt.provider, ...options.saved, updatedAt: paidAt };
      await tx
        .insert(paymentMethods)
        .values({ organizationId: order.organizationId, ...card })
        .onConflictDoUpdate({ target: paymentMethods.organizationId, set: card });
    }
  }
  // Last: the invoice number locks its series until this transaction commits.
  const invoice = await issueInvoice(tx, paidOrder, paidAt);
  const receipt = signedReceipt(order, invoice.number, attempt ?? null, reference, {
    key,
    issuer: options.issuer,
    seller: options.seller,
    paidAt,
    organizationName: org?.name ?? null,
    period: { start: periodStart, end: periodEnd },
  });
  await tx.insert(receipts).values(receipt);
  const { receiptNumber } = receipt;
  return { outcome: { status: "paid", orderId: order.id, receiptNumber }, applied: true };
}

type PaymentRow = typeof payments.$inferSelect;

/**
 * The signed receipt of a paid order (its row for `receipts`): the canonical JSON of its payload,
 * naming the invoice, and its Ed25519 signature.
 */
function signedReceipt(
  order: OrderRow,
  invoiceNumber: string,
  attempt: PaymentRow | null,
  reference: string,
  o: {
    key: SigningKey;
    issuer?: string;
    seller?: ReceiptSeller;
    paidAt: Date;
    organizationName: string | null;
    period: { start: Date; end: Date };
  },
): typeof receipts.$inferInsert & { receiptNumber: string } {
  const { key, paidAt } = o;
  const receiptNumber = receiptNumberFor(order.id, paidAt);
  const money = (amount: bigint) => toDecimalString({ amount, currency: order.currency });
  const payload: ReceiptPayload = {
    type: RECEIPT_TYPE,
    version: RECEIPT_VERSION,
    kid: key.kid,
    issuer: o.issuer ?? "Abacus",
    ...(o.seller ? { seller: o.seller } : {}),
    receiptNumber,
    invoiceNumber,
    orderId: order.id,
    issuedAt: paidAt.toISOString(),
    paidAt: paidAt.toISOString(),
    organization: { id: order.organizationId, name: o.organizationName ?? order.billingName },
    billing: { name: order.billingName, country: order.billingCountry, vatId: order.vatId },
    plan: order.plan,
    interval: order.interval,
    period: { start: o.period.start.toISOString(), end: o.period.end.toISOString() },
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
  return {
    orderId: order.id,
    organizationId: order.organizationId,
    receiptNumber,
    kid: key.kid,
    payload: canonical,
    signature,
    issuedAt: paidAt,
  };
}

/** A renewal the provider charged: its order (pending) and the charge's reference. */
export interface PaidRenewal {
  order: OrderRow;
  reference: string;
}

/**
 * Settles several paid renewals at once, in the caller's transaction, exactly as `settlePaid` settles
 * each (order paid only while pending, its attempt succeeded, the subscription moved to the paid
 * period, one numbered invoice and the signed receipt naming it), with one statement per table for
 * the whole batch: the invoice numbers are taken in one block, just before the last inserts. The
 * caller holds every organization's lock; at most one renewal per organization. Returns the receipt
 * numbers of the orders this call settled (an order no longer pending is left as it is).
 */
export async function settleRenewalsPaid(
  tx: Tx,
  items: readonly PaidRenewal[],
  options: { key: SigningKey; issuer?: string; seller?: ReceiptSeller; paidAt: Date },
): Promise<Map<string, string>> {
  const settled = new Map<string, string>();
  if (items.length === 0) return settled;
  const { paidAt } = options;
  const references = new Map<string, string>();
  const organizations = new Set<string>();
  for (const { order, reference } of items) {
    if (order.kind !== "renewal" || !order.periodStart) throw new Error(`Order ${order.id} is not a renewal`);
    if (organizations.has(order.organizationId))
      throw new Error(`Two renewals of ${order.organizationId} in one batch`);
    organizations.add(order.organizationId);
    references.set(order.id, reference);
  }
  const ids = [...references.keys()];
  const paidOrders = await tx
    .update(orders)
    .set({ status: "paid", paidAt, failureCode: null, failureReason: null, claimedUntil: null })
    .where(and(inArray(orders.id, ids), eq(orders.status, "pending")))
    .returning();
  if (paidOrders.length === 0) return settled;
  paidOrders.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const paidIds = paidOrders.map((o) => o.id);
  const referenceCase = sql.join(
    paidIds.map((id) => sql`when ${id}::uuid then ${references.get(id) ?? ""}`),
    sql` `,
  );
  const attempts = await tx
    .update(payments)
    .set({ status: "succeeded", providerReference: sql`case ${payments.orderId} ${referenceCase} end` })
    .where(and(inArray(payments.orderId, paidIds), eq(payments.status, "unknown")))
    .returning();
  const attemptOf = new Map(attempts.map((a) => [a.orderId, a]));
  const orgRows = await tx
    .select({ id: organization.id, name: organization.name })
    .from(organization)
    .where(inArray(organization.id, [...new Set(paidOrders.map((o) => o.organizationId))]));
  const names = new Map(orgRows.map((r) => [r.id, r.name]));
  const periods = new Map<string, { start: Date; end: Date }>();
  const rows = [];
  for (const order of paidOrders) {
    const start = order.periodStart ?? paidAt;
    const period = { start, end: addPeriod(start, order.interval) };
    periods.set(order.id, period);
    // An organization deleted while its payment was being confirmed keeps the paid order and its
    // receipt, but has no plan left to start.
    if (!names.has(order.organizationId)) continue;
    rows.push({
      organizationId: order.organizationId,
      plan: order.plan,
      interval: order.interval,
      currency: order.currency,
      status: "active" as const,
      currentPeriodStart: period.start,
      currentPeriodEnd: period.end,
      cancelAtPeriodEnd: false,
      scheduledPlan: null,
      lastOrderId: order.id,
      dunningAttempt: 0,
      nextRetryAt: null,
      updatedAt: paidAt,
      couponId: null as string | null,
      discountPeriodsLeft: null as number | null,
      ...(await couponStateAfterPaid(tx, order)),
    });
  }
  const upserted = [
    "plan",
    "interval",
    "currency",
    "status",
    "currentPeriodStart",
    "currentPeriodEnd",
    "cancelAtPeriodEnd",
    "scheduledPlan",
    "lastOrderId",
    "dunningAttempt",
    "nextRetryAt",
    "updatedAt",
    "couponId",
    "discountPeriodsLeft",
  ] as const;
  const set = sql.join(
    upserted.map((key) => sql.raw(`"${subscriptions[key].name}" = excluded."${subscriptions[key].name}"`)),
    sql`, `,
  );
  await insertMany(tx, subscriptions, rows, ["organizationId", ...upserted], {
    suffix: sql`on conflict (organization_id) do update set ${set}`,
  });
  // Last: the invoice numbers lock their series until this transaction commits; the receipts, which
  // name them, are written along with the invoices.
  let receiptRows: ReturnType<typeof signedReceipt>[] = [];
  await issueInvoices(tx, paidOrders, paidAt, (issued) => {
    receiptRows = paidOrders.map((order, i) =>
      signedReceipt(
        order,
        issued[i]?.number ?? "",
        attemptOf.get(order.id) ?? null,
        references.get(order.id) ?? "",
        {
          ...options,
          organizationName: names.get(order.organizationId) ?? null,
          period: periods.get(order.id) ?? { start: paidAt, end: paidAt },
        },
      ),
    );
    return unnestInsert(receipts, receiptRows, [
      "orderId",
      "organizationId",
      "receiptNumber",
      "kid",
      "payload",
      "signature",
      "issuedAt",
    ]);
  });
  for (const r of receiptRows) settled.set(r.orderId, r.receiptNumber);
  return settled;
}

/** The period a paid proration leaves: the current one kept, or restarted at the change. */
async function prorationPeriodStart(tx: Tx, order: OrderRow): Promise<Date> {
  const changedAt = order.periodStart ?? order.createdAt;
  const [sub] = await tx
    .select({ interval: subscriptions.interval, start: subscriptions.currentPeriodStart })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, order.organizationId));
  return sub && sub.interval === order.interval ? sub.start : changedAt;
}

/**
 * Records the provider's answer for a pending order: paid (plan, receipt), failed (a definite
 * decline: the form may try again under a new key), or left pending when the answer is unknown (the
 * same key retries and the provider returns the first attempt's result). The caller holds the
 * organization's lock.
 */
export async function settleCharge(
  tx: Tx,
  order: OrderRow,
  charge: ChargeResult,
  options: { key: SigningKey; issuer?: string; seller?: ReceiptSeller; paidAt: Date },
): Promise<CheckoutOutcome> {
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
    return (
      await settleFailed(tx, order, charge.code, charge.reason, charge.reference ?? null, options.paidAt)
    ).outcome;
  }
  return (await settlePaid(tx, order, charge.reference, { ...options, saved: charge.saved })).outcome;
}
