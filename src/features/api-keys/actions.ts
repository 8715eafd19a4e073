"use server";

import { action } from "@/server/action";
import { IMPERSONATION_REFUSAL } from "@/server/auth/surface";
import { MANAGER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { apiKeyIdSchema, createApiKeySchema } from "./schemas";
import { createApiKey, revokeApiKey } from "./server/service";

/**
 * Owners and admins with a confirmed email address create keys for the active organization; never
 * an admin impersonating one (a key is a credential that would outlive the impersonation).
 */
export const createApiKeyAction = action(
  { kind: "org", roles: MANAGER_ROLES, verifiedEmail: true },
  createApiKeySchema,
  async ({ viewer, input }) => {
    if (viewer.impersonatedBy) return { ok: false, error: IMPERSONATION_REFUSAL };
    return createApiKey(getDb(), viewer.org.id, viewer.user.id, input.name);
  },
);

export const revokeApiKeyAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  apiKeyIdSchema,
  async ({ viewer, input }) => {
    const done = await revokeApiKey(getDb(), viewer.org.id, input.id);
    return done ? { ok: true, data: null } : { ok: false, error: "That key is already revoked." };
  },
);
