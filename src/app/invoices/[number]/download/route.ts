import { headers } from "next/headers";
import { canSeeInvoices, findInvoice, invoiceFileResponse } from "@/features/billing";
import { getAuth } from "@/server/auth";
import { isAdminViewer, loadViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/**
 * GET /invoices/{number}/download?file=pdf|json|sig: an invoice as PDF, or its payment's signed
 * receipt (exactly the signed bytes, naming the invoice) and its signature; with
 * `&note=CN-…` and file=json|sig, one of the invoice's issued credit notes instead. For members of
 * its organization and platform admins.
 */
export async function GET(request: Request, { params }: { params: Promise<{ number: string }> }) {
  const db = getDb();
  const { number } = await params;
  const viewer = await loadViewer(db, getAuth(), await headers());
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!viewer) return notFound();
  const invoice = await findInvoice(db, number);
  if (
    !invoice ||
    !(await canSeeInvoices(
      db,
      { userId: viewer.user.id, isPlatformAdmin: isAdminViewer(viewer) },
      invoice.organizationId,
    ))
  ) {
    return notFound();
  }
  const query = new URL(request.url).searchParams;
  return (await invoiceFileResponse(invoice, query.get("file"), query.get("note"))) ?? notFound();
}
