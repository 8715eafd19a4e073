"use server";

import { action } from "@/server/action";
import { ALL_MEMBER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { calculationIdSchema, saveCalculationSchema } from "./schemas";
import { deleteSaved, restoreSaved, saveCalculation } from "./service";

/** Any member saves to the active organization's history. */
export const saveCalculationAction = action(
  { kind: "org", roles: ALL_MEMBER_ROLES },
  saveCalculationSchema,
  async ({ viewer, input }) => {
    const saved = await saveCalculation(getDb(), viewer.org.id, viewer.user.id, input);
    if (!saved.ok) return saved;
    return { ok: true, data: { id: saved.data.id, organization: viewer.org.name } };
  },
);

/** Owners and admins delete any calculation; members the ones they saved. Undo restores it. */
export const deleteCalculationAction = action(
  { kind: "org", roles: ALL_MEMBER_ROLES },
  calculationIdSchema,
  async ({ viewer, input }) => {
    const own = viewer.memberRole === "member" ? viewer.user.id : null;
    const done = await deleteSaved(getDb(), viewer.org.id, input.id, own);
    if (done) return { ok: true, data: null };
    return {
      ok: false,
      error: own
        ? "Members can delete only the calculations they saved; ask an owner or admin."
        : "That calculation no longer exists.",
    };
  },
);

export const restoreCalculationAction = action(
  { kind: "org", roles: ALL_MEMBER_ROLES },
  calculationIdSchema,
  async ({ viewer, input }) => restoreSaved(getDb(), viewer.org.id, input.id),
);
