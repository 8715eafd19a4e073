"use server";

import { action } from "@/server/action";
import { ALL_MEMBER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { calculationIdSchema, restoreCalculationSchema, saveCalculationSchema } from "./schemas";
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
    const ownOnly = viewer.memberRole === "member";
    const undo = await deleteSaved(getDb(), viewer.org.id, input.id, { userId: viewer.user.id, ownOnly });
    if (undo) return { ok: true, data: { undo } };
    return {
      ok: false,
      error: ownOnly
        ? "Members can delete only the calculations they saved; ask an owner or admin."
        : "That calculation no longer exists.",
    };
  },
);

/** Undo of a delete: only whoever deleted it, with the token the delete gave them. */
export const restoreCalculationAction = action(
  { kind: "org", roles: ALL_MEMBER_ROLES },
  restoreCalculationSchema,
  async ({ viewer, input }) =>
    restoreSaved(getDb(), viewer.org.id, input.id, {
      userId: viewer.user.id,
      ownOnly: viewer.memberRole === "member",
      undo: input.undo,
    }),
);
