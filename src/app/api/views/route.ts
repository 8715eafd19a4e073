import { recordPageView } from "@/server/analytics/page-views";
import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { BodyTooLarge, readBodyCapped } from "@/server/read-body";

// First-party page views (off Vercel): `{ "path": "/pricing" }` from the beacon in
// features/monitoring/page-views.tsx. No cookie is read or set; no address or user agent is stored.
export const dynamic = "force-dynamic";

const MAX_BODY = 1024;

export async function POST(request: Request) {
  // Only this site's pages send beacons; browsers mark cross-site requests.
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return new Response(null, { status: 403 });
  let path: unknown;
  try {
    const body = new TextDecoder().decode(await readBodyCapped(request, MAX_BODY));
    path = (JSON.parse(body) as { path?: unknown } | null)?.path;
  } catch (error) {
    return new Response(null, { status: error instanceof BodyTooLarge ? 413 : 400 });
  }
  const result = await recordPageView(getDb(), path, await clientSubject());
  return new Response(null, { status: result === "limited" ? 429 : 204 });
}
