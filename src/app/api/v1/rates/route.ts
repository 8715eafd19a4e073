import { apiMethods, apiRoute } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

/** The instance's FX rates: units per 1 EUR as decimal strings, with their date. */
const handle = apiRoute(async () => {
  const table = await loadRateTable(getDb());
  return Response.json(table, { headers: { "Cache-Control": "public, max-age=60" } });
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
