import { calculate } from "@/features/calculator/api";
import { calculateBody } from "@/features/calculator/api-schemas";
import { apiError, apiJson, guardApi } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";
import { BodyTooLarge, readBodyCapped } from "@/server/read-body";

export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 16_384;

export async function POST(request: Request) {
  const gate = await guardApi(request);
  if ("response" in gate) return gate.response;
  const { caller } = gate;
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => {
    const response = apiError(status, code, message, extra);
    for (const [name, value] of Object.entries(caller.headers)) response.headers.set(name, value);
    return response;
  };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(await readBodyCapped(request, MAX_BODY_BYTES)));
  } catch (error) {
    if (error instanceof BodyTooLarge) return fail(413, "body_too_large", "The request body is over 16 KB.");
    return fail(400, "invalid_json", 'The request body must be JSON such as {"expression": "1 + 2"}');
  }
  const parsed = calculateBody.safeParse(json);
  if (!parsed.success) {
    return fail(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  }
  const outcome = calculate(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) {
    return fail(400, outcome.code, outcome.message, outcome.column ? { column: outcome.column } : {});
  }
  return apiJson(outcome.body, caller);
}
