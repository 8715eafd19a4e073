import "server-only";
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import { cookies, headers } from "next/headers";
import type { z } from "zod";
import type { Result } from "@/core/result";
import { getAuth } from "./auth";
import type { Auth } from "./auth/auth";
import {
  isAdminViewer,
  loadMembership,
  loadViewer,
  type MemberRole,
  type OrgViewer,
  VERIFY_EMAIL_ERROR,
  type Viewer,
} from "./authz";
import { type Db, getDb } from "./db/client";

/** What every server action answers (one shape for all outcomes: core/result.ts). */
export type ActionResult<T = undefined> = Result<T>;

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

/**
 * Everything an action reads from outside itself: the database, Better Auth, and the request (its
 * headers, and where the Set-Cookie lines of a Better Auth answer go). By default the request's own
 * (`requestEnvironment`); a test hands its own through `.using()` and then needs no module mocks.
 */
export type ActionEnvironment = {
  db: Db;
  auth: Auth;
  headers: Headers;
  /** Passes the cookies a Better Auth answer sets (`returnHeaders: true`) on to the browser. */
  setCookies: (answer: Headers) => Promise<void>;
};

/** The environment of the request being served: the process's database and auth, Next's request. */
export async function requestEnvironment(): Promise<ActionEnvironment> {
  return { db: getDb(), auth: getAuth(), headers: await headers(), setCookies: setResponseCookies };
}

async function setResponseCookies(answer: Headers) {
  const lines = answer.get("set-cookie");
  if (!lines) return;
  const store = await cookies();
  for (const [name, value] of parseSetCookieHeader(lines)) {
    if (name) store.set(name, value.value, toCookieOptions(value));
  }
}

type Context<G extends Guard, I> = (G extends { kind: "org" }
  ? { viewer: OrgViewer; input: I }
  : { viewer: Viewer; input: I }) &
  ActionEnvironment;

/** A server action, and the same action run in a given environment (`.using(env)`, for tests). */
export type ServerAction<T> = ((input: unknown) => Promise<ActionResult<T>>) & {
  using: (environment: ActionEnvironment) => (input: unknown) => Promise<ActionResult<T>>;
};

/**
 * The one wrapper for server actions: runs the guard (re-reading the user and the membership from
 * the database), parses the input with the zod schema, and hands the action a typed context with
 * its environment. Expected failures are returned as values; only bugs throw.
 */
export function action<G extends Guard, S extends z.ZodType, T>(
  guard: G,
  schema: S,
  run: (context: Context<G, z.infer<S>>) => Promise<ActionResult<T>>,
): ServerAction<T> {
  const inEnvironment = async (env: ActionEnvironment, input: unknown): Promise<ActionResult<T>> => {
    const { db } = env;
    const viewer = await loadViewer(db, env.auth, env.headers);
    if (!viewer) return { ok: false, error: SIGNED_OUT_ERROR };
    if (guard.kind !== "user" || !guard.allowOnboarding) {
      if (viewer.user.onboardingStep !== "done")
        return { ok: false, error: "Finish setting up your account first." };
    }
    if (guard.kind === "admin" && !isAdminViewer(viewer)) return { ok: false, error: "Not found." };
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
    return run({ ...env, viewer: context, input: parsed.data } as Context<G, z.infer<S>>);
  };
  // The second argument is never the caller's: a browser could send one to a server action.
  const served = async (input: unknown) => inEnvironment(await requestEnvironment(), input);
  return Object.assign(served, {
    using: (environment: ActionEnvironment) => (input: unknown) => inEnvironment(environment, input),
  });
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
