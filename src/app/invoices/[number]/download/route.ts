import { headers } from "next/headers";
import { canSeeInvoices, findInvoice, invoicePdfResponse } from "@/features/billing";
import { getAuth } from "@/server/auth";
import { isAdminViewer, loadViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/**
 * GET /invoices/{number}/download?file=pdf|json: an invoice as PDF, or its payment's signed receipt
 * (exactly the signed bytes, naming the invoice), for members of its organization and platform admins.
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
  const file = new URL(request.url).searchParams.get("file");
  const base = { "Cache-Control": "private, no-store" };
  if (file === "pdf") return invoicePdfResponse(invoice);
  if (file === "json" && invoice.receipt) {
    return new Response(invoice.receipt.payload, {
      headers: {
        ...base,
        "Content-Type": "application/json",
        "Content-Disposition": `attachment; filename="${invoice.number}.json"`,
      },
    });
  }
  if (file === "sig" && invoice.receipt) {
    return new Response(new Uint8Array(Buffer.from(invoice.receipt.signature, "base64")), {
      headers: {
        ...base,
        "Content-Type": "application/octet-stream",
        "Content-Disposition": `attachment; filename="${invoice.number}.sig"`,
      },
    });
  }
  return notFound();
}
