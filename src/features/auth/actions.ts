"use server";

import { headers } from "next/headers";
import { passwordProblem } from "@/core/auth/password-policy";
import { safeRedirectPath } from "@/core/auth/redirect";
import { type ActionResult, publicAction } from "@/server/action";
import { getAuth } from "@/server/auth";
import { authError } from "@/server/auth/adapter";
import { signInSchema, signUpSchema } from "./schemas";

const INVALID_CREDENTIALS = "Invalid email or password.";

type Redirect = ActionResult<{ redirectTo: string }>;

export const signInAction = publicAction(signInSchema, async ({ input }): Promise<Redirect> => {
  const { email, password, redirectUrl } = input;
  try {
    await getAuth().api.signInEmail({ body: { email, password }, headers: await headers() });
  } catch (error) {
    const api = authError(error);
    if (api?.code === "RATE_LIMITED") return { ok: false, error: api.message };
    if (api?.code === "BANNED_USER" || /banned/i.test(api?.message ?? "")) {
      return { ok: false, error: "This account has been suspended. Contact the instance's administrators." };
    }
    if (api) return { ok: false, error: INVALID_CREDENTIALS };
    throw error;
  }
  return { ok: true, data: { redirectTo: safeRedirectPath(redirectUrl) } };
});

export const signUpAction = publicAction(signUpSchema, async ({ input }): Promise<Redirect> => {
  const { name, email, password, redirectUrl } = input;
  const weak = passwordProblem(password);
  if (weak)
    return { ok: false, error: "Please choose a stronger password.", fieldErrors: { password: weak } };
  try {
    await getAuth().api.signUpEmail({ body: { name, email, password }, headers: await headers() });
  } catch (error) {
    const api = authError(error);
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
});
