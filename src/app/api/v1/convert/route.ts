import { convertAmount } from "@/features/calculator/api";
import { convertQuery } from "@/features/calculator/api-schemas";
import { apiError, apiJson, guardApi } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const gate = await guardApi(request);
  if ("response" in gate) return gate.response;
  const { caller } = gate;
  const fail = (code: string, message: string) => {
    const response = apiError(400, code, message);
    for (const [name, value] of Object.entries(caller.headers)) response.headers.set(name, value);
    return response;
  };
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = convertQuery.safeParse(params);
  if (!parsed.success) return fail("invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  const outcome = convertAmount(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) return fail(outcome.code, outcome.message);
  return apiJson(outcome.body, caller);
}
