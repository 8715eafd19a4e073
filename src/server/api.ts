import "server-only";
import * as Sentry from "@sentry/nextjs";
import { unstable_rethrow } from "next/navigation";
import {
  ANONYMOUS_CACHE_CONTROL,
  ANONYMOUS_VARY,
  CLIENT_ADDRESS_HEADER,
  isCredentialLessRead,
  pinnedClientAddress,
  REQUEST_ID_HEADER,
  refusalCacheControl,
} from "@/core/http/edge-contract";
import { hashClient } from "./client-identity";
import { getDb } from "./db/client";
import { shortErrorLine } from "./db/errors";
import { isOutage } from "./health";
import { limitRequest, type RateLimitDecision } from "./rate-limit";
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
 * Per-client limit for anonymous API calls.
 * Returns a 429 response when the client is over it, otherwise null.
 */
/** The client's address as the server entry pinned it. */
export function clientAddress(request: Request): string {
  return pinnedClientAddress(request.headers.get(CLIENT_ADDRESS_HEADER));
}

/**
 * 429 for a refusal keyed on the client's address alone. Its Cache-Control tells the server in front
 * of Next.js (src/edge) how long the refusal holds, so that client's same request is answered there,
 * without Next.js, until then: a flood of refused requests costs almost nothing. The message states
 * no time (the edge repeats it as it is); Retry-After does.
 */
export function tooManyRequests(
  decision: Extract<RateLimitDecision, { allowed: false }>,
  rule?: { limit: number; windowSeconds: number },
): Response {
  const { retryAfterSeconds, holdsForMs } = decision;
  const response = apiError(429, "rate_limited", "Too many requests. Try again after Retry-After seconds.");
  response.headers.set("Retry-After", String(retryAfterSeconds));
  // The same RateLimit-* fields a keyed call's refusal carries (the edge repeats Limit and Policy).
  if (rule) {
    response.headers.set("RateLimit-Limit", String(rule.limit));
    response.headers.set("RateLimit-Remaining", "0");
    response.headers.set("RateLimit-Reset", String(retryAfterSeconds));
    response.headers.set("RateLimit-Policy", `${rule.limit};w=${rule.windowSeconds}`);
  }
  response.headers.set("Cache-Control", refusalCacheControl(holdsForMs));
  return response;
}

export async function limitAnonymousApi(request: Request): Promise<Response | null> {
  const decision = await limitRequest(
    getDb(),
    { bucket: "api-anonymous", ...ANONYMOUS_API_LIMIT },
    hashClient(clientAddress(request)),
  );
  return decision.allowed ? null : tooManyRequests(decision, ANONYMOUS_API_LIMIT);
}

/**
 * Marks `response` as the answer every credential-less GET of this URL gets, when `request` was one
 * (no Cookie, no Authorization header) and the answer sets no cookie, by a shared-cache lifetime
 * (`s-maxage`, varying on the credentials): the server in front of Next.js (src/edge) then repeats
 * it for a while without Next.js, e.g. "nobody is signed in" to a flood of anonymous session reads.
 * Any other request or answer is returned unmarked.
 */
export function anonymousAnswer(request: Request, response: Response): Response {
  const anonymous =
    isCredentialLessRead({
      method: request.method,
      hasCookie: request.headers.has("cookie"),
      hasAuthorization: request.headers.has("authorization"),
    }) &&
    response.status === 200 &&
    !response.headers.has("set-cookie");
  if (anonymous) {
    response.headers.set("Cache-Control", ANONYMOUS_CACHE_CONTROL);
    response.headers.append("Vary", ANONYMOUS_VARY);
  }
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
      // The id the server in front of Next.js gave this request (and logged it with).
      const request = args[0] instanceof Request ? args[0] : undefined;
      const requestId = request?.headers.get(REQUEST_ID_HEADER) ?? undefined;
      Sentry.captureException(error, requestId ? { tags: { request_id: requestId } } : undefined);
      return apiError(500, "internal_error", "Something went wrong on our side. Try again later.");
    }
  };
}

/** The methods a route handler file may export (Next.js's list). */
export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type RouteHandler<Context = unknown> = (
  request: Request,
  context: Context,
) => Response | Promise<Response>;

/**
 * Every method of a route file, from the handlers it implements, so that no method answers Next.js's
 * empty 405 (nor its HTML 404): HEAD runs GET and OPTIONS answers 204 with `Allow`, as Next.js would
 * do by itself, and every other method answers 405 `method_not_allowed` in the API's error shape
 * with `Allow`. A route file exports them all:
 * `export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: … });`
 */
export function apiMethods<Context>(
  handlers: Partial<Record<HttpMethod, RouteHandler<Context>>>,
): Record<HttpMethod, RouteHandler<Context>> {
  const own = { ...handlers };
  if (!own.HEAD && own.GET) own.HEAD = own.GET;
  const allow = [...new Set([...HTTP_METHODS.filter((method) => own[method]), "OPTIONS"])].sort().join(", ");
  own.OPTIONS ??= () => new Response(null, { status: 204, headers: { Allow: allow } });
  const notAllowed = (request: Request) => {
    const response = apiError(
      405,
      "method_not_allowed",
      `This endpoint does not answer ${request.method}; it answers ${allow}.`,
    );
    response.headers.set("Allow", allow);
    return response;
  };
  return byMethod((method) => own[method] ?? notAllowed);
}

/** Every method of `/api/[[...path]]`, which only unknown `/api/*` paths reach: 404 `not_found`. */
export function unknownApiPath(): Record<HttpMethod, RouteHandler> {
  const notFound = () =>
    apiError(404, "not_found", "There is no such API endpoint; see /api/v1/openapi.json for the public API.");
  return byMethod(() => notFound);
}

function byMethod<Handler>(pick: (method: HttpMethod) => Handler): Record<HttpMethod, Handler> {
  const handlers = {} as Record<HttpMethod, Handler>;
  for (const method of HTTP_METHODS) handlers[method] = pick(method);
  return handlers;
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

export type ApiCaller = { organizationId: string | null; headers: Record<string, string> };

/** A JSON answer of the API with the caller's quota headers. */
export function apiJson(body: unknown, caller: ApiCaller, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...caller.headers } });
}

/** An error response of the API that still carries the caller's quota headers. */
export function apiCallerError(
  caller: ApiCaller,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return withCallerHeaders(apiError(status, code, message, extra), caller);
}

/** Adds the caller's quota headers to a response made elsewhere (e.g. a body-cap refusal). */
export function withCallerHeaders(response: Response, caller: ApiCaller): Response {
  for (const [name, value] of Object.entries(caller.headers)) response.headers.set(name, value);
  return response;
}
