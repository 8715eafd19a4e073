import { headers } from "next/headers";
import { loadReceipt } from "@/features/billing";
import { getAuth } from "@/server/auth";
import { loadMembership, loadViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** GET /receipt/download?number=…&file=json|sig|pem: a receipt's files, for members of its organization. */
export async function GET(request: Request) {
  const db = getDb();
  const viewer = await loadViewer(db, getAuth(), await headers());
  const membership = viewer ? await loadMembership(db, viewer.user.id, viewer.activeOrganizationId) : null;
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!viewer || !membership) return notFound();
  const url = new URL(request.url);
  const receipt = await loadReceipt(db, membership.org.id, url.searchParams.get("number") ?? "");
  if (!receipt) return notFound();
  const file = url.searchParams.get("file");
  const base = { "Cache-Control": "private, no-store" };
  if (file === "json") {
    // Exactly the signed bytes: no added newline or indentation.
    return new Response(receipt.payload, {
      headers: {
        ...base,
        "Content-Type": "application/json",
        "Content-Disposition": `attachment; filename="receipt.json"`,
      },
    });
  }
  if (file === "sig") {
    return new Response(new Uint8Array(Buffer.from(receipt.signature, "base64")), {
      headers: {
        ...base,
        "Content-Type": "application/octet-stream",
        "Content-Disposition": `attachment; filename="receipt.sig"`,
      },
    });
  }
  if (file === "pem") {
    return new Response(receipt.publicKeyPem, {
      headers: {
        ...base,
        "Content-Type": "application/x-pem-file",
        "Content-Disposition": `attachment; filename="receipt-key.pem"`,
      },
    });
  }
  return notFound();
}
