import { guardApi } from "@/features/api-keys/server";
import { convertAmount } from "@/features/calculator/api";
import { convertQuery } from "@/features/calculator/api-schemas";
import { apiCallerError, apiJson, apiMethods, apiRoute } from "@/server/api";
import { getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";

export const dynamic = "force-dynamic";

const handle = apiRoute(async (request: Request) => {
  const gate = await guardApi(request);
  if ("response" in gate) return gate.response;
  const { caller } = gate;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = convertQuery.safeParse(params);
  if (!parsed.success) {
    return apiCallerError(
      caller,
      400,
      "invalid_request",
      parsed.error.issues[0]?.message ?? "Invalid request",
    );
  }
  const outcome = convertAmount(parsed.data, await loadRateTable(getDb()));
  if (!outcome.ok) return apiCallerError(caller, 400, outcome.code, outcome.message);
  return apiJson(outcome.body, caller);
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
