import "server-only";
import { getSessionCookie } from "better-auth/cookies";
import { headers } from "next/headers";

/**
 * Whether this request carries a Better Auth session cookie at all: not whether the session is
 * valid (that needs the database). Without one the visitor is certainly signed out, which a dynamic
 * public page can draw at once instead of waiting for /api/me.
 */
export async function hasSessionCookie(): Promise<boolean> {
  return getSessionCookie(await headers()) !== null;
}
