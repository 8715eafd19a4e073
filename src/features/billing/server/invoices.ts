import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import {
  checkLinesSum,
  formatDocumentNumber,
  type InvoiceLineDraft,
  invoiceLines,
  seriesKey,
} from "@/core/billing/invoice";
import { addPeriod } from "@/core/billing/subscription";
import type { DocumentSeries } from "@/core/billing/vocabulary";
import type { Db, Tx } from "@/server/db/client";
import {
  coupons,
  documentSequences,
  invoiceLines as invoiceLinesTable,
  invoices,
  orders,
} from "@/server/db/schema";
import type { OrderRow } from "./outcome";

export interface IssuedInvoice {
  id: string;
  number: string;
  lines: InvoiceLineDraft[];
}

/**
 * Takes the next number of a document series (`INV-2026`) in the caller's transaction. The series row
 * stays locked until that transaction ends, so concurrent settlements take consecutive numbers, and a
 * rolled-back one gives its number back: the series has no gaps and no duplicates.
 */
export async function nextDocumentNumber(tx: Tx, series: DocumentSeries, at: Date): Promise<string> {
  const key = seriesKey(series, at.getUTCFullYear());
  await tx.insert(documentSequences).values({ series: key, lastValue: 0n }).onConflictDoNothing();
  const [row] = await tx
    .update(documentSequences)
    .set({ lastValue: sql`${documentSequences.lastValue} + 1` })
    .where(eq(documentSequences.series, key))
    .returning({ value: documentSequences.lastValue });
  if (!row) throw new Error(`The document series ${key} could not be advanced`);
  return formatDocumentNumber(key, row.value);
}

/** The period an order pays for: a checkout's starts when it is paid. */
export function orderPeriod(order: OrderRow, paidAt: Date): { start: Date; end: Date } {
  const start = order.periodStart ?? paidAt;
  return { start, end: order.periodEnd ?? addPeriod(start, order.interval) };
}

/**
 * Issues the invoice of a paid order inside the transaction that settles it: its lines from the
 * order's columns, checked to sum exactly to the total, then the next `INV-<year of paidAt>` number,
 * taken last so the series row is locked for as short a time as possible. Called once per order (by
 * `settlePaid`, which changes only a pending order); a second call fails on the unique order id.
 */
export async function issueInvoice(tx: Tx, order: OrderRow, paidAt: Date): Promise<IssuedInvoice> {
  let couponCode: string | null = null;
  if (order.couponId && order.discountMinor !== 0n) {
    const [coupon] = await tx
      .select({ code: coupons.code })
      .from(coupons)
      .where(eq(coupons.id, order.couponId));
    couponCode = coupon?.code ?? null;
  }
  const period = orderPeriod(order, paidAt);
  const lines = invoiceLines({
    kind: order.kind,
    plan: order.plan,
    interval: order.interval,
    subtotalMinor: order.subtotalMinor,
    creditMinor: order.creditMinor,
    discountMinor: order.discountMinor,
    netMinor: order.netMinor,
    taxMinor: order.taxMinor,
    totalMinor: order.totalMinor,
    taxRate: order.taxRate,
    reverseCharge: order.reverseCharge,
    couponCode,
    periodStart: period.start,
    periodEnd: period.end,
  });
  const check = checkLinesSum(lines, order);
  if (!check.ok) throw new Error(`The invoice of order ${order.id} does not add up: ${check.message}`);
  const number = await nextDocumentNumber(tx, "INV", paidAt);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      orderId: order.id,
      organizationId: order.organizationId,
      number,
      status: "paid",
      currency: order.currency,
      subtotalMinor: order.subtotalMinor,
      creditMinor: order.creditMinor,
      discountMinor: order.discountMinor,
      netMinor: order.netMinor,
      taxMinor: order.taxMinor,
      totalMinor: order.totalMinor,
      taxRate: order.taxRate,
      reverseCharge: order.reverseCharge,
      billingName: order.billingName,
      billingCountry: order.billingCountry,
      vatId: order.vatId,
      periodStart: period.start,
      periodEnd: period.end,
      createdAt: paidAt,
      finalizedAt: paidAt,
    })
    .returning({ id: invoices.id });
  if (!invoice) throw new Error(`The invoice of order ${order.id} was not written`);
  await tx.insert(invoiceLinesTable).values(lines.map((line) => ({ invoiceId: invoice.id, ...line })));
  return { id: invoice.id, number, lines };
}

/** Paid orders given an invoice per backfill transaction. */
export const BACKFILL_BATCH = 200;

/**
 * Gives every paid order that has no invoice one, oldest payment first (orders paid before invoices
 * existed). Their signed receipts were issued before and stay as they were: the invoice refers to the
 * order, the receipt does not name the invoice. Runs under one advisory lock, so instances starting
 * together number each order once; a settlement never races it, since it only invoices orders it
 * moves from pending to paid. Bounded batches, each in its own transaction. Returns how many it issued.
 */
export async function backfillInvoices(db: Db, options: { batch?: number; maxBatches?: number } = {}) {
  const batch = options.batch ?? BACKFILL_BATCH;
  const maxBatches = options.maxBatches ?? 10_000;
  let issued = 0;
  for (let round = 0; round < maxBatches; round++) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('abacus:invoice-backfill', 0))`);
      const missing = await tx
        .select({ order: orders })
        .from(orders)
        .leftJoin(invoices, eq(invoices.orderId, orders.id))
        .where(and(eq(orders.status, "paid"), isNull(invoices.id)))
        .orderBy(asc(orders.paidAt), asc(orders.id))
        .limit(batch);
      for (const { order } of missing) await issueInvoice(tx, order, order.paidAt ?? order.createdAt);
      issued += missing.length;
      return missing.length < batch;
    });
    if (done) break;
  }
  return issued;
}
