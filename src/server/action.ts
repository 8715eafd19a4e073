import "server-only";
import { headers } from "next/headers";
import type { z } from "zod";
import { getAuth } from "./auth";
import {
  loadMembership,
  loadViewer,
  type MemberRole,
  type OrgViewer,
  VERIFY_EMAIL_ERROR,
  type Viewer,
} from "./authz";
import { getDb } from "./db/client";

export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  /** `code`: a machine-readable reason where a form must act on it (e.g. `payment_pending`). */
  | { ok: false; error: string; fieldErrors?: Record<string, string>; code?: string };

export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    out[key] ??= issue.message;
  }
  return out;
}

export const SIGNED_OUT_ERROR = "Your session has ended. Sign in again to continue.";
export const FORBIDDEN_ERROR = "You do not have permission to do that in this organization.";

type Guard = (
  | { kind: "user"; allowOnboarding?: boolean }
  | { kind: "org"; roles: readonly MemberRole[] }
  | { kind: "admin" }
) & {
  /** Only users who confirmed their email address (buying, API keys, joining organizations). */
  verifiedEmail?: boolean;
};

type Context<G extends Guard, I> = G extends { kind: "org" }
  ? { viewer: OrgViewer; input: I }
  : { viewer: Viewer; input: I };

/**
 * The one wrapper for server actions: runs the guard (re-reading the user and the membership from
 * the database), parses the input with the zod schema, and hands the action a typed context.
 * Expected failures are returned as values; only bugs throw.
 */
export function action<G extends Guard, S extends z.ZodType, T>(
  guard: G,
  schema: S,
  run: (context: Context<G, z.infer<S>>) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    const db = getDb();
    const viewer = await loadViewer(db, getAuth(), await headers());
    if (!viewer) return { ok: false, error: SIGNED_OUT_ERROR };
    if (guard.kind !== "user" || !guard.allowOnboarding) {
      if (viewer.user.onboardingStep !== "done")
        return { ok: false, error: "Finish setting up your account first." };
    }
    // An impersonation session is never an admin, whoever is impersonated.
    if (guard.kind === "admin" && (viewer.user.role !== "admin" || viewer.impersonatedBy))
      return { ok: false, error: "Not found." };
    if (guard.verifiedEmail && !viewer.user.emailVerified) return { ok: false, error: VERIFY_EMAIL_ERROR };
    let context: Viewer | OrgViewer = viewer;
    if (guard.kind === "org") {
      const membership = await loadMembership(db, viewer.user.id, viewer.activeOrganizationId);
      if (!membership) return { ok: false, error: "Choose an organization first." };
      if (!guard.roles.includes(membership.memberRole)) return { ok: false, error: FORBIDDEN_ERROR };
      context = { ...viewer, ...membership };
    }
    const parsed = parseInput(schema, input);
    if (!parsed.ok) return parsed;
    return run({ viewer: context, input: parsed.data } as Context<G, z.infer<S>>);
  };
}

export const INVALID_INPUT_ERROR = "Please correct the highlighted fields.";

function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; error: string; fieldErrors: Record<string, string> } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, error: INVALID_INPUT_ERROR, fieldErrors: fieldErrorsOf(parsed.error) };
}

/**
 * The wrapper's public variant, for forms a signed-out visitor submits (sign-in, sign-up,
 * contact): no guard, the same parsing and the same shape of result. Each action still applies its
 * own limits (rate limits, body caps) inside `run`.
 */
export function publicAction<S extends z.ZodType, T>(
  schema: S,
  run: (context: { input: z.infer<S> }) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    const parsed = parseInput(schema, input);
    if (!parsed.ok) return parsed;
    return run({ input: parsed.data });
  };
}
