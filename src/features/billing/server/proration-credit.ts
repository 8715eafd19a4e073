import "server-only";
import { and, desc, eq, lte, ne } from "drizzle-orm";
import { addPeriod } from "@/core/billing/subscription";
import type { Tx } from "@/server/db/client";
import { orders } from "@/server/db/schema";
import type { OrderRow } from "./outcome";

/**
 * The end of the old period a proration's credit is for: the period paid by the order the plan
 * change credited (the organization's last paid order when the change took effect). An interval
 * change restarts the period, so the credit's span (change..old end) differs from the charge's
 * (change..new end). Null for anything else, or when that order is not found.
 */
export async function creditedPeriodEnd(tx: Tx, order: OrderRow): Promise<Date | null> {
  if (order.kind !== "proration" || order.creditMinor === 0n || !order.periodStart) return null;
  const changedAt = order.periodStart;
  const [credited] = await tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.organizationId, order.organizationId),
        eq(orders.status, "paid"),
        ne(orders.id, order.id),
        lte(orders.paidAt, changedAt),
      ),
    )
    .orderBy(desc(orders.paidAt), desc(orders.createdAt))
    .limit(1);
  if (!credited?.paidAt) return null;
  const end = credited.periodEnd ?? addPeriod(credited.periodStart ?? credited.paidAt, credited.interval);
  return end > changedAt ? end : null;
}
