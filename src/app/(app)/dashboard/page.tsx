import type { Metadata } from "next";
import Link from "next/link";
import { SettingsSection } from "@/components/ui/section";
import { MEMBER_ROLE_LABELS, memberRoleOf } from "@/core/auth/roles";
import { upgradeFor } from "@/core/billing/plans";
import { ApiKeys } from "@/features/api-keys/api-keys";
import { listApiKeys } from "@/features/api-keys/server";
import { BillingSection, loadBilling, PastDueBanner } from "@/features/billing";
import { dashboardUsage, memberSummary } from "@/features/dashboard/server";
import { UsageChart, UsageOverview } from "@/features/dashboard/usage";
import { HistoryList } from "@/features/history/history-list";
import { historyQuerySchema } from "@/features/history/schemas";
import { listSaved } from "@/features/history/service";
import { ALL_MEMBER_ROLES, MANAGER_ROLES, requireOrgRole } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Dashboard" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await requireOrgRole("/dashboard", ALL_MEMBER_ROLES);
  const query = historyQuerySchema.parse(await searchParams);
  const db = getDb();
  const canManage = MANAGER_ROLES.includes(viewer.memberRole);
  const [usage, history, keys, members, billing] = await Promise.all([
    dashboardUsage(db, viewer.org.id),
    listSaved(db, viewer.org.id, query),
    listApiKeys(db, viewer.org.id),
    memberSummary(db, viewer.org.id),
    loadBilling(db, viewer.org.id),
  ]);
  const csvUpgrade = upgradeFor(usage.plan.id, (limits) => limits.csvExport);

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">{viewer.org.name}</h1>
        <p className="mt-2 text-muted-foreground">
          Usage, saved calculations and API keys of your active organization. Your role here:{" "}
          {MEMBER_ROLE_LABELS[viewer.memberRole].toLowerCase()}.
        </p>
      </div>

      <PastDueBanner subscription={billing.subscription} canManage={canManage} />

      <UsageOverview usage={usage} canManage={canManage} />
      <UsageChart daily={usage.daily} />

      <BillingSection billing={billing} canManage={canManage} now={new Date()} />

      <section
        id="history"
        aria-labelledby="history-title"
        className="grid gap-4 rounded-lg border border-border bg-card p-6"
      >
        <div>
          <h2 id="history-title" className="font-semibold">
            Saved calculations
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Saved from the calculator by anyone in this organization. Open one to continue where it left off.
          </p>
        </div>
        <HistoryList
          rows={history.rows.map((row) => ({
            id: row.id,
            mode: row.mode,
            expression: row.expression,
            result: row.result,
            precision: row.precision,
            rounding: row.rounding,
            currencies: row.currencies,
            note: row.note,
            savedAt: when.format(row.createdAt),
            savedBy: row.savedBy,
            canDelete: canManage || row.savedById === viewer.user.id,
          }))}
          q={query.q}
          page={history.page}
          pages={history.pages}
          total={history.total}
          canExport={usage.plan.limits.csvExport}
          exportHint={`CSV export comes with ${csvUpgrade?.name ?? "a paid"} plan.`}
        />
      </section>

      <SettingsSection
        id="api-keys"
        title="API keys"
        description="Keys call /api/v1 for this organization and count against its plan. Each key is shown once."
      >
        <ApiKeys
          canManage={canManage}
          keys={keys.map((key) => ({
            id: key.id,
            name: key.name,
            prefix: key.prefix,
            createdAt: when.format(key.createdAt),
            lastUsedAt: key.lastUsedAt ? when.format(key.lastUsedAt) : null,
          }))}
        />
      </SettingsSection>

      <SettingsSection id="members" title="Members" description={`${usage.members} in this organization.`}>
        <ul className="grid gap-2 text-sm">
          {members.map((m) => (
            <li key={m.email} className="flex flex-wrap justify-between gap-2">
              <span>
                {m.name} <span className="text-muted-foreground">{m.email}</span>
              </span>
              <span className="text-muted-foreground">{MEMBER_ROLE_LABELS[memberRoleOf(m.role)]}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm">
          <Link href="/organization-profile" className="underline underline-offset-4">
            {canManage ? "Manage members and invitations" : "See all members"}
          </Link>
          {usage.members <= 1 && canManage
            ? " · Invite a colleague to share this history and these keys."
            : null}
        </p>
      </SettingsSection>
    </div>
  );
}
