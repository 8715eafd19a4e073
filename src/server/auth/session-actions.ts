"use server";

import { and, eq } from "drizzle-orm";
import { headers } from "next/headers";
import { z } from "zod";
import { type ActionResult, action, publicAction } from "../action";
import { getDb } from "../db/client";
import { member } from "../db/schema";
import { authError, viaAuth } from "./adapter";
import { getAuth } from "./index";

/**
 * The session actions the site header uses (sign out, switch organization). They live here, below
 * the features, so the shell components can call them without importing a feature.
 */

// No guard: signing out must work with any session, even one whose user is gone.
export const signOutAction = publicAction(z.object({}).optional(), async (): Promise<ActionResult> => {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch (error) {
    if (!authError(error)) throw error;
  }
  return { ok: true, data: undefined };
});

export const switchOrganizationAction = action(
  { kind: "user" },
  z.object({ organizationId: z.string().min(1) }),
  async ({ viewer, input }) => {
    const [membership] = await getDb()
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.userId, viewer.user.id), eq(member.organizationId, input.organizationId)));
    if (!membership) return { ok: false, error: "You are not a member of that organization." };
    const result = await viaAuth((auth, requestHeaders) =>
      auth.api.setActiveOrganization({
        headers: requestHeaders,
        body: { organizationId: input.organizationId },
      }),
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);
