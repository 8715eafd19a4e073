"use server";

import { and, eq } from "drizzle-orm";
import QRCode from "qrcode";
import { z } from "zod";
import { passwordProblem } from "@/core/auth/password-policy";
import { action } from "@/server/action";
import { viaAuth } from "@/server/auth/adapter";
import { getDb } from "@/server/db/client";
import { passkey, session } from "@/server/db/schema";
import { consumeRateLimit } from "@/server/rate-limit";
import {
  addPasskeySchema,
  deleteAccountSchema,
  emailSchema,
  nameSchema,
  passkeyIdSchema,
  passwordSchema,
  sessionIdSchema,
  twoFactorCodeSchema,
  twoFactorPasswordSchema,
} from "./schemas";

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
  // The answer is the same whether or not another account uses the address: the confirmation
  // link goes to the new address, and only a confirmed address replaces the current one.
  const allowed = await getDb().transaction((tx) =>
    consumeRateLimit(tx, { bucket: "change-email", limit: 5, windowSeconds: 60 * 60 }, viewer.user.id),
  );
  if (!allowed.allowed) return { ok: false, error: "Too many email changes. Please try again in an hour." };
  const result = await viaAuth((auth, headers) =>
    auth.api.changeEmail({
      headers,
      body: { newEmail: input.email, callbackURL: "/user-profile?email-changed=1" },
    }),
  );
  return result.ok
    ? {
        ok: true,
        data: undefined,
        message: `Check ${input.email} for a confirmation link. Your address changes once you open it.`,
      }
    : { ...result, fieldErrors: { email: result.error } };
});

/** Sends a new confirmation link to the viewer's address (a few per hour). */
export const resendVerificationAction = action(signedIn, z.object({}), async ({ viewer }) => {
  if (viewer.user.emailVerified) return { ok: false, error: "Your email address is already confirmed." };
  const allowed = await getDb().transaction((tx) =>
    consumeRateLimit(tx, { bucket: "verify-email", limit: 3, windowSeconds: 60 * 60 }, viewer.user.id),
  );
  if (!allowed.allowed)
    return { ok: false, error: "We already sent a few links. Please try again in an hour." };
  const result = await viaAuth((auth, headers) =>
    auth.api.sendVerificationEmail({
      headers,
      body: { email: viewer.user.email, callbackURL: "/user-profile" },
    }),
  );
  return result.ok ? { ok: true, data: undefined } : result;
});

const PASSWORD_WRONG = { INVALID_PASSWORD: "That password is not correct." };

/** Step 1 of turning on two-factor: a new secret (shown as a QR code and as text) and backup codes. */
export const startTwoFactorAction = action(signedIn, twoFactorPasswordSchema, async ({ viewer, input }) => {
  const result = await viaAuth(
    (auth, headers) =>
      auth.api.enableTwoFactor({ headers, body: { password: input.password, issuer: "Abacus" } }),
    PASSWORD_WRONG,
  );
  if (!result.ok) return { ...result, fieldErrors: { password: result.error } };
  const { totpURI, backupCodes } = result.data as { totpURI: string; backupCodes: string[] };
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  const qrSvg = await QRCode.toString(totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { ok: true, data: { secret, qrSvg, backupCodes, account: viewer.user.email } };
});

/** Step 2: the first code from the app proves it was set up; only then is two-factor on. */
export const confirmTwoFactorAction = action(signedIn, twoFactorCodeSchema, async ({ input }) => {
  const result = await viaAuth((auth, headers) =>
    auth.api.verifyTOTP({ headers, body: { code: input.code } }),
  );
  if (!result.ok) {
    const message = "That code is not valid. Check the time on your device and try the next one.";
    return { ok: false, error: message, fieldErrors: { code: message } };
  }
  return { ok: true, data: undefined };
});

export const disableTwoFactorAction = action(signedIn, twoFactorPasswordSchema, async ({ input }) => {
  const result = await viaAuth(
    (auth, headers) => auth.api.disableTwoFactor({ headers, body: { password: input.password } }),
    PASSWORD_WRONG,
  );
  if (!result.ok) return { ...result, fieldErrors: { password: result.error } };
  return { ok: true, data: undefined };
});

export const regenerateBackupCodesAction = action(signedIn, twoFactorPasswordSchema, async ({ input }) => {
  const result = await viaAuth(
    (auth, headers) => auth.api.generateBackupCodes({ headers, body: { password: input.password } }),
    PASSWORD_WRONG,
  );
  if (!result.ok) return { ...result, fieldErrors: { password: result.error } };
  return { ok: true, data: { backupCodes: (result.data as { backupCodes: string[] }).backupCodes } };
});

export const changePasswordAction = action(signedIn, passwordSchema, async ({ viewer, input }) => {
  const weak = passwordProblem(input.newPassword, [viewer.user.name, viewer.user.email]);
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

const WRONG_PASSWORD = "That password is not correct.";

export const deleteAccountAction = action(signedIn, deleteAccountSchema, async ({ input }) => {
  const result = await viaAuth(
    (auth, headers) => auth.api.deleteUser({ headers, body: { password: input.password } }),
    { INVALID_PASSWORD: WRONG_PASSWORD },
  );
  // A wrong password belongs under its field; a refusal (sole owner, last admin) is about the account.
  if (!result.ok && result.error === WRONG_PASSWORD)
    return { ...result, fieldErrors: { password: result.error } };
  if (!result.ok) return result;
  return { ok: true, data: undefined };
});

/** Registration options for a new passkey (the challenge is kept in a signed, short-lived cookie). */
export const passkeyOptionsAction = action(signedIn, z.object({}), async () => {
  const result = await viaAuth((auth, headers) => auth.api.generatePasskeyRegistrationOptions({ headers }), {
    SESSION_NOT_FRESH: "For your security, sign in again before adding a passkey.",
  });
  return result.ok ? { ok: true, data: result.data as unknown as Record<string, unknown> } : result;
});

export const addPasskeyAction = action(signedIn, addPasskeySchema, async ({ input }) => {
  const result = await viaAuth(
    (auth, headers) =>
      auth.api.verifyPasskeyRegistration({
        headers,
        body: { response: input.response, name: input.name || undefined },
      }),
    {
      CHALLENGE_NOT_FOUND: "That took too long. Please try again.",
      FAILED_TO_VERIFY_REGISTRATION: "Your device's passkey could not be verified. Please try again.",
    },
  );
  return result.ok ? { ok: true, data: undefined } : result;
});

export const removePasskeyAction = action(signedIn, passkeyIdSchema, async ({ viewer, input }) => {
  const [row] = await getDb()
    .select({ id: passkey.id })
    .from(passkey)
    .where(and(eq(passkey.id, input.id), eq(passkey.userId, viewer.user.id)));
  if (!row) return { ok: false, error: "That passkey was already removed." };
  const result = await viaAuth((auth, headers) =>
    auth.api.deletePasskey({ headers, body: { id: input.id } }),
  );
  return result.ok ? { ok: true, data: undefined } : result;
});
