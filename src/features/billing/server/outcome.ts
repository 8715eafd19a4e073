import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/server/db/client";
import { orders, receipts } from "@/server/db/schema";

export type OrderRow = typeof orders.$inferSelect;

export type CheckoutOutcome =
  | { status: "paid"; orderId: string; receiptNumber: string | null; alreadyActive?: boolean }
  | { status: "failed"; orderId: string; code: string; reason: string }
  /** The provider has not said whether the money moved: retry with the same key, never a new one. */
  | { status: "pending"; orderId: string; reason: string }
  /** `field`: the form field the message belongs beside. */
  | { status: "invalid"; message: string; field?: "couponCode" | "vatId" };

export const PENDING_REASON =
  "The payment provider has not confirmed this payment yet, so it may or may not have gone through. " +
  "Submit again with the same card to check on it: it will not be charged twice.";

/** What an order's current state means for the customer who placed it. */
export async function outcomeOf(tx: Tx, order: OrderRow): Promise<CheckoutOutcome> {
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

/**
 * Serializes everything that places, charges or settles an organization's orders (checkout submits
 * on any app instance, and webhooks), until the transaction ends.
 */
export async function lockOrganizationBilling(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`abacus:checkout:${organizationId}`}, 0))`,
  );
}

/** An order no one is charging now: never claimed, or its claim has lapsed. */
export const unclaimedOrder = sql`(${orders.claimedUntil} is null or ${orders.claimedUntil} < now())`;

/**
 * Claims a pending order for `seconds`, so that only this request calls the provider for it; null
 * when another holds a live claim. A claim that lapses (a crashed instance) can be taken over, and
 * the provider's idempotency key makes the second call answer the first one's result.
 */
export async function claimOrder(tx: Tx, orderId: string, seconds: number): Promise<OrderRow | null> {
  const [claimed] = await tx
    .update(orders)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(and(eq(orders.id, orderId), unclaimedOrder))
    .returning();
  return claimed ?? null;
}
