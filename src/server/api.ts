import "server-only";
import { hashClient } from "./client-identity";
import { getDb } from "./db/client";
import { limitRequest } from "./rate-limit";

/** `{ "error": { "code", "message", ... } }` with the given status: the API's one error shape. */
export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return Response.json(
    { error: { code, message, ...extra } },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

export const ANONYMOUS_API_LIMIT = { limit: 60, windowSeconds: 60 };

/**
 * Per-client limit for anonymous API calls (API keys and plan quotas arrive with the dashboard).
 * Returns a 429 response when the client is over it, otherwise null.
 */
export async function limitAnonymousApi(request: Request): Promise<Response | null> {
  const address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
  const decision = await limitRequest(
    getDb(),
    { bucket: "api-anonymous", ...ANONYMOUS_API_LIMIT },
    hashClient(address),
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
