import "server-only";
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { headers } from "next/headers";
import type { ActionResult } from "../action";
import type { Db } from "../db/client";
import { organization } from "../db/schema";
import { getAuth } from "./index";

/**
 * The Better Auth adapter: the one place that calls its endpoints for the current request and
 * turns their expected failures into action results with readable messages.
 */
export async function viaAuth<T>(
  run: (auth: ReturnType<typeof getAuth>, requestHeaders: Headers) => Promise<T>,
  messages: Record<string, string> = {},
): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run(getAuth(), await headers()) };
  } catch (error) {
    const api = authError(error);
    if (api) return { ok: false, error: (api.code && messages[api.code]) || api.message || FALLBACK };
    throw error;
  }
}

const FALLBACK = "That did not work. Please try again.";

/** A Better Auth API error's status, code and message, or null for anything else (a bug). */
export function authError(error: unknown): { status: string; code?: string; message: string } | null {
  if (!isAPIError(error)) return null;
  const body = (error.body ?? {}) as { code?: string; message?: string };
  return { status: String(error.status), code: body.code, message: body.message ?? error.message };
}

export const SLUG_TAKEN = "That slug is already used by another organization. Try another.";

/** Better Auth's codes for a slug taken between our check and its insert (a race). */
export const ORGANIZATION_SLUG_MESSAGES: Record<string, string> = {
  ORGANIZATION_ALREADY_EXISTS: SLUG_TAKEN,
  ORGANIZATION_SLUG_ALREADY_TAKEN: SLUG_TAKEN,
  SLUG_IS_TAKEN: SLUG_TAKEN,
};

export async function slugTaken(db: Db, slug: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organization.id })
    .from(organization)
    .where(eq(organization.slug, slug));
  return !!row && row.id !== exceptId;
}

/**
 * Creates an organization owned by the signed-in user and makes it active: the one copy used by
 * onboarding and by the organization settings. A taken slug is a field error, also when another
 * request takes it between the check and the insert.
 */
export async function createOrganization(
  db: Db,
  input: { name: string; slug: string },
): Promise<ActionResult<{ id: string }>> {
  if (await slugTaken(db, input.slug)) {
    return { ok: false, error: SLUG_TAKEN, fieldErrors: { slug: SLUG_TAKEN } };
  }
  const result = await viaAuth(
    (auth, requestHeaders) =>
      auth.api.createOrganization({ headers: requestHeaders, body: { name: input.name, slug: input.slug } }),
    ORGANIZATION_SLUG_MESSAGES,
  );
  if (!result.ok) {
    return result.error === SLUG_TAKEN ? { ...result, fieldErrors: { slug: SLUG_TAKEN } } : result;
  }
  return { ok: true, data: { id: result.data?.id ?? "" } };
}
