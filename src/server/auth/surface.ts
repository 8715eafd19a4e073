import "server-only";
import { APIError, getSessionFromCtx, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { writeAudit } from "../audit";
import type { Db } from "../db/client";
import { user } from "../db/schema";
import { impersonationTarget } from "./impersonation";

/**
 * Better Auth's surface, declared once: every endpoint it exposes with our configuration, and how
 * each is reached.
 *
 * - `http`: served at `/api/auth/*` (the product, its links and its scripts use it there);
 * - `server`: reached only through `auth.api.*` from one of our server actions, whose guard
 *   (`action()`) applies the app's rules first; `/api/auth/*` answers 404;
 * - `off`: the product does not use it: 404 over HTTP, and refused for any caller, `auth.api.*`
 *   included, so starting to use one is a change to this table, not an accident.
 *
 * Each kept endpoint names the rules that cover it; the enforcement below reads the same table
 * (`not-impersonating`, `audited`, `impersonation-rules`, `off`). `surface.int.test.ts` builds the
 * auth object, lists its endpoints and fails when one is missing here, so a Better Auth upgrade or
 * a new plugin cannot add an endpoint nobody decided about.
 */
export type Exposure = "http" | "server" | "off";

export const SURFACE_RULES = {
  "app-action": "reached only through our server action, whose guard re-reads the user and membership",
  "session-read": "answers the caller's own session, nothing else",
  "own-session": "acts on the caller's own session only",
  "mailed-token": "acts only with a signed token that was mailed to the address",
  "sign-in-lockout": "failed sign-ins limited per client and per account (account-security.ts)",
  "hash-fairness":
    "password hashing shared round-robin between clients, capped per client (password-hashing.ts)",
  "sign-up-limit": "sign-ups per client per hour (AUTH_SIGN_UP_LIMIT)",
  "password-policy": "the forms' password policy (auth.ts hooks.before)",
  "form-rules": "the forms' zod field rules (hardening.ts)",
  "mail-limits": "requests per client and messages per recipient per hour (mail-limits.ts)",
  "invite-limit": "the plan's member cap at invite time (invite-limit.ts)",
  "not-impersonating": "a credential change: refused in an impersonation session",
  "impersonation-rules": "not oneself, not an admin, not a banned user (impersonation.ts)",
  audited: "writes an audit row (audit.ts)",
} as const;
export type SurfaceRule = keyof typeof SURFACE_RULES;

type Entry = { exposure: Exposure; rules?: readonly SurfaceRule[] };

const off: Entry = { exposure: "off" };
const action = (...rules: SurfaceRule[]): Entry => ({ exposure: "server", rules: ["app-action", ...rules] });
const credential = (...rules: SurfaceRule[]): Entry => action("not-impersonating", ...rules);

export const AUTH_SURFACE: Record<string, Entry> = {
  // Signing in and out, the session, and the emailed confirmation link.
  "/sign-in/email": { exposure: "http", rules: ["sign-in-lockout", "hash-fairness", "form-rules"] },
  "/sign-up/email": {
    exposure: "http",
    rules: ["sign-up-limit", "password-policy", "form-rules", "hash-fairness", "mail-limits"],
  },
  "/sign-out": { exposure: "http", rules: ["own-session"] },
  "/get-session": { exposure: "http", rules: ["session-read"] },
  "/verify-email": { exposure: "http", rules: ["mailed-token", "mail-limits"] },

  // Through the sign-in, reset and account forms (server actions).
  "/request-password-reset": action("mail-limits"),
  "/reset-password": action("mailed-token", "password-policy", "hash-fairness"),
  "/send-verification-email": action("mail-limits"),
  // The sign-up confirmation screen: the typed code, the link's button, "send a new code".
  "/email-confirmation/code": action("mailed-token"),
  "/email-confirmation/link": action("mailed-token"),
  "/email-confirmation/resend": action("mail-limits"),
  "/two-factor/verify-totp": action("own-session"),
  "/two-factor/verify-backup-code": action("own-session"),
  "/passkey/generate-authenticate-options": action(),
  "/passkey/verify-authentication": action(),
  "/update-user": action("form-rules"),
  "/revoke-session": action("own-session"),
  "/change-email": credential("form-rules", "mail-limits"),
  "/change-password": credential("password-policy", "hash-fairness"),
  "/delete-user": credential("hash-fairness"),
  "/two-factor/enable": credential("hash-fairness"),
  "/two-factor/disable": credential("hash-fairness"),
  "/two-factor/generate-backup-codes": credential("hash-fairness"),
  "/passkey/generate-register-options": credential(),
  "/passkey/verify-registration": credential("form-rules"),
  "/passkey/delete-passkey": credential(),

  // Organizations (the organization, onboarding and header forms).
  "/organization/create": action("form-rules"),
  "/organization/update": action("form-rules"),
  "/organization/delete": action(),
  "/organization/set-active": action(),
  "/organization/invite-member": action("form-rules", "invite-limit", "mail-limits"),
  "/organization/cancel-invitation": action(),
  "/organization/accept-invitation": action(),
  "/organization/update-member-role": action("form-rules"),
  "/organization/remove-member": action(),
  "/organization/leave": action(),

  // Administration: the admin pages do the rest themselves (features/admin/server/users.ts, with the last-admin rule).
  "/admin/impersonate-user": action("impersonation-rules", "audited"),
  "/admin/stop-impersonating": action("audited"),
  "/admin/set-role": off,
  "/admin/set-user-password": off,
  "/admin/update-user": off,
  "/admin/create-user": off,
  "/admin/remove-user": off,
  "/admin/ban-user": off,
  "/admin/unban-user": off,
  "/admin/list-users": off,
  "/admin/get-user": off,
  "/admin/list-user-sessions": off,
  "/admin/revoke-user-session": off,
  "/admin/revoke-user-sessions": off,
  "/admin/has-permission": off,

  // Not used: the pages read these from the database themselves, or the feature does not exist.
  "/ok": off,
  "/error": off,
  "/update-session": off,
  "/verify-password": off,
  "/list-sessions": off,
  "/revoke-sessions": off,
  "/revoke-other-sessions": off,
  "/reset-password/:token": off,
  "/delete-user/callback": off,
  "/sign-in/social": off,
  "/callback/:id": off,
  "/link-social": off,
  "/unlink-account": off,
  "/list-accounts": off,
  "/account-info": off,
  "/refresh-token": off,
  "/get-access-token": off,
  "/two-factor/get-totp-uri": off,
  "/two-factor/send-otp": off,
  "/two-factor/verify-otp": off,
  "/passkey/list-user-passkeys": off,
  "/passkey/update-passkey": off,
  "/organization/get-full-organization": off,
  "/organization/get-organization": off,
  "/organization/list": off,
  "/organization/list-members": off,
  "/organization/list-invitations": off,
  "/organization/list-user-invitations": off,
  "/organization/get-invitation": off,
  "/organization/reject-invitation": off,
  "/organization/check-slug": off,
  "/organization/get-active-member": off,
  "/organization/get-active-member-role": off,
  "/organization/has-permission": off,
};

const has = (path: string | undefined, rule: SurfaceRule) =>
  path !== undefined && (AUTH_SURFACE[path]?.rules?.includes(rule) ?? false);

/** Better Auth's `disabledPaths`: everything not served over HTTP (its router answers 404). */
export const DISABLED_AUTH_PATHS: string[] = Object.entries(AUTH_SURFACE)
  .filter(([, entry]) => entry.exposure !== "http")
  .map(([path]) => path);

const HTTP_PATHS: ReadonlySet<string> = new Set(
  Object.entries(AUTH_SURFACE)
    .filter(([, entry]) => entry.exposure === "http")
    .map(([path]) => path),
);

/**
 * For the `/api/auth/*` route: whether the path (after the base path) is one we serve. An allow-list,
 * so an endpoint added by an upgrade, or a spelling Better Auth's router would resolve differently
 * (a trailing slash, an encoded character), is refused rather than served.
 */
export function isServedOverHttp(pathname: string, basePath = "/api/auth"): boolean {
  if (!pathname.startsWith(`${basePath}/`)) return false;
  return HTTP_PATHS.has(pathname.slice(basePath.length));
}

export const IMPERSONATION_REFUSAL =
  "Not while impersonating: sign-in methods, the email address, the password and API keys stay with the account's owner.";

type HookContext = Parameters<typeof getSessionFromCtx>[0] & {
  path?: string;
  body?: unknown;
  context: { returned?: unknown };
};

/** What the before hook learned about an impersonation, for the after hook's audit row. */
const impersonations = new WeakMap<object, { adminId: string; userId: string; label: string }>();

/**
 * For `hooks.before` (HTTP and `auth.api.*` alike): refuses `off` endpoints, credential changes in
 * an impersonation session and impersonations the admin pages would refuse.
 */
export async function guardAuthSurface(db: Db, ctx: HookContext): Promise<void> {
  const path = ctx.path;
  if (!path) return;
  const entry = AUTH_SURFACE[path];
  if (entry?.exposure === "off")
    throw new APIError("NOT_FOUND", { message: "Not found.", code: "NOT_FOUND" });
  if (has(path, "not-impersonating")) {
    const session = await getSessionFromCtx(ctx);
    if ((session?.session as { impersonatedBy?: string | null } | undefined)?.impersonatedBy) {
      throw new APIError("FORBIDDEN", { message: IMPERSONATION_REFUSAL, code: "IMPERSONATION_REFUSED" });
    }
  }
  if (has(path, "impersonation-rules")) {
    const session = await getSessionFromCtx(ctx);
    const userId = (ctx.body as { userId?: unknown } | undefined)?.userId;
    if (!session || typeof userId !== "string") return; // Better Auth refuses these itself
    const actor = { id: session.user.id, email: session.user.email };
    const target = await impersonationTarget(db, actor, userId);
    if (!target.ok) throw new APIError("FORBIDDEN", { message: target.error, code: "IMPERSONATION_REFUSED" });
    impersonations.set(ctx.context, { adminId: actor.id, userId, label: target.data.label });
  }
  if (path === "/admin/stop-impersonating" && has(path, "audited")) {
    const session = await getSessionFromCtx(ctx);
    const adminId = (session?.session as { impersonatedBy?: string | null } | undefined)?.impersonatedBy;
    if (session && adminId) {
      impersonations.set(ctx.context, {
        adminId,
        userId: session.user.id,
        label: `${session.user.name} <${session.user.email}>`,
      });
    }
  }
}

/** For `hooks.after`: the audit rows of the `audited` endpoints that succeeded. */
export async function auditAuthSurface(db: Db, ctx: HookContext): Promise<void> {
  if (!has(ctx.path, "audited")) return;
  const returned = ctx.context.returned;
  const seen = impersonations.get(ctx.context);
  if (!seen || !returned || isAPIError(returned)) return;
  const [admin] = await db.select({ email: user.email }).from(user).where(eq(user.id, seen.adminId));
  const starting = ctx.path === "/admin/impersonate-user";
  await writeAudit(
    db,
    { id: seen.adminId, email: admin?.email ?? "(deleted admin)" },
    {
      action: starting ? "user.impersonate" : "user.stop-impersonating",
      targetType: "user",
      targetId: seen.userId,
      targetLabel: seen.label,
      before: starting ? null : { impersonating: true },
      after: { impersonating: starting },
    },
  );
}
