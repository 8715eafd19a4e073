import "server-only";
import { bearerOf, consumeKeyedCall } from "./api-keys";
import { hashClient } from "./client-identity";
import { getDb } from "./db/client";
import { consumeRateLimit } from "./rate-limit";

/** `{ "error": { "code", "message", ... } }` with the given status: the API's one error shape. */
export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return Response.json(
    { error: { code, message, ...extra } },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

export const ANONYMOUS_API_LIMIT = { limit: 60, windowSeconds: 60 };

/**
 * Per-client limit for anonymous API calls.
 * Returns a 429 response when the client is over it, otherwise null.
 */
export async function limitAnonymousApi(request: Request): Promise<Response | null> {
  const address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
  const decision = await getDb().transaction((tx) =>
    consumeRateLimit(tx, { bucket: "api-anonymous", ...ANONYMOUS_API_LIMIT }, hashClient(address)),
  );
  if (decision.allowed) return null;
  const response = apiError(
    429,
    "rate_limited",
    `Too many requests. Try again in ${decision.retryAfterSeconds} s.`,
  );
  response.headers.set("Retry-After", String(decision.retryAfterSeconds));
  return response;
}

export type ApiCaller = { organizationId: string | null; headers: Record<string, string> };

/**
 * The gate of every `/api/v1/*` endpoint that uses quota. With `Authorization: Bearer <key>` the
 * call is counted against the key's organization (401 for an unknown or revoked key, 429 past the
 * plan's monthly quota or burst); without one, the anonymous per-client limit applies.
 * Returns the response to send instead, or the caller and the headers to add to the answer.
 */
export async function guardApi(request: Request): Promise<{ response: Response } | { caller: ApiCaller }> {
  const secret = bearerOf(request);
  if (secret === null) {
    const limited = await limitAnonymousApi(request);
    return limited ? { response: limited } : { caller: { organizationId: null, headers: {} } };
  }
  const decision = await consumeKeyedCall(getDb(), secret);
  if (!decision.ok) {
    const response = apiError(decision.status, decision.code, decision.message);
    for (const [name, value] of Object.entries(decision.headers)) response.headers.set(name, value);
    if (decision.status === 401) response.headers.set("WWW-Authenticate", 'Bearer realm="abacus"');
    return { response };
  }
  return { caller: { organizationId: decision.organizationId, headers: decision.headers } };
}

/** A JSON answer of the API with the caller's quota headers. */
export function apiJson(body: unknown, caller: ApiCaller, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...caller.headers } });
}
