import "server-only";
import * as Sentry from "@sentry/nextjs";
import { unstable_rethrow } from "next/navigation";
import { hashClient } from "./client-identity";
import { getDb } from "./db/client";
import { shortErrorLine } from "./db/errors";
import { isOutage } from "./health";
import { limitRequest } from "./rate-limit";
import { BodyTooLarge, readBodyCapped } from "./read-body";

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

export const UNAVAILABLE_MESSAGE = "Abacus is temporarily unavailable. Try again in a moment.";

/** 503 in the API's error shape, with a Retry-After. */
export function serviceUnavailable(): Response {
  const response = apiError(503, "service_unavailable", UNAVAILABLE_MESSAGE);
  response.headers.set("Retry-After", "5");
  return response;
}

/**
 * Wraps a route handler so that every failure keeps the API's error shape: the database being
 * unreachable answers 503 `service_unavailable`, anything else 500 `internal_error` (reported to
 * monitoring, logged in one short line). Next.js's own control flow (redirect, notFound) passes.
 */
export function apiRoute<Args extends unknown[]>(
  handler: (...args: Args) => Response | Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      unstable_rethrow(error);
      if (await isOutage(error)) return serviceUnavailable();
      console.error(`api: ${shortErrorLine(error)}`);
      Sentry.captureException(error);
      return apiError(500, "internal_error", "Something went wrong on our side. Try again later.");
    }
  };
}

/**
 * The request's JSON body, read with a byte cap before parsing. Returns the value, or a 413/400
 * response in the API's error shape.
 */
export async function readJsonBody(
  request: Request,
  limit: number,
  example: string,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyCapped(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return {
        ok: false,
        response: apiError(413, "payload_too_large", `The request body must be at most ${limit} bytes.`),
      };
    }
    return { ok: false, response: apiError(400, "invalid_body", "The request body could not be read.") };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return {
      ok: false,
      response: apiError(400, "invalid_json", `The request body must be JSON such as ${example}`),
    };
  }
}
