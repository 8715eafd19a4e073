import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { canSeeInvoices, findInvoice, InvoiceView, sellerDetails } from "@/features/billing";
import { isAdminViewer, requireUser } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = {
  title: "Invoice",
  description: "A numbered invoice: print it, or download it as PDF or as the signed receipt JSON.",
};

export default async function Page({ params }: { params: Promise<{ number: string }> }) {
  const { number } = await params;
  const viewer = await requireUser(`/invoices/${encodeURIComponent(number)}`);
  const db = getDb();
  const invoice = await findInvoice(db, number);
  // Someone else's invoice is as unknown as one that does not exist.
  if (
    !invoice ||
    !(await canSeeInvoices(
      db,
      { userId: viewer.user.id, isPlatformAdmin: isAdminViewer(viewer) },
      invoice.organizationId,
    ))
  ) {
    notFound();
  }
  return <InvoiceView invoice={invoice} currentSeller={sellerDetails()} />;
}
