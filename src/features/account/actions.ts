"use server";

import { and, eq } from "drizzle-orm";
import { passwordProblem } from "@/core/auth/password-policy";
import { action } from "@/server/action";
import { viaAuth } from "@/server/auth/adapter";
import { getDb } from "@/server/db/client";
import { session, user } from "@/server/db/schema";
import { deleteAccountSchema, emailSchema, nameSchema, passwordSchema, sessionIdSchema } from "./schemas";

const signedIn = { kind: "user", allowOnboarding: true } as const;

export const updateNameAction = action(signedIn, nameSchema, async ({ input }) => {
  const result = await viaAuth((auth, headers) =>
    auth.api.updateUser({ headers, body: { name: input.name } }),
  );
  return result.ok ? { ok: true, data: undefined } : result;
});

export const changeEmailAction = action(signedIn, emailSchema, async ({ viewer, input }) => {
  if (input.email === viewer.user.email) {
    return {
      ok: false,
      error: "That is already your email address.",
      fieldErrors: { email: "That is already your email address." },
    };
  }
  const [taken] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, input.email));
  if (taken) {
    const message = "Another account already uses this email address.";
    return { ok: false, error: message, fieldErrors: { email: message } };
  }
  const result = await viaAuth((auth, headers) =>
    auth.api.changeEmail({ headers, body: { newEmail: input.email } }),
  );
  return result.ok ? { ok: true, data: undefined } : { ...result, fieldErrors: { email: result.error } };
});

export const changePasswordAction = action(signedIn, passwordSchema, async ({ input }) => {
  const weak = passwordProblem(input.newPassword);
  if (weak)
    return { ok: false, error: "Please choose a stronger password.", fieldErrors: { newPassword: weak } };
  const result = await viaAuth(
    (auth, headers) =>
      auth.api.changePassword({
        headers,
        body: {
          currentPassword: input.currentPassword,
          newPassword: input.newPassword,
          revokeOtherSessions: true,
        },
      }),
    { INVALID_PASSWORD: "Your current password is not correct." },
  );
  if (!result.ok) {
    if (/current/i.test(result.error)) return { ...result, fieldErrors: { currentPassword: result.error } };
    return result;
  }
  return { ok: true, data: undefined };
});

/** Revokes one of the user's own sessions, named by id (tokens never reach the browser). */
export const revokeSessionAction = action(signedIn, sessionIdSchema, async ({ viewer, input }) => {
  if (input.sessionId === viewer.sessionId) {
    return { ok: false, error: "This is the session you are using. Sign out instead." };
  }
  const [row] = await getDb()
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, input.sessionId), eq(session.userId, viewer.user.id)));
  if (!row) return { ok: false, error: "That session has already ended." };
  const result = await viaAuth((auth, headers) =>
    auth.api.revokeSession({ headers, body: { token: row.token } }),
  );
  return result.ok ? { ok: true, data: undefined } : result;
});

export const deleteAccountAction = action(signedIn, deleteAccountSchema, async ({ input }) => {
  const result = await viaAuth(
    (auth, headers) => auth.api.deleteUser({ headers, body: { password: input.password } }),
    { INVALID_PASSWORD: "That password is not correct." },
  );
  if (!result.ok) return { ...result, fieldErrors: { password: result.error } };
  return { ok: true, data: undefined };
});
