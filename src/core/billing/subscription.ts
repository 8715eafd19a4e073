/**
 * Subscription periods and what happens at their end. Pure: `now` is passed in.
 *
 * A paid order starts a period (one month or one year). During it the organization has the plan it
 * paid for, and no longer: only a renewal (a new paid period) extends it. Cancel at period end means
 * no renewal; a downgrade (Team to Pro) is the plan the renewal charges. Changes never cut a paid
 * period short.
 */
import type { BillingInterval, PlanId } from "./plans";
import type { SubscriptionStatus } from "./vocabulary";

/** The same day of the month one month (or one year) later, clamped to the month's last day, in UTC. */
export function addPeriod(start: Date, interval: BillingInterval): Date {
  const months = interval === "yearly" ? 12 : 1;
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(start);
  d.setUTCFullYear(y, m, Math.min(start.getUTCDate(), lastDay));
  return d;
}

export interface SubscriptionState {
  plan: Exclude<PlanId, "free">;
  interval: BillingInterval;
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  scheduledPlan: Exclude<PlanId, "free"> | null;
}

/**
 * The plan an organization has now: the paid plan only inside a period that was paid for. When the
 * period ends the subscription must have been renewed (which starts a new period, on the scheduled
 * plan if a downgrade was set); a period that ends unpaid, cancelled or not, falls back to Free.
 * Past due (a declined renewal being retried) is no grace: it keeps the plan only while the paid
 * period lasts, and a paid retry restores it from the retry on. An ended subscription is Free.
 */
export function effectivePlan(sub: SubscriptionState | null | undefined, now: Date): PlanId {
  if (!sub || (sub.status !== "active" && sub.status !== "past_due")) return "free";
  return now < sub.currentPeriodEnd ? sub.plan : "free";
}

const RANK: Record<PlanId, number> = { free: 0, pro: 1, team: 2 };

/** Plans an owner can schedule for the end of the period: every lower paid plan. */
export function downgradeTargets(plan: PlanId): Exclude<PlanId, "free">[] {
  return (["pro", "team"] as const).filter((p) => RANK[p] < RANK[plan]);
}

export function isUpgradeOrChange(current: PlanId, target: PlanId): boolean {
  return RANK[target] >= RANK[current];
}
