import { BODY_CAPS } from "@/core/http/edge-contract";
import { guardApi } from "@/features/api-keys/server";
import { evaluateSheetLines } from "@/features/calculator/api";
import { sheetBody } from "@/features/calculator/api-schemas";
import { apiCallerError, apiJson, apiMethods, apiRoute, readJsonBody, withCallerHeaders } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

// the same quota and body cap as /api/v1/calculate: a sheet is a calculation of many lines
const handle = apiRoute(async (request: Request) => {
  const gate = await guardApi(request);
  if ("response" in gate) return gate.response;
  const { caller } = gate;
  const body = await readJsonBody(request, BODY_CAPS.calculate, '{"sheet": "rent = 1250 EUR\\nrent * 12"}');
  if (!body.ok) return withCallerHeaders(body.response, caller);
  const parsed = sheetBody.safeParse(body.value);
  if (!parsed.success) {
    return apiCallerError(
      caller,
      400,
      "invalid_request",
      parsed.error.issues[0]?.message ?? "Invalid request",
    );
  }
  const outcome = evaluateSheetLines(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) return apiCallerError(caller, 400, outcome.code, outcome.message);
  return apiJson(outcome.body, caller);
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ POST: handle });
