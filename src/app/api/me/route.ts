import { loadMeSummary } from "@/features/account/queries";
import { apiRoute } from "@/server/api";
import { getViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** Who is signed in, for the header (pages stay static; the header asks after loading). */
export const GET = apiRoute(async () => {
  const viewer = await getViewer();
  const body = viewer ? await loadMeSummary(getDb(), viewer) : null;
  return Response.json(body, { headers: { "Cache-Control": "private, no-store" } });
});
