"use server";

import { action } from "@/server/action";
import { MANAGER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { apiKeyIdSchema, createApiKeySchema } from "./schemas";
import { createApiKey, revokeApiKey } from "./service";

/** Owners and admins with a confirmed email address create keys for the active organization. */
export const createApiKeyAction = action(
  { kind: "org", roles: MANAGER_ROLES, verifiedEmail: true },
  createApiKeySchema,
  async ({ viewer, input }) => createApiKey(getDb(), viewer.org.id, viewer.user.id, input.name),
);

export const revokeApiKeyAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  apiKeyIdSchema,
  async ({ viewer, input }) => {
    const done = await revokeApiKey(getDb(), viewer.org.id, input.id);
    return done ? { ok: true, data: null } : { ok: false, error: "That key is already revoked." };
  },
);
