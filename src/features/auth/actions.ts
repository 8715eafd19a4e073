"use server";

import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { passwordProblem } from "@/core/auth/password-policy";
import { safeRedirectPath } from "@/core/auth/redirect";
import type { ActionResult } from "@/server/action";
import { fieldErrorsOf } from "@/server/action";
import { getAuth } from "@/server/auth";
import { signInSchema, signUpSchema } from "./schemas";

const INVALID_CREDENTIALS = "Invalid email or password.";

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
    return {
      ok: false,
      error: "Please correct the highlighted fields.",
      fieldErrors: fieldErrorsOf(parsed.error),
    };
  }
  const { email, password, redirectUrl } = parsed.data;
  try {
    await getAuth().api.signInEmail({ body: { email, password }, headers: await headers() });
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (api?.code === "BANNED_USER" || /banned/i.test(api?.message ?? "")) {
      return { ok: false, error: "This account has been suspended. Contact the instance's administrators." };
    }
    if (api) return { ok: false, error: INVALID_CREDENTIALS };
    throw error;
  }
  return { ok: true, data: { redirectTo: safeRedirectPath(redirectUrl) } };
}

export async function signUpAction(input: unknown): Promise<ActionResult<{ redirectTo: string }>> {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      error: "Please correct the highlighted fields.",
      fieldErrors: fieldErrorsOf(parsed.error),
    };
  }
  const { name, email, password, redirectUrl } = parsed.data;
  const weak = passwordProblem(password);
  if (weak)
    return { ok: false, error: "Please choose a stronger password.", fieldErrors: { password: weak } };
  try {
    await getAuth().api.signUpEmail({ body: { name, email, password }, headers: await headers() });
  } catch (error) {
    const api = apiMessage(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (api?.code === "USER_ALREADY_EXISTS" || api?.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
      return {
        ok: false,
        error: "An account with this email already exists.",
        fieldErrors: { email: "An account with this email already exists. Sign in instead." },
      };
    }
    if (api?.code === "WEAK_PASSWORD")
      return { ok: false, error: api.message, fieldErrors: { password: api.message } };
    if (api) return { ok: false, error: api.message };
    throw error;
  }
  // New users set up their account first; an invitation link brings them back to it afterwards.
  const target = safeRedirectPath(redirectUrl, "/onboarding");
  return { ok: true, data: { redirectTo: target.startsWith("/onboarding") ? target : "/onboarding" } };
}

export async function signOutAction(): Promise<ActionResult> {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch (error) {
    if (!apiMessage(error)) throw error;
  }
  return { ok: true, data: undefined };
}
