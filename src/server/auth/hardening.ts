import "server-only";
import { APIError } from "better-auth/api";
import { z } from "zod";
import {
  emailField,
  nameField,
  orgNameField,
  orgRoleField,
  orgSlugField,
  passkeyNameField,
} from "@/core/auth/fields";
import { BODY_CAPS } from "@/core/http/edge-contract";
import { anonymousAnswer, apiError, serviceUnavailable } from "../api";
import { isOutage } from "../health";
import { BodyTooLarge, readBodyCapped } from "../read-body";
import { isServedOverHttp } from "./surface";

/**
 * Hardening of Better Auth's HTTP surface, kept apart from the configuration in auth.ts:
 *
 * - every `/api/auth/*` body is capped before Better Auth parses it (`capAuthRequest`);
 * - every endpoint that writes user, organization or member data gets the same zod field rules as
 *   our forms (`hardenAuthInput`, called first in auth.ts's `hooks.before`), for HTTP calls and
 *   `auth.api.*` calls alike;
 * - session tokens never appear in response bodies (`stripSessionTokens`): the cookie is httpOnly,
 *   and a token a script can read from `/get-session` would make that moot;
 * - errors keep the API's `{ error: { code, message } }` shape, and a failure while the database is
 *   down answers 503 (`toApiErrorShape`).
 */

/** Auth bodies are a few short fields (the cap is shared with the edge: core/http/edge-contract.ts). */
export const AUTH_BODY_LIMIT_BYTES = BODY_CAPS.auth;

const urlField = z
  .string()
  .max(2048, "Use a URL of at most 2,048 characters.")
  .refine((value) => value === "" || /^https?:\/\//i.test(value), "Use an http(s) URL.");
const metadataField = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 4096, "Keep metadata under 4 KB.");
const roles = z.union([orgRoleField, z.array(orgRoleField).min(1).max(3)]);
const platformRole = z.union([
  z.enum(["user", "admin"]),
  z
    .array(z.enum(["user", "admin"]))
    .min(1)
    .max(2),
]);
const shortText = z.string().max(500, "Use at most 500 characters.");

/** The fields our forms validate, per Better Auth endpoint that writes them. Others pass through. */
const userData = z.looseObject({
  name: nameField.optional(),
  email: emailField.optional(),
  image: urlField.nullish(),
});
const orgData = z.looseObject({
  name: orgNameField.optional(),
  slug: orgSlugField.optional(),
  logo: urlField.nullish(),
  metadata: metadataField.nullish(),
});

export const AUTH_INPUT_RULES: Record<string, z.ZodType<Record<string, unknown>>> = {
  "/sign-up/email": z.looseObject({ name: nameField, email: emailField, image: urlField.nullish() }),
  "/sign-in/email": z.looseObject({ email: emailField }),
  "/update-user": userData,
  "/change-email": z.looseObject({ newEmail: emailField }),
  "/organization/create": z.looseObject({
    name: orgNameField,
    slug: orgSlugField,
    logo: urlField.nullish(),
    metadata: metadataField.nullish(),
  }),
  "/organization/update": z.looseObject({ data: orgData }),
  "/organization/check-slug": z.looseObject({ slug: orgSlugField }),
  "/organization/invite-member": z.looseObject({ email: emailField, role: roles }),
  "/organization/update-member-role": z.looseObject({ role: roles }),
  "/admin/create-user": z.looseObject({
    name: nameField,
    email: emailField,
    role: platformRole.optional(),
    data: userData.optional(),
  }),
  "/admin/update-user": z.looseObject({ data: userData }),
  "/admin/set-role": z.looseObject({ role: platformRole }),
  "/admin/ban-user": z.looseObject({ banReason: shortText.optional() }),
  "/passkey/verify-registration": z.looseObject({ name: passkeyNameField.optional() }),
  "/passkey/update-passkey": z.looseObject({ name: passkeyNameField }),
};

type HookContext = { path?: string; body?: unknown };

/**
 * For `hooks.before`: refuses input our forms would refuse (400 INVALID_INPUT with the form's
 * message) and hands Better Auth the normalised values (trimmed names, lower-case emails and slugs).
 */
export function hardenAuthInput(ctx: HookContext): void {
  const rule = ctx.path ? AUTH_INPUT_RULES[ctx.path] : undefined;
  if (!rule || typeof ctx.body !== "object" || ctx.body === null) return;
  const result = rule.safeParse(ctx.body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".");
    throw new APIError("BAD_REQUEST", {
      message: `${field ? `${field}: ` : ""}${issue?.message ?? "Invalid input."}`,
      code: "INVALID_INPUT",
    });
  }
  // Same object Better Auth's endpoint reads next: normalise in place.
  Object.assign(ctx.body, result.data);
}

/**
 * The request with its body read under the cap (a missing or lying Content-Length cannot get past
 * it), or a 413 in the API's error shape.
 */
export async function capAuthRequest(request: Request): Promise<Request | Response> {
  if (request.method === "GET" || request.method === "HEAD") return request;
  let body: Uint8Array;
  try {
    body = await readBodyCapped(request, AUTH_BODY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return apiError(
        413,
        "payload_too_large",
        `The request body must be at most ${AUTH_BODY_LIMIT_BYTES} bytes.`,
      );
    }
    return apiError(400, "invalid_body", "The request body could not be read.");
  }
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: body as BodyInit });
}

/** Removes `token` properties (the session token) from a JSON value, a few levels deep. */
export function withoutTokens(value: unknown, depth = 0): unknown {
  if (depth > 4 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutTokens(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "token") continue;
    out[key] = withoutTokens(inner, depth + 1);
  }
  return out;
}

/** The response without session tokens in its JSON body (headers and cookies unchanged). */
export async function stripSessionTokens(response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("application/json") || response.body === null) return response;
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(withoutTokens(json)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * Better Auth answers errors as `{ code, message }` and catches its own failures (a database outage
 * included) as a 500: both become the API's error shape, and a 5xx while the database does not
 * answer becomes 503.
 */
export async function toApiErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  if (response.status >= 500) {
    if (await isOutage(undefined)) return serviceUnavailable();
    return apiError(500, "internal_error", "Something went wrong on our side. Try again later.");
  }
  let body: { code?: unknown; message?: unknown; error?: unknown } = {};
  try {
    body = (await response.clone().json()) as typeof body;
  } catch {}
  if (typeof body.error === "object" && body.error !== null) return response;
  const code = typeof body.code === "string" && body.code ? body.code.toLowerCase() : "auth_error";
  const message = typeof body.message === "string" && body.message ? body.message : response.statusText;
  const shaped = apiError(response.status, code, message || "The request was refused.");
  for (const [name, value] of response.headers) {
    if (name === "set-cookie" || name === "retry-after" || name.startsWith("x-"))
      shaped.headers.append(name, value);
  }
  // A refusal the server in front of Next.js may repeat says so in its Cache-Control (`private`).
  const cacheControl = response.headers.get("cache-control");
  if (cacheControl?.startsWith("private, max-age=")) shaped.headers.set("cache-control", cacheControl);
  return shaped;
}

/**
 * The catch-all route's handler: only the endpoints served over HTTP (surface.ts), cap, let Better
 * Auth answer, strip tokens, shape errors.
 */
export async function handleAuthHttp(
  request: Request,
  handler: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (!isServedOverHttp(new URL(request.url).pathname)) return apiError(404, "not_found", "Not found.");
  const capped = await capAuthRequest(request);
  if (capped instanceof Response) return capped;
  const response = await toApiErrorShape(await stripSessionTokens(await handler(capped)));
  // Better Auth's own answer to a session read without credentials ("null"): the edge may repeat it.
  return new URL(request.url).pathname.endsWith("/get-session")
    ? anonymousAnswer(request, response)
    : response;
}
