"use server";

import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import { headers } from "next/headers";
import { normaliseBackupCode } from "@/core/auth/backup-codes";
import { safeRedirectPath } from "@/core/auth/redirect";
import { type ActionResult, publicAction } from "@/server/action";
import { getAuth } from "@/server/auth";
import { authError } from "@/server/auth/adapter";
import { localConfirmationMail } from "./confirmation";
import {
  confirmCodeSchema,
  confirmLinkSchema,
  emptySchema,
  forgotPasswordSchema,
  passkeySignInSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  twoFactorSchema,
} from "./schemas";

const INVALID_CREDENTIALS = "Invalid email or password.";

export const signInAction = publicAction(
  signInSchema,
  async ({ input: data }): Promise<ActionResult<{ redirectTo: string; twoFactor?: boolean }>> => {
    const { email, password, redirectUrl } = data;
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
          // No toast: the next screen asks for the code itself.
          data: {
            redirectTo: `/sign-in/factor-two?redirect_url=${encodeURIComponent(target)}`,
            twoFactor: true,
          },
        };
      }
    } catch (error) {
      const api = authError(error);
      if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
      // The right password for an account whose address is not confirmed: no session; a new code
      // was mailed for this browser (./verification.ts), typed on the confirmation screen.
      if (api?.code === "EMAIL_NOT_VERIFIED") {
        return {
          ok: true,
          data: { redirectTo: confirmScreen(target) },
          message: "Confirm your email address first: we sent you a new code.",
        };
      }
      if (api?.code === "BANNED_USER" || /banned/i.test(api?.message ?? "")) {
        return {
          ok: false,
          error: "This account has been suspended. Contact the instance's administrators.",
        };
      }
      if (api) return { ok: false, error: INVALID_CREDENTIALS };
      throw error;
    }
    return { ok: true, data: { redirectTo: target } };
  },
);

const confirmScreen = (target: string) => `/sign-up/confirm?redirect_url=${encodeURIComponent(target)}`;

/**
 * Creates the account and mails a code and link. The answer is the same whether or not the address
 * already has an account (that owner gets an email saying so instead), so sign-up does not reveal
 * who uses Abacus. The code, typed on the next screen in this browser, confirms and signs in.
 */
export const signUpAction = publicAction(
  signUpSchema,
  async ({ input: data }): Promise<ActionResult<{ redirectTo: string }>> => {
    const { name, email, password, redirectUrl } = data;
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
      const api = authError(error);
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
    return { ok: true, data: { redirectTo: confirmScreen(target) } };
  },
);

/** The code from the confirmation email, typed in the browser that signed up (or tried to sign in). */
export const confirmCodeAction = publicAction(
  confirmCodeSchema,
  async ({ input }): Promise<ActionResult<{ redirectTo: string }>> => {
    try {
      const result = (await getAuth().api.confirmEmailCode({
        body: { code: input.code },
        headers: await headers(),
      })) as { signedIn: boolean; alreadyConfirmed: boolean; redirectTo: string };
      const next = safeRedirectPath(result.redirectTo || input.redirectUrl, "/onboarding");
      if (result.signedIn) return { ok: true, data: { redirectTo: next }, message: "Email confirmed." };
      return {
        ok: true,
        data: { redirectTo: `/sign-in?redirect_url=${encodeURIComponent(next)}` },
        message: result.alreadyConfirmed
          ? "Your address was already confirmed. Sign in to continue."
          : "Email confirmed. Sign in to continue.",
      };
    } catch (error) {
      const api = authError(error);
      if (!api) throw error;
      if (api.code === "INVALID_CODE")
        return { ok: false, error: api.message, fieldErrors: { code: api.message } };
      return { ok: false, error: api.message };
    }
  },
);

/** The emailed link, confirmed with a click on the page it opened (never on the GET itself). */
export const confirmLinkAction = publicAction(
  confirmLinkSchema,
  async ({
    input,
  }): Promise<
    ActionResult<{ email: string; signedIn: boolean; alreadyConfirmed: boolean; redirectTo: string }>
  > => {
    try {
      const result = (await getAuth().api.confirmEmailLink({
        body: { token: input.token },
        headers: await headers(),
      })) as { email: string; signedIn: boolean; alreadyConfirmed: boolean; redirectTo: string };
      return {
        ok: true,
        data: {
          email: result.email,
          signedIn: result.signedIn,
          alreadyConfirmed: result.alreadyConfirmed,
          redirectTo: safeRedirectPath(result.redirectTo, "/onboarding"),
        },
      };
    } catch (error) {
      const api = authError(error);
      if (!api) throw error;
      return {
        ok: false,
        error: "This link has expired or was already used. Sign in, or sign up again for a new one.",
      };
    }
  },
);

/** A new code (and link) for this browser's confirmation. */
export const resendCodeAction = publicAction(emptySchema, async (): Promise<ActionResult> => {
  try {
    await getAuth().api.resendEmailConfirmation({ body: {}, headers: await headers() });
  } catch (error) {
    const api = authError(error);
    if (!api) throw error;
    return { ok: false, error: api.message };
  }
  return { ok: true, data: undefined, message: "We sent a new code. Use the newest email." };
});

/**
 * Development on a local instance only: the newest confirmation mail of this browser's attempt, so
 * the screen can show it (the same text the terminal printed).
 */
export const openLocalMailAction = publicAction(
  emptySchema,
  async (): Promise<ActionResult<{ subject: string; text: string }>> => {
    const mail = await localConfirmationMail();
    if (!mail) return { ok: false, error: "No email to show here. Look in the terminal where the app runs." };
    return { ok: true, data: mail };
  },
);

/** Sends a reset link if the address has an account; the answer is the same either way. */
export const forgotPasswordAction = publicAction(
  forgotPasswordSchema,
  async ({ input: data }): Promise<ActionResult<{ email: string }>> => {
    try {
      await getAuth().api.requestPasswordReset({
        body: { email: data.email, redirectTo: "/sign-in/reset-password" },
        headers: await headers(),
      });
    } catch (error) {
      const api = authError(error);
      if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
      if (!api) throw error;
    }
    return { ok: true, data: { email: data.email } };
  },
);

export const resetPasswordAction = publicAction(
  resetPasswordSchema,
  async ({ input: data }): Promise<ActionResult> => {
    try {
      // The new password is judged by the Better Auth hook (WEAK_PASSWORD below).
      await getAuth().api.resetPassword({
        body: { token: data.token, newPassword: data.newPassword },
        headers: await headers(),
      });
    } catch (error) {
      const api = authError(error);
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
  },
);

/** The second sign-in step: a code from the authenticator app, or one of the backup codes. */
export const verifyTwoFactorAction = publicAction(
  twoFactorSchema,
  async ({ input: data }): Promise<ActionResult<{ redirectTo: string }>> => {
    const { code, method, trustDevice, redirectUrl } = data;
    const requestHeaders = await headers();
    try {
      if (method === "backup") {
        await getAuth().api.verifyBackupCode({
          body: { code: normaliseBackupCode(code), trustDevice },
          headers: requestHeaders,
        });
      } else {
        await getAuth().api.verifyTOTP({ body: { code, trustDevice }, headers: requestHeaders });
      }
    } catch (error) {
      const api = authError(error);
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
  },
);

/** Options for signing in with a passkey (any of this instance's passkeys may answer). */
export async function passkeySignInOptionsAction(): Promise<ActionResult<Record<string, unknown>>> {
  try {
    const options = await getAuth().api.generatePasskeyAuthenticationOptions({ headers: await headers() });
    return { ok: true, data: options as unknown as Record<string, unknown> };
  } catch (error) {
    if (!authError(error)) throw error;
    return { ok: false, error: "Passkey sign-in is not available right now. Please try again." };
  }
}

export const passkeySignInAction = publicAction(
  passkeySignInSchema,
  async ({ input: data }): Promise<ActionResult<{ redirectTo: string }>> => {
    try {
      await getAuth().api.verifyPasskeyAuthentication({
        // Checked by the plugin (signature, challenge, origin); the schema only bounds its size.
        body: { response: data.response as unknown as AuthenticationResponseJSON },
        headers: await headers(),
      });
    } catch (error) {
      const api = authError(error);
      if (!api) throw error;
      if (/banned/i.test(api.message)) {
        return {
          ok: false,
          error: "This account has been suspended. Contact the instance's administrators.",
        };
      }
      return { ok: false, error: "That passkey was not recognised. Use your password instead." };
    }
    return { ok: true, data: { redirectTo: safeRedirectPath(data.redirectUrl) } };
  },
);
