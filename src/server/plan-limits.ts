import "server-only";
import { and, count, eq, gt } from "drizzle-orm";
import { type PlanId, planOf, upgradeFor } from "@/core/billing/plans";
import { effectivePlan } from "@/core/billing/subscription";
import { plural } from "@/core/plural";
import type { Db, Tx } from "./db/client";
import { invitation, member, subscriptions } from "./db/schema";

/*
 * The plan an organization has at this moment, and what it allows. Billing writes subscriptions;
 * this read sits in the shared server layer because sign-up, invitations and the API quota (below
 * features) enforce the plan too.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function getSubscription(db: Db | Tx, organizationId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId));
  return row ?? null;
}

/** The plan the organization has now (Free without a subscription or after it ended). */
export async function organizationPlan(
  db: Db | Tx,
  organizationId: string,
  now = new Date(),
): Promise<PlanId> {
  return effectivePlan(await getSubscription(db, organizationId), now);
}

/** Better Auth needs a number; an unlimited plan still stops at this many members. */
export const MEMBER_HARD_CAP = 500;

/** The most members an organization's plan allows (the hard cap for unlimited plans). */
export async function memberLimitOf(db: Db, organizationId: string): Promise<number> {
  return planOf(await organizationPlan(db, organizationId)).limits.members ?? MEMBER_HARD_CAP;
}

/**
 * Null when the organization has room for one more member, otherwise a sentence that says why
 * not and which plan would fit. `countPending` also counts pending invitations (at invite time, so
 * every invitation sent can still be accepted).
 */
export async function memberLimitProblem(
  db: Db,
  organizationId: string,
  options: { countPending: boolean },
): Promise<string | null> {
  const plan = planOf(await organizationPlan(db, organizationId));
  const limit = plan.limits.members ?? MEMBER_HARD_CAP;
  const [members] = await db
    .select({ n: count() })
    .from(member)
    .where(eq(member.organizationId, organizationId));
  let used = members?.n ?? 0;
  if (options.countPending) {
    const [pending] = await db
      .select({ n: count() })
      .from(invitation)
      .where(
        and(
          eq(invitation.organizationId, organizationId),
          eq(invitation.status, "pending"),
          gt(invitation.expiresAt, new Date()),
        ),
      );
    used += pending?.n ?? 0;
  }
  if (used < limit) return null;
  const next = upgradeFor(plan.id, (limits) => limits.members === null || limits.members > used);
  const counted = options.countPending ? "members and pending invitations" : "members";
  return `The ${plan.name} plan allows ${plural(limit, "member")} and this organization has ${used} ${counted}.${next ? ` Upgrade to ${next.name} on the pricing page to add more.` : ""}`;
}
