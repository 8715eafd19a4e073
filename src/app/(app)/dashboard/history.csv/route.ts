import { planOf, upgradeFor } from "@/core/billing/plans";
import { streamHistoryCsv } from "@/features/history/service";
import { ALL_MEMBER_ROLES, requireOrgRole } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { organizationPlan } from "@/server/plan-limits";

export const dynamic = "force-dynamic";

/** The active organization's whole calculation history as CSV, streamed (plans with CSV export). */
export async function GET() {
  const viewer = await requireOrgRole("/dashboard", ALL_MEMBER_ROLES);
  const db = getDb();
  const plan = planOf(await organizationPlan(db, viewer.org.id));
  if (!plan.limits.csvExport) {
    const next = upgradeFor(plan.id, (limits) => limits.csvExport);
    return new Response(
      `CSV export is not part of the ${plan.name} plan.${next ? ` Upgrade to ${next.name} on /pricing to export your history.` : ""}\n`,
      { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
    );
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(streamHistoryCsv(db, viewer.org.id), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${viewer.org.slug}-history-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
