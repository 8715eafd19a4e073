import "server-only";
import { createHash } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { and, count, eq, gt, inArray, max, sql } from "drizzle-orm";
import { accountDelaySeconds, LOCKOUT_WINDOW_SECONDS, waitPhrase } from "@/core/auth/lockout";
import { CLIENT_ADDRESS_HEADER, pinnedClientAddress, refusalCacheControl } from "@/core/http/edge-contract";
import { hashClient } from "../client-identity";
import type { Db } from "../db/client";
import { member, rateLimitEvents, securityEvents } from "../db/schema";
import type { Mailer } from "../mail/outbox";
import { recordSecurityEvent } from "./security-events";

/** Buckets in rate_limit_events: failed sign-ins per client and per account (never successes). */
export const SIGN_IN_FAILURE_BUCKETS = { client: "sign-in", account: "sign-in-account" } as const;
export const DEVICE_COOKIE = "abacus_device";
const DEVICE_COOKIE_MAX_AGE = 60 * 60 * 24 * 400;

export function clientOf(headers: Headers | undefined): string {
  return hashClient(pinnedClientAddress(headers?.get(CLIENT_ADDRESS_HEADER)));
}

const accountKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const deviceValue = (email: string) =>
  createHash("sha256").update(`device:${email.trim().toLowerCase()}`).digest("base64url").slice(0, 32);

async function failures(db: Db, bucket: string, subject: string) {
  const [row] = await db
    .select({ count: count(), last: max(rateLimitEvents.at) })
    .from(rateLimitEvents)
    .where(
      and(
        eq(rateLimitEvents.bucket, bucket),
        eq(rateLimitEvents.subject, subject),
        gt(rateLimitEvents.at, sql`clock_timestamp() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS})`),
      ),
    );
  return { count: row?.count ?? 0, last: row?.last ? new Date(row.last) : null };
}

async function oldestFailureAge(db: Db, subject: string): Promise<number> {
  const [row] = await db
    .select({
      wait: sql<number>`coalesce(ceil(extract(epoch from (min(${rateLimitEvents.at}) + make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}) - clock_timestamp()))), 1)::int`,
    })
    .from(rateLimitEvents)
    .where(
      and(
        eq(rateLimitEvents.bucket, SIGN_IN_FAILURE_BUCKETS.client),
        eq(rateLimitEvents.subject, subject),
        gt(rateLimitEvents.at, sql`clock_timestamp() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS})`),
      ),
    );
  return Math.max(1, row?.wait ?? 1);
}

/** Marks this browser as one the owner of `email` signed in from (see DEVICE_COOKIE). */
export async function rememberDevice(
  ctx: {
    setSignedCookie: (
      name: string,
      value: string,
      secret: string,
      attributes: { httpOnly: boolean; sameSite: "lax"; secure?: boolean; path: string; maxAge: number },
    ) => Promise<unknown>;
    context: { authCookies: { sessionToken: { attributes: { secure?: boolean } } } };
  },
  email: string,
  secret: string,
) {
  await ctx.setSignedCookie(DEVICE_COOKIE, deviceValue(email), secret, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.context.authCookies.sessionToken.attributes.secure,
    path: "/",
    maxAge: DEVICE_COOKIE_MAX_AGE,
  });
}

/**
 * A sign-in from a browser without the device cookie: a new device, unless the account has never
 * signed in before (its very first sign-in is not news to its owner, and is recorded silently).
 */
async function noteSignIn(
  db: Db,
  options: AccountSecurityOptions,
  userId: string,
  email: string,
  userAgent: string | null | undefined,
) {
  const [earlier] = await db
    .select({ id: securityEvents.id })
    .from(securityEvents)
    .where(
      and(
        eq(securityEvents.userId, userId),
        inArray(securityEvents.kind, ["new-device-sign-in", "first-sign-in"]),
      ),
    )
    .limit(1);
  await recordSecurityEvent(db, options.mailer, options.origin, {
    userId,
    kind: earlier ? "new-device-sign-in" : "first-sign-in",
    userAgent,
    notifyEmail: email.trim().toLowerCase(),
    notify: Boolean(earlier),
  });
}

const tooMany = (message: string) => new APIError("TOO_MANY_REQUESTS", { message, code: "RATE_LIMITED" });

/**
 * The headers of a 429 whose refusal depends on the client's address alone (not on the body): the
 * server in front of Next.js (src/edge) repeats it without Next.js for as long as its Cache-Control
 * says it holds (at most 10 s), so a client hammering sign-in or sign-up while refused costs about 0.15 ms a request, not 6 ms.
 */
export function clientRefusalHeaders(retryAfterSeconds: number, holdsForMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  };
  headers["Cache-Control"] = refusalCacheControl(holdsForMs);
  return headers;
}

async function memberRole(db: Db, userId: string, organizationId: string) {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)));
  return row?.role ?? null;
}
const isManager = (role: string | null) => role === "owner" || role === "admin";

export type AccountSecurityOptions = {
  /** Failed sign-ins allowed per client in the lockout window (AUTH_SIGN_IN_LIMIT). */
  clientFailureLimit: number;
  mailer: Mailer;
  origin: string;
  secret: string;
};

/**
 * Our rules on top of Better Auth, as one plugin (it must come before `twoFactor` and
 * `nextCookies` in the plugin list):
 *
 * - invitations are visible only to owners and admins, on Better Auth's own endpoints too;
 * - sign-in lockout that counts failures only (see `@/core/auth/lockout`), with a signed
 *   "known device" cookie that exempts the owner's devices from the per-account delay;
 * - security events (and emails) for a sign-in from a device the account has not used and for a
 *   password change.
 */
export function accountSecurity(db: Db, options: AccountSecurityOptions) {
  return {
    id: "abacus-account-security",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/organization/list-invitations",
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            if (!session) return;
            const query = (ctx.query ?? {}) as { organizationId?: unknown };
            const active = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId;
            const orgId = typeof query.organizationId === "string" ? query.organizationId : active;
            if (!orgId) return;
            if (!isManager(await memberRole(db, session.user.id, orgId))) {
              throw new APIError("FORBIDDEN", {
                message: "Only owners and admins can see an organization's invitations.",
                code: "FORBIDDEN",
              });
            }
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const client = clientOf(ctx.headers);
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            const hasEmail = typeof email === "string";
            const [fromClient, forAccount, deviceCookie] = await Promise.all([
              failures(db, SIGN_IN_FAILURE_BUCKETS.client, client),
              hasEmail ? failures(db, SIGN_IN_FAILURE_BUCKETS.account, accountKey(email)) : null,
              ctx.getSignedCookie(DEVICE_COOKIE, options.secret),
            ]);
            if (fromClient.count >= options.clientFailureLimit) {
              const wait = await oldestFailureAge(db, client);
              // wait is rounded up: the refusal surely holds one second less (nothing removes failures early)
              throw new APIError(
                "TOO_MANY_REQUESTS",
                {
                  message: `Too many failed sign-ins from this network. Please wait ${waitPhrase(wait)} and try again.`,
                  code: "RATE_LIMITED",
                },
                clientRefusalHeaders(wait, (wait - 1) * 1000),
              );
            }
            if (!hasEmail || !forAccount) return;
            // A device the owner signed in from before is not delayed by other people's guesses.
            if (deviceCookie === deviceValue(email)) return;
            const delay = accountDelaySeconds(forAccount.count);
            if (delay > 0 && forAccount.last) {
              const remaining = Math.ceil((forAccount.last.getTime() + delay * 1000 - Date.now()) / 1000);
              if (remaining > 0) {
                // An attempt during the delay is one more failure of the client that made it (not of the
                // account): a client that keeps trying reaches its own lockout, which the edge repeats
                // without Next.js; otherwise each refusal here cost ~5 ms of CPU for as long as it kept on.
                await db
                  .insert(rateLimitEvents)
                  .values({ bucket: SIGN_IN_FAILURE_BUCKETS.client, subject: client });
                throw tooMany(
                  `Too many failed attempts for this account. Please wait ${waitPhrase(remaining)} and try again.`,
                );
              }
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) =>
            ctx.path === "/passkey/verify-registration" || ctx.path === "/passkey/delete-passkey",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const userId = ctx.context.session?.user.id ?? (await getSessionFromCtx(ctx))?.user.id;
            if (!returned || isAPIError(returned) || !userId) return;
            const added = ctx.path === "/passkey/verify-registration";
            const name = (returned as { name?: unknown }).name;
            await recordSecurityEvent(db, options.mailer, options.origin, {
              userId,
              kind: added ? "passkey-added" : "passkey-removed",
              detail: added && typeof name === "string" && name ? `Name: ${name}.` : undefined,
              userAgent: ctx.headers?.get("user-agent"),
            });
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/change-password",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { user?: { id?: string } } | null;
            if (!returned || isAPIError(returned)) return;
            const userId = returned.user?.id ?? ctx.context.session?.user.id;
            if (!userId) return;
            await recordSecurityEvent(db, options.mailer, options.origin, {
              userId,
              kind: "password-changed",
              detail: "Your other sessions were signed out.",
              userAgent: ctx.headers?.get("user-agent"),
            });
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/organization/get-full-organization",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { id?: string; invitations?: unknown[] } | null;
            if (!returned || isAPIError(returned) || !Array.isArray(returned.invitations) || !returned.id)
              return;
            const session = await getSessionFromCtx(ctx);
            if (session && isManager(await memberRole(db, session.user.id, returned.id))) return;
            return ctx.json({ ...returned, invitations: [] });
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            if (typeof email !== "string") return;
            const returned = ctx.context.returned;
            if (isAPIError(returned)) {
              if (returned.statusCode !== 401) return;
              await db.insert(rateLimitEvents).values([
                { bucket: SIGN_IN_FAILURE_BUCKETS.client, subject: clientOf(ctx.headers) },
                { bucket: SIGN_IN_FAILURE_BUCKETS.account, subject: accountKey(email) },
              ]);
              return;
            }
            // The password was right: the account's failures are forgiven (below, with the rest).
            const known = (await ctx.getSignedCookie(DEVICE_COOKIE, options.secret)) === deviceValue(email);
            const forgiven = db
              .delete(rateLimitEvents)
              .where(
                and(
                  eq(rateLimitEvents.bucket, SIGN_IN_FAILURE_BUCKETS.account),
                  eq(rateLimitEvents.subject, accountKey(email)),
                ),
              );
            await rememberDevice(ctx, email, options.secret);
            const userId =
              ctx.context.newSession?.user.id ?? (returned as { user?: { id?: string } } | null)?.user?.id;
            await Promise.all([
              forgiven,
              !known && userId
                ? noteSignIn(db, options, userId, email, ctx.headers?.get("user-agent"))
                : null,
            ]);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
