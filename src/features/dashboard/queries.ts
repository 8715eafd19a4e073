import "server-only";
import { and, asc, count, eq, gte, sql } from "drizzle-orm";
import { type Plan, planOf } from "@/core/billing/plans";
import { isoDay, monthBounds } from "@/core/calendar";
import type { Db } from "@/server/db/client";
import { apiUsage, member, savedCalculations, user } from "@/server/db/schema";
import { organizationPlan } from "@/server/plan-limits";

export type DailyCalls = { day: string; calls: number };

export type DashboardUsage = {
  plan: Plan;
  apiCallsThisMonth: number;
  savedCalculations: number;
  members: number;
  /** The last 30 UTC days, oldest first, zero-filled. */
  daily: DailyCalls[];
  resetsOn: string;
};

export async function dashboardUsage(
  db: Db,
  organizationId: string,
  now = new Date(),
): Promise<DashboardUsage> {
  const { start, next } = monthBounds(now);
  const from = new Date(now.getTime() - 29 * 86_400_000);
  const [planId, month, saved, members, rows] = await Promise.all([
    organizationPlan(db, organizationId),
    db
      .select({ n: sql<number>`coalesce(sum(${apiUsage.calls}), 0)::int` })
      .from(apiUsage)
      .where(and(eq(apiUsage.organizationId, organizationId), gte(apiUsage.day, isoDay(start)))),
    db
      .select({ n: count() })
      .from(savedCalculations)
      .where(
        and(
          eq(savedCalculations.organizationId, organizationId),
          sql`${savedCalculations.deletedAt} is null`,
        ),
      ),
    db.select({ n: count() }).from(member).where(eq(member.organizationId, organizationId)),
    db
      .select({ day: apiUsage.day, calls: apiUsage.calls })
      .from(apiUsage)
      .where(and(eq(apiUsage.organizationId, organizationId), gte(apiUsage.day, isoDay(from))))
      .orderBy(asc(apiUsage.day)),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r.calls]));
  const daily: DailyCalls[] = [];
  for (let i = 29; i >= 0; i--) {
    const day = isoDay(new Date(now.getTime() - i * 86_400_000));
    daily.push({ day, calls: byDay.get(day) ?? 0 });
  }
  return {
    plan: planOf(planId),
    apiCallsThisMonth: month[0]?.n ?? 0,
    savedCalculations: saved[0]?.n ?? 0,
    members: members[0]?.n ?? 0,
    daily,
    resetsOn: isoDay(next),
  };
}

export async function memberSummary(db: Db, organizationId: string, max = 5) {
  return db
    .select({ name: user.name, email: user.email, role: member.role })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, organizationId))
    .orderBy(asc(member.createdAt))
    .limit(max);
}
