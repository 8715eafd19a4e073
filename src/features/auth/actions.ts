"use server";

import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { safeRedirectPath } from "@/core/auth/redirect";
import type { ActionResult } from "@/server/action";
import { fieldErrorsOf } from "@/server/action";
import { getAuth } from "@/server/auth";
import {
  forgotPasswordSchema,
  passkeySignInSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  twoFactorSchema,
} from "./schemas";

const INVALID_CREDENTIALS = "Invalid email or password.";
const CORRECT_FIELDS = "Please correct the highlighted fields.";

function apiMessage(error: unknown): { status?: string; code?: string; message: string } | null {
  if (isAPIError(error)) {
    const body = (error.body ?? {}) as { code?: string; message?: string };
    return { status: String(error.status), code: body.code, message: body.message ?? error.message };
  }
  return null;
}

export async function signInAction(input: unknown): Promise<ActionResult<{ redirectTo: string }>> {
  const parsed = signInSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: CORRECT_FIELDS, fieldErrors: fieldErrorsOf(parsed.error) };
  }
  const { email, password, redirectUrl } = parsed.data;
  const target = safeRedirectPath(redirectUrl);
  try {
    const result = (await getAuth().api.signInEmail({
      body: { email, password },
      headers: await headers(),
    })) as {
      twoFactorRedirect?: boolean;
    };
    // Accounts with two-factor authentication continue at the second step (a short-lived cookie).
    if (result?.twoFactorRedirect) {
      return {
        ok: true,
        data: { redirectTo: `/sign-in/factor-two?redirect_url=${encodeURIComponent(target)}` },
        message: "Enter the code from your authenticator app.",
      };
    }
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (api?.code === "BANNED_USER" || /banned/i.test(api?.message ?? "")) {
      return { ok: false, error: "This account has been suspended. Contact the instance's administrators." };
    }
    if (api) return { ok: false, error: INVALID_CREDENTIALS };
    throw error;
  }
  return { ok: true, data: { redirectTo: target } };
}

/**
 * Creates the account and sends the confirmation link. The answer is the same whether or not the
 * address already has an account (that owner gets an email saying so instead), so sign-up does
 * not reveal who uses Abacus. The link signs the new user in.
 */
export async function signUpAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: CORRECT_FIELDS, fieldErrors: fieldErrorsOf(parsed.error) };
  }
  const { name, email, password, redirectUrl } = parsed.data;
  // The password is judged once, by the Better Auth hook (./auth.ts), which also guards the raw endpoint.
  // New users set up their account first; an invitation link brings them back to it afterwards.
  const target = safeRedirectPath(redirectUrl, "/onboarding");
  const callbackURL = target.startsWith("/onboarding") ? target : "/onboarding";
  try {
    await getAuth().api.signUpEmail({
      body: { name, email, password, callbackURL },
      headers: await headers(),
    });
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (api?.code === "WEAK_PASSWORD")
      return {
        ok: false,
        error: "Please choose a stronger password.",
        fieldErrors: { password: api.message },
      };
    if (api) return { ok: false, error: api.message };
    throw error;
  }
  return { ok: true, data: { email } };
}

/** Sends a reset link if the address has an account; the answer is the same either way. */
export async function forgotPasswordAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  const parsed = forgotPasswordSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: CORRECT_FIELDS, fieldErrors: fieldErrorsOf(parsed.error) };
  }
  try {
    await getAuth().api.requestPasswordReset({
      body: { email: parsed.data.email, redirectTo: "/sign-in/reset-password" },
      headers: await headers(),
    });
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (!api) throw error;
  }
  return { ok: true, data: { email: parsed.data.email } };
}

export async function resetPasswordAction(input: unknown): Promise<ActionResult> {
  const parsed = resetPasswordSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: CORRECT_FIELDS, fieldErrors: fieldErrorsOf(parsed.error) };
  }
  try {
    // The new password is judged by the Better Auth hook (WEAK_PASSWORD below).
    await getAuth().api.resetPassword({
      body: { token: parsed.data.token, newPassword: parsed.data.newPassword },
      headers: await headers(),
    });
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "INVALID_TOKEN" || api?.code === "USER_NOT_FOUND") {
      return {
        ok: false,
        error: "This reset link has expired or was already used. Ask for a new one.",
      };
    }
    if (api?.code === "WEAK_PASSWORD")
      return {
        ok: false,
        error: "Please choose a stronger password.",
        fieldErrors: { newPassword: api.message },
      };
    if (api) return { ok: false, error: api.message };
    throw error;
  }
  return { ok: true, data: undefined };
}

/** The second sign-in step: a code from the authenticator app, or one of the backup codes. */
export async function verifyTwoFactorAction(input: unknown): Promise<ActionResult<{ redirectTo: string }>> {
  const parsed = twoFactorSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: CORRECT_FIELDS, fieldErrors: fieldErrorsOf(parsed.error) };
  }
  const { code, method, trustDevice, redirectUrl } = parsed.data;
  const requestHeaders = await headers();
  try {
    if (method === "backup") {
      await getAuth().api.verifyBackupCode({ body: { code, trustDevice }, headers: requestHeaders });
    } else {
      await getAuth().api.verifyTOTP({ body: { code, trustDevice }, headers: requestHeaders });
    }
  } catch (error) {
    const api = apiMessage(error);
    if (!api) throw error;
    if (api.code === "INVALID_TWO_FACTOR_COOKIE" || api.code === "TWO_FACTOR_NOT_ENABLED") {
      return { ok: false, error: "This sign-in has timed out. Sign in again with your password." };
    }
    if (api.status === "TOO_MANY_REQUESTS" || api.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
      return { ok: false, error: "Too many wrong codes. Wait a few minutes and sign in again." };
    }
    const message = method === "backup" ? "That backup code is not valid." : "That code is not valid.";
    return { ok: false, error: message, fieldErrors: { code: message } };
  }
  return { ok: true, data: { redirectTo: safeRedirectPath(redirectUrl) } };
}

/** Options for signing in with a passkey (any of this instance's passkeys may answer). */
export async function passkeySignInOptionsAction(): Promise<ActionResult<Record<string, unknown>>> {
  try {
    const options = await getAuth().api.generatePasskeyAuthenticationOptions({ headers: await headers() });
    return { ok: true, data: options as unknown as Record<string, unknown> };
  } catch (error) {
    if (!apiMessage(error)) throw error;
    return { ok: false, error: "Passkey sign-in is not available right now. Please try again." };
  }
}

export async function passkeySignInAction(input: unknown): Promise<ActionResult<{ redirectTo: string }>> {
  const parsed = passkeySignInSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "That passkey response is not valid." };
  try {
    await getAuth().api.verifyPasskeyAuthentication({
      // Checked by the plugin (signature, challenge, origin); the schema only bounds its size.
      body: { response: parsed.data.response as unknown as AuthenticationResponseJSON },
      headers: await headers(),
    });
  } catch (error) {
    const api = apiMessage(error);
    if (!api) throw error;
    if (/banned/i.test(api.message)) {
      return { ok: false, error: "This account has been suspended. Contact the instance's administrators." };
    }
    return { ok: false, error: "That passkey was not recognised. Use your password instead." };
  }
  return { ok: true, data: { redirectTo: safeRedirectPath(parsed.data.redirectUrl) } };
}

export async function signOutAction(): Promise<ActionResult> {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch (error) {
    if (!apiMessage(error)) throw error;
  }
  return { ok: true, data: undefined };
}
