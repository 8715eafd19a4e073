import type { Metadata } from "next";
import { InvoiceAdmin, revenueSummary, searchInvoices } from "@/features/billing";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Billing" };

export default async function BillingAdminPage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string | string[] }>;
}) {
  await requireAdmin("/admin/billing");
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 100) ?? "";
  const db = getDb();
  const [rows, revenue] = await Promise.all([searchInvoices(db, q, 50), revenueSummary(db)]);
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Billing</h1>
        <p className="mt-2 text-muted-foreground">
          Invoices of every organization, the newest 50 that match, with refunds as credit notes.
        </p>
      </div>
      <InvoiceAdmin rows={rows} q={q} revenue={revenue} />
    </div>
  );
}
