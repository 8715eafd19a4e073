import type { Metadata } from "next";
import { InvoiceList, listInvoices } from "@/features/billing";
import { ALL_MEMBER_ROLES, requireOrgRole } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = {
  title: "Invoices",
  description:
    "The organization's numbered invoices, each printable and downloadable as PDF and signed JSON.",
};

export default async function Page() {
  const viewer = await requireOrgRole("/invoices", ALL_MEMBER_ROLES);
  const invoices = await listInvoices(getDb(), viewer.org.id, { limit: 100 });
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <p className="text-sm text-muted-foreground">{viewer.org.name}</p>
      <h1 className="text-2xl font-semibold tracking-tight">Invoices</h1>
      <div className="mt-6">
        <InvoiceList invoices={invoices} />
      </div>
    </div>
  );
}
