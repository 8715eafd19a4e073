import { BODY_CAPS } from "@/core/http/edge-contract";
import { PAGE_VIEWS_PER_CLIENT, recordPageView } from "@/server/analytics/page-views";
import { apiError, apiMethods, apiRoute } from "@/server/api";
import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { BodyTooLarge, readBodyCapped } from "@/server/read-body";

// First-party page views (off Vercel): `{ "path": "/pricing" }` from the beacon in
// features/monitoring/page-views.tsx. No cookie is read or set; no address or user agent is stored.
export const dynamic = "force-dynamic";

const MAX_BODY = BODY_CAPS.pageView;

const handle = apiRoute(async (request: Request) => {
  // Only this site's pages send beacons; browsers mark cross-site requests.
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin")
    return apiError(403, "forbidden", "Only this site's pages send page views.");
  let path: unknown;
  try {
    const body = new TextDecoder().decode(await readBodyCapped(request, MAX_BODY));
    path = (JSON.parse(body) as { path?: unknown } | null)?.path;
  } catch (error) {
    return error instanceof BodyTooLarge
      ? apiError(413, "payload_too_large", `The request body must be at most ${MAX_BODY} bytes.`)
      : apiError(400, "invalid_json", 'The request body must be JSON such as {"path": "/pricing"}');
  }
  const rule = { ...PAGE_VIEWS_PER_CLIENT, limit: getEnv().PAGE_VIEWS_PER_CLIENT_LIMIT };
  const result = await recordPageView(getDb(), path, await clientSubject(), rule);
  if (result === "limited") return apiError(429, "rate_limited", "Too many page views from this client.");
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ POST: handle });
