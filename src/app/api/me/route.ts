import { loadMeSummary } from "@/features/account/queries";
import { getViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** Who is signed in, for the header (pages stay static; the header asks after loading). */
export async function GET() {
  const viewer = await getViewer();
  const body = viewer ? await loadMeSummary(getDb(), viewer) : null;
  return Response.json(body, { headers: { "Cache-Control": "private, no-store" } });
}
