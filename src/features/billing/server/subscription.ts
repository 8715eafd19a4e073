import "server-only";
import { eq } from "drizzle-orm";
import type { PlanId } from "@/core/billing/plans";
import { downgradeTargets, effectivePlan } from "@/core/billing/subscription";
import type { Db } from "@/server/db/client";
import { getSubscription, type SubscriptionRow } from "@/server/plan-limits";
import { MAX_CANCEL_REASON } from "./limits";

export { getSubscription, organizationPlan, type SubscriptionRow } from "@/server/plan-limits";

import { subscriptions } from "@/server/db/schema";

export type ChangeResult = { ok: true; subscription: SubscriptionRow } | { ok: false; error: string };

async function activeSubscription(db: Db, organizationId: string, now: Date) {
  const sub = await getSubscription(db, organizationId);
  if (!sub || effectivePlan(sub, now) === "free" || sub.currentPeriodEnd <= now) return null;
  return sub;
}

async function update(db: Db, organizationId: string, set: Partial<SubscriptionRow>): Promise<ChangeResult> {
  const [row] = await db
    .update(subscriptions)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(subscriptions.organizationId, organizationId))
    .returning();
  return row ? { ok: true, subscription: row } : { ok: false, error: "There is no subscription to change." };
}

/**
 * Stops the plan at the end of the paid period; the organization then returns to Free. The optional
 * reason is kept with the time of the cancellation.
 */
export async function cancelAtPeriodEnd(
  db: Db,
  organizationId: string,
  now = new Date(),
  reason: string | null = null,
): Promise<ChangeResult> {
  const sub = await activeSubscription(db, organizationId, now);
  if (!sub) return { ok: false, error: "This organization is on the Free plan: there is nothing to cancel." };
  if (sub.cancelAtPeriodEnd) return { ok: false, error: "The plan is already set to end with this period." };
  const kept = reason?.trim().slice(0, MAX_CANCEL_REASON) || null;
  return update(db, organizationId, {
    cancelAtPeriodEnd: true,
    scheduledPlan: null,
    canceledAt: now,
    cancelReason: kept,
  });
}

/**
 * Moves to a lower paid plan when the paid period ends (Team to Pro). It replaces a scheduled
 * cancellation, whose time and reason go with it (as with `keepPlan`).
 */
export async function scheduleDowngrade(
  db: Db,
  organizationId: string,
  target: PlanId,
  now = new Date(),
): Promise<ChangeResult> {
  if (target === "free") return cancelAtPeriodEnd(db, organizationId, now);
  const sub = await activeSubscription(db, organizationId, now);
  if (!sub)
    return { ok: false, error: "This organization is on the Free plan: there is nothing to downgrade." };
  if (!downgradeTargets(sub.plan).includes(target)) {
    return { ok: false, error: `${sub.plan === "pro" ? "Pro" : "Team"} cannot be downgraded to that plan.` };
  }
  return update(db, organizationId, {
    scheduledPlan: target,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    cancelReason: null,
  });
}

/** Undoes a scheduled cancellation or downgrade: the plan continues as it is. */
export async function keepPlan(db: Db, organizationId: string, now = new Date()): Promise<ChangeResult> {
  const sub = await activeSubscription(db, organizationId, now);
  if (!sub) return { ok: false, error: "There is no active plan to keep." };
  if (!sub.cancelAtPeriodEnd && !sub.scheduledPlan) return { ok: false, error: "No change is scheduled." };
  return update(db, organizationId, {
    cancelAtPeriodEnd: false,
    scheduledPlan: null,
    canceledAt: null,
    cancelReason: null,
  });
}
