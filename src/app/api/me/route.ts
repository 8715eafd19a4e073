import { loadMeSummary } from "@/features/account/server";
import { anonymousAnswer, apiMethods, apiRoute } from "@/server/api";
import { getViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** Who is signed in, for the header (pages stay static; the header asks after loading). */
const handle = apiRoute(async (request: Request) => {
  const viewer = await getViewer();
  const body = viewer ? await loadMeSummary(getDb(), viewer) : null;
  const response = Response.json(body, { headers: { "Cache-Control": "private, no-store" } });
  return viewer ? response : anonymousAnswer(request, response);
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
