import type { Metadata } from "next";
import { BillingSection } from "@/features/billing/billing-section";
import { ALL_MEMBER_ROLES, requireOrgRole } from "@/server/authz";

export const metadata: Metadata = { title: "Dashboard" };

// The billing section is mounted here today; the dashboard itself (usage, history, API keys) arrives
// with its own issue, which keeps this section where it fits.
export default async function Page() {
  const viewer = await requireOrgRole("/dashboard", ALL_MEMBER_ROLES);
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Dashboard</h1>
        <p className="mt-2 text-muted-foreground">{viewer.org.name}</p>
      </div>
      <BillingSection organizationId={viewer.org.id} canManage={viewer.memberRole !== "member"} />
      <div className="rounded-lg border border-dashed border-border bg-muted/40 p-6 text-sm">
        <p className="font-medium">Coming soon</p>
        <p className="mt-1 text-muted-foreground">
          Usage against your plan's limits, calculation history and API keys will live here too.
        </p>
      </div>
    </div>
  );
}
