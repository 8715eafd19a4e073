import { BODY_CAPS } from "@/core/http/edge-contract";
import { guardApi } from "@/features/api-keys/server";
import { calculate } from "@/features/calculator/api";
import { calculateBody } from "@/features/calculator/api-schemas";
import { apiCallerError, apiJson, apiMethods, apiRoute, readJsonBody, withCallerHeaders } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

const handle = apiRoute(async (request: Request) => {
  const gate = await guardApi(request);
  if ("response" in gate) return gate.response;
  const { caller } = gate;
  const body = await readJsonBody(request, BODY_CAPS.calculate, '{"expression": "1 + 2"}');
  if (!body.ok) return withCallerHeaders(body.response, caller);
  const parsed = calculateBody.safeParse(body.value);
  if (!parsed.success) {
    return apiCallerError(
      caller,
      400,
      "invalid_request",
      parsed.error.issues[0]?.message ?? "Invalid request",
    );
  }
  const outcome = calculate(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) {
    return apiCallerError(
      caller,
      400,
      outcome.code,
      outcome.message,
      outcome.column ? { column: outcome.column } : {},
    );
  }
  return apiJson(outcome.body, caller);
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ POST: handle });
