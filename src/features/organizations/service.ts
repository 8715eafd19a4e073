import "server-only";
import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import type { ActionResult } from "@/server/action";
import { getAuth } from "@/server/auth";

/**
 * Runs a Better Auth endpoint for the current request and turns its expected failures into action
 * results with a readable message.
 */
export async function viaAuth<T>(
  run: (auth: ReturnType<typeof getAuth>, requestHeaders: Headers) => Promise<T>,
  messages: Record<string, string> = {},
): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run(getAuth(), await headers()) };
  } catch (error) {
    if (isAPIError(error)) {
      const body = (error.body ?? {}) as { code?: string; message?: string };
      const mapped =
        (body.code && messages[body.code]) || body.message || "That did not work. Please try again.";
      return { ok: false, error: mapped };
    }
    throw error;
  }
}

export const SLUG_TAKEN = "That slug is already used by another organization. Try another.";
