import "server-only";
import { refusalCacheControl } from "@/core/http/edge-contract";
import { type ApiCaller, apiError, clientAddress, limitAnonymousApi, tooManyRequests } from "@/server/api";
import { hashClient } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { knownRefusal, limitRequest } from "@/server/rate-limit";
import { bearerOf, consumeKeyedCall } from "./keys";

/** Failed API keys one client may send per minute before it is refused without a lookup. */
export const INVALID_KEY_LIMIT = { bucket: "api-invalid-key", limit: 20, windowSeconds: 60 };

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
  // Guessing keys costs a lookup each: a client's failed keys are counted, and past the limit it is
  // refused from memory before any lookup.
  const client = hashClient(clientAddress(request));
  const guessing = knownRefusal(INVALID_KEY_LIMIT, client);
  if (guessing && !guessing.allowed) return { response: tooManyRequests(guessing, INVALID_KEY_LIMIT) };
  const decision = await consumeKeyedCall(getDb(), secret);
  if (!decision.ok && decision.status === 401) {
    const counted = await limitRequest(getDb(), INVALID_KEY_LIMIT, client);
    if (!counted.allowed) return { response: tooManyRequests(counted, INVALID_KEY_LIMIT) };
  }
  if (!decision.ok) {
    const response = apiError(decision.status, decision.code, decision.message);
    for (const [name, value] of Object.entries(decision.headers)) response.headers.set(name, value);
    if (decision.status === 401) response.headers.set("WWW-Authenticate", 'Bearer realm="abacus"');
    // A key's refusal depends on the key alone (the Authorization header): the edge repeats this
    // very answer (code, message and RateLimit headers; the message states no time) to the same
    // client's same request while it holds, without Next.js.
    if (decision.status === 429)
      response.headers.set("Cache-Control", refusalCacheControl(decision.holdsForMs));
    return { response };
  }
  return { caller: { organizationId: decision.organizationId, headers: decision.headers } };
}
