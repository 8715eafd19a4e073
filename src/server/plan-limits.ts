import "server-only";
import { and, count, eq, gt } from "drizzle-orm";
import { planOf, upgradeFor } from "@/core/billing/plans";
import { plural } from "@/core/plural";
import { organizationPlan } from "./billing/subscription";
import type { Db } from "./db/client";
import { invitation, member } from "./db/schema";

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
