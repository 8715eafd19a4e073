import type { Metadata } from "next";
import Link from "next/link";
import { TAX_COUNTRIES } from "@/core/billing/tax-rates";
import { BillingPage, loadBillingPage, PastDueBanner } from "@/features/billing";
import { ALL_MEMBER_ROLES, MANAGER_ROLES, requireOrgRole } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const metadata: Metadata = { title: "Billing" };

export default async function Page() {
  const viewer = await requireOrgRole("/dashboard/billing", ALL_MEMBER_ROLES);
  const db = getDb();
  const now = new Date();
  const data = await loadBillingPage(db, await loadRateTable(db), viewer.org.id, now);
  const canManage = MANAGER_ROLES.includes(viewer.memberRole);
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const countries = TAX_COUNTRIES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort(
    (a, b) => a.label.localeCompare(b.label),
  );
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <div>
        <p className="text-sm text-muted-foreground">
          <Link href="/dashboard" className="underline underline-offset-4">
            {viewer.org.name}
          </Link>
        </p>
        <h1 className="text-3xl font-semibold tracking-tight">Billing</h1>
      </div>
      <PastDueBanner subscription={data.subscription} canManage={canManage} card={data.card} />
      <BillingPage data={data} canManage={canManage} countries={countries} now={now} />
    </div>
  );
}
