"use server";

import { getCurrency } from "@/core/money/currencies";
import { parseEcbXml, parseRatesCsv } from "@/core/money/rates";
import { plural } from "@/core/plural";
import { type ActionResult, action } from "@/server/action";
import type { AuditActor } from "@/server/audit";
import { impersonationTarget } from "@/server/auth/impersonation";
import type { Viewer } from "@/server/authz";
import { applyRates, previewRates, type RatePreview, setRate } from "@/server/fx";
import {
  banSchema,
  contactHandledSchema,
  deleteUserSchema,
  rateEditSchema,
  rateFileSchema,
  setRoleSchema,
  userIdSchema,
} from "./schemas";
import { setContactHandled } from "./server/overview";
import { banUser, deleteUser, revokeUserSessions, setUserRole, unbanUser } from "./server/users";

const admin = { kind: "admin" } as const;

const actorOf = (viewer: Viewer): AuditActor => ({
  id: viewer.user.id,
  email: viewer.user.email,
  impersonatedBy: viewer.impersonatedBy,
});

export const setRoleAction = action(
  admin,
  setRoleSchema,
  async ({ db, viewer, input }) => await setUserRole(db, actorOf(viewer), input.userId, input.role),
);

export const banUserAction = action(admin, banSchema, async ({ db, viewer, input }) => {
  const expiresAt = input.until ? new Date(`${input.until}T23:59:59.999Z`) : null;
  if (expiresAt && expiresAt.getTime() < Date.now()) {
    const message = "The ban would already be over; pick a later day or none.";
    return { ok: false, error: message, fieldErrors: { until: message } };
  }
  return await banUser(db, actorOf(viewer), input.userId, { reason: input.reason, expiresAt });
});

export const unbanUserAction = action(
  admin,
  userIdSchema,
  async ({ db, viewer, input }) => await unbanUser(db, actorOf(viewer), input.userId),
);

export const revokeSessionsAction = action(
  admin,
  userIdSchema,
  async ({ db, viewer, input }) => await revokeUserSessions(db, actorOf(viewer), input.userId),
);

export const deleteUserAction = action(admin, deleteUserSchema, async ({ db, viewer, input }) => {
  const outcome = await deleteUser(db, actorOf(viewer), input.userId, input.confirm);
  return outcome.ok ? outcome : { ...outcome, fieldErrors: { confirm: outcome.error } };
});

/**
 * Starts impersonating a user: Better Auth's admin plugin swaps the session cookie for a one-hour
 * session of the user and keeps the admin's own session aside for the way back. The audit rows of
 * the start and the stop are written by the auth hooks (server/auth/surface.ts), whoever calls them.
 */
export const impersonateAction = action(
  admin,
  userIdSchema,
  async ({ db, auth, headers: requestHeaders, setCookies, viewer, input }) => {
    const actor = actorOf(viewer);
    const target = await impersonationTarget(db, actor, input.userId);
    if (!target.ok) return target;
    try {
      const answer = await auth.api.impersonateUser({
        body: { userId: input.userId },
        headers: requestHeaders,
        returnHeaders: true,
      });
      await setCookies(answer.headers);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : "Could not start impersonating." };
    }
    return { ok: true, data: undefined, message: `You are now seeing Abacus as ${target.data.label}.` };
  },
);

function parseFile(input: { kind: "ecb-xml" | "csv"; text: string; date: string }) {
  return input.kind === "ecb-xml"
    ? parseEcbXml(input.text)
    : parseRatesCsv(input.text, input.date || undefined);
}

/** Reads a rate file and says what applying it would change; changes nothing. */
export const previewRatesAction = action(admin, rateFileSchema, async ({ db, input }) => {
  const parsed = parseFile(input);
  if (!parsed.ok) return { ok: false, error: parsed.error.message };
  return { ok: true, data: await previewRates(db, parsed.value) } as ActionResult<RatePreview>;
});

/** Reads the file again (nothing from the preview is trusted) and applies it if it has no row issues. */
export const applyRatesAction = action(admin, rateFileSchema, async ({ db, viewer, input }) => {
  const parsed = parseFile(input);
  if (!parsed.ok) return { ok: false, error: parsed.error.message };
  if (parsed.value.issues.length > 0)
    return { ok: false, error: "Fix the rows listed in the preview first; nothing was changed." };
  const applied = await applyRates(db, actorOf(viewer), parsed.value);
  const n = applied.current.length;
  return {
    ok: true,
    data: applied,
    message: `Imported: ${plural(n, "current rate")} changed, ${plural(applied.added, "history row")} added, ${applied.changed} updated.`,
  } as ActionResult<RatePreview>;
});

export const editRateAction = action(admin, rateEditSchema, async ({ db, viewer, input }) => {
  const currency = getCurrency(input.currency);
  if (!currency || currency.code === "EUR") {
    const message = currency ? "EUR is the base: its rate is always 1." : "Not an ISO 4217 currency.";
    return { ok: false, error: message, fieldErrors: { currency: message } };
  }
  const changed = await setRate(db, actorOf(viewer), { ...input, currency: currency.code });
  return {
    ok: true,
    data: undefined,
    message: `${currency.code}: ${changed.before ?? "no rate"} → ${changed.after} per euro.`,
  };
});

export const setContactHandledAction = action(admin, contactHandledSchema, async ({ db, viewer, input }) => {
  const done = await setContactHandled(db, actorOf(viewer), input.id, input.handled);
  if (!done) return { ok: false, error: "That message no longer exists." };
  return { ok: true, data: undefined, message: input.handled ? "Marked handled." : "Marked open again." };
});
