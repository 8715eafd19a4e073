import { convertAmount } from "@/features/calculator/api";
import { convertQuery } from "@/features/calculator/api-schemas";
import { apiError, apiRoute, limitAnonymousApi } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request: Request) => {
  const limited = await limitAnonymousApi(request);
  if (limited) return limited;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = convertQuery.safeParse(params);
  if (!parsed.success) {
    return apiError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  }
  const outcome = convertAmount(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) return apiError(400, outcome.code, outcome.message);
  return Response.json(outcome.body, { headers: { "Cache-Control": "no-store" } });
});
