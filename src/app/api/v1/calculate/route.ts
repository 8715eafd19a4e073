import { calculate } from "@/features/calculator/api";
import { calculateBody } from "@/features/calculator/api-schemas";
import { apiError, limitAnonymousApi } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const limited = await limitAnonymousApi(request);
  if (limited) return limited;
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return apiError(400, "invalid_json", 'The request body must be JSON such as {"expression": "1 + 2"}');
  }
  const parsed = calculateBody.safeParse(json);
  if (!parsed.success) {
    return apiError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  }
  const outcome = calculate(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) {
    return apiError(400, outcome.code, outcome.message, outcome.column ? { column: outcome.column } : {});
  }
  return Response.json(outcome.body, { headers: { "Cache-Control": "no-store" } });
}
