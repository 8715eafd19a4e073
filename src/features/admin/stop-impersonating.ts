"use server";

import { action } from "@/server/action";
import { userIdSchema } from "./schemas";

// In a module of its own: the root layout passes this action to the impersonation banner on every
// page, and importing it from actions.ts would make the admin actions' imports (the billing
// feature's surface with its client components) part of every page's client bundle.

/** Ends an impersonation and restores the admin's own session. Only an impersonation session may call it. */
export const stopImpersonatingAction = action(
  { kind: "user", allowOnboarding: true },
  userIdSchema.partial(),
  async ({ auth, headers: requestHeaders, setCookies, viewer }) => {
    if (!viewer.impersonatedBy) return { ok: false, error: "You are not impersonating anyone." };
    try {
      const answer = await auth.api.stopImpersonating({ headers: requestHeaders, returnHeaders: true });
      await setCookies(answer.headers);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : "Could not stop impersonating." };
    }
    return { ok: true, data: undefined, message: "Back to your own account." };
  },
);
