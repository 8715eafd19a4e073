import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { orders, payments, receipts } from "@/server/db/schema";

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
