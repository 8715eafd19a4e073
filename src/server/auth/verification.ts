import "server-only";
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import {
  APIError,
  createAuthEndpoint,
  createAuthMiddleware,
  getSessionFromCtx,
  isAPIError,
} from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { and, count, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { safeRedirectPath } from "@/core/auth/redirect";
import type { Db, Tx } from "../db/client";
import {
  account,
  member,
  organization,
  passkey,
  rateLimitEvents,
  session,
  twoFactor,
  user,
  verification,
} from "../db/schema";
import type { Mailer } from "../mail/outbox";
import { mailTemplates } from "../mail/templates";
import { consumeRateLimit } from "../rate-limit";
import { rememberDevice } from "./account-security";
import { recordSecurityEvent } from "./security-events";

/**
 * Proving the mailbox. An account whose address is not confirmed is only a reservation: it cannot
 * sign in, and whoever confirms the address owns it.
 *
 * Every sign-up (and every password sign-in to an unconfirmed account) starts a confirmation
 * attempt: a row in `verification` holding a 6-digit code and a link secret (both hashed), and a
 * signed cookie naming the attempt in the browser that typed the password. The mail carries both.
 *
 * - The code works only in the browser holding that cookie, and signs it in: that browser proved
 *   the password, the code proves the mailbox. A link or code sent to somebody else can never sign
 *   them in to an account they did not create (no login CSRF).
 * - The link confirms the address after a click on the page it opens (mail scanners only GET); it
 *   signs in only the browser that started the attempt, and never replaces a different signed-in
 *   user's session.
 * - Confirming removes everything set up on the account before the address was proven: two-factor
 *   authentication, passkeys, sessions, other pending attempts; a sign-up made while an unconfirmed
 *   account held the address brings its own password and name, which replace the squatter's. The
 *   owner is told by mail when anything was removed.
 */

export const CONFIRM_COOKIE = "abacus_confirm";
/** How long a code and its link work (and the cookie naming the attempt lives). */
export const EMAIL_VERIFICATION_EXPIRES_IN = 60 * 60 * 24;
const IDENTIFIER_PREFIX = "email-confirmation:";
/** Wrong codes one attempt may take before only its link (or a new code) works. */
export const MAX_CODE_FAILURES = 5;
/** Wrong codes per address per hour, across attempts (an attacker can start many attempts). */
const ADDRESS_CODE_FAILURES = { bucket: "email-code-failure", limit: 20, windowSeconds: 60 * 60 };
const RESENDS = { bucket: "email-code-resend", limit: 3, windowSeconds: 60 * 60 };
const SIGN_IN_CODES = { bucket: "email-code-sign-in", limit: 3, windowSeconds: 60 * 60 };

type Mode = "new" | "replace" | "exists" | "sign-in" | "resend";
type Attempt = {
  userId: string;
  email: string;
  mode: Mode;
  linkHash: string;
  codeHash: string;
  failures: number;
  redirectTo: string;
  name?: string;
  passwordHash?: string;
};

export type ConfirmationOptions = {
  mailer: Mailer;
  origin: string;
  secret: string;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");
const codeDigest = (secret: string, attemptId: string, code: string) =>
  createHmac("sha256", secret).update(`${attemptId}:${code}`).digest("base64url");
const sameDigest = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

export function confirmationLink(origin: string, token: string): string {
  return new URL(`/sign-up/confirm?token=${encodeURIComponent(token)}`, origin).toString();
}

function parseAttempt(value: string): Attempt | null {
  try {
    const parsed = JSON.parse(value) as Attempt;
    return typeof parsed.userId === "string" && typeof parsed.email === "string" ? parsed : null;
  } catch {
    return null;
  }
}

function splitToken(token: string): { id: string; secret: string } | null {
  const [id, secret, extra] = token.split(".");
  if (!id || !secret || extra !== undefined || id.length > 64 || secret.length > 64) return null;
  return { id, secret };
}

/** A new attempt (or fresh secrets for an existing one): its id, code and link token. */
async function writeAttempt(
  db: Db,
  secret: string,
  attempt: Omit<Attempt, "linkHash" | "codeHash" | "failures">,
  existingId?: string,
) {
  const id = existingId ?? randomBytes(18).toString("base64url");
  const code = newCode();
  const linkSecret = randomBytes(24).toString("base64url");
  const value: Attempt = {
    ...attempt,
    linkHash: sha256(linkSecret),
    codeHash: codeDigest(secret, id, code),
    failures: 0,
  };
  const expiresAt = new Date(Date.now() + EMAIL_VERIFICATION_EXPIRES_IN * 1000);
  if (existingId) {
    await db
      .update(verification)
      .set({ value: JSON.stringify(value), expiresAt, updatedAt: new Date() })
      .where(eq(verification.id, id));
  } else {
    await db.insert(verification).values({
      id,
      identifier: `${IDENTIFIER_PREFIX}${attempt.userId}`,
      value: JSON.stringify(value),
      expiresAt,
    });
  }
  return { id, code, token: `${id}.${linkSecret}` };
}

async function loadAttempt(db: Db, id: string) {
  const [row] = await db.select().from(verification).where(eq(verification.id, id));
  if (!row?.identifier.startsWith(IDENTIFIER_PREFIX) || row.expiresAt.getTime() <= Date.now()) return null;
  const attempt = parseAttempt(row.value);
  return attempt ? { id: row.id, attempt } : null;
}

/** The attempt a confirmation link names, if the link is whole and still valid (reading only). */
export async function describeConfirmationLink(db: Db, token: string) {
  const parts = splitToken(token);
  if (!parts) return null;
  const found = await loadAttempt(db, parts.id);
  if (!found || !sameDigest(found.attempt.linkHash, sha256(parts.secret))) return null;
  return { email: found.attempt.email };
}

/** The attempt named by the browser's cookie value (already checked against its signature). */
export async function describeAttempt(db: Db, attemptId: string) {
  const found = await loadAttempt(db, attemptId);
  return found ? { email: found.attempt.email, redirectTo: found.attempt.redirectTo } : null;
}

/**
 * The attempt id in a raw `abacus_confirm` cookie value when its signature (Better Auth's signed-cookie
 * format: `value.base64(HMAC-SHA256)`) is right; for pages, which read cookies without an endpoint.
 */
export function attemptIdFromCookie(raw: string | undefined, secret: string): string | null {
  if (!raw) return null;
  const value = raw.includes("%") ? decodeURIComponent(raw) : raw;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const id = value.slice(0, dot);
  const expected = createHmac("sha256", secret).update(id).digest("base64");
  return sameDigest(value.slice(dot + 1), expected) ? id : null;
}

/** What confirming removed, for the owner's notice. */
function removedPhrase(removed: {
  twoFactor: boolean;
  passkeys: number;
  sessions: number;
  password: boolean;
}) {
  const parts = [
    removed.twoFactor ? "two-factor authentication" : null,
    removed.passkeys ? `${removed.passkeys} passkey${removed.passkeys === 1 ? "" : "s"}` : null,
    removed.sessions ? `${removed.sessions} signed-in session${removed.sessions === 1 ? "" : "s"}` : null,
    removed.password ? "the password chosen at an earlier sign-up" : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(", ") : null;
}

/**
 * Everything set up on an account before its address was proven is removed: two-factor, passkeys,
 * sessions and pending confirmation attempts. Returns what was there. Runs in the caller's
 * transaction.
 */
export async function removeUnprovenFactors(tx: Db | Tx, userId: string) {
  const [factors] = await tx
    .select({ twoFactor: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.id, userId));
  const secrets = await tx
    .delete(twoFactor)
    .where(eq(twoFactor.userId, userId))
    .returning({ id: twoFactor.id });
  const keys = await tx.delete(passkey).where(eq(passkey.userId, userId)).returning({ id: passkey.id });
  const sessions = await tx.delete(session).where(eq(session.userId, userId)).returning({ id: session.id });
  await tx.delete(verification).where(eq(verification.identifier, `${IDENTIFIER_PREFIX}${userId}`));
  await tx.update(user).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(user.id, userId));
  return {
    twoFactor: Boolean(factors?.twoFactor) || secrets.length > 0,
    passkeys: keys.length,
    sessions: sessions.length,
  };
}

type Confirmed = { userId: string; email: string; redirectTo: string; removed: string | null };

/**
 * Confirms the attempt `id` (the code or link already checked by the caller, under the row lock):
 * the address is verified, earlier factors are removed, and a replacing sign-up's password and name
 * take effect. Null when the account is gone or its address changed since.
 */
async function confirmAttempt(db: Db, id: string): Promise<Confirmed | "already" | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(verification).where(eq(verification.id, id)).for("update");
    const attempt = row ? parseAttempt(row.value) : null;
    if (!row || !attempt) return null;
    const [account0] = await tx
      .select({ email: user.email, verified: user.emailVerified })
      .from(user)
      .where(eq(user.id, attempt.userId))
      .for("update");
    if (!account0 || account0.email.toLowerCase() !== attempt.email.toLowerCase()) {
      await tx.delete(verification).where(eq(verification.id, id));
      return null;
    }
    if (account0.verified) {
      await tx.delete(verification).where(eq(verification.id, id));
      return "already";
    }
    const removed = await removeUnprovenFactors(tx, attempt.userId);
    let passwordReplaced = false;
    if (attempt.mode === "replace" && attempt.passwordHash) {
      const updated = await tx
        .update(account)
        .set({ password: attempt.passwordHash, updatedAt: new Date() })
        .where(and(eq(account.userId, attempt.userId), eq(account.providerId, "credential")))
        .returning({ id: account.id });
      passwordReplaced = updated.length > 0;
    }
    await tx
      .update(user)
      .set({
        emailVerified: true,
        ...(attempt.mode === "replace" && attempt.name ? { name: attempt.name } : {}),
        updatedAt: new Date(),
      })
      .where(eq(user.id, attempt.userId));
    return {
      userId: attempt.userId,
      email: attempt.email,
      redirectTo: attempt.redirectTo,
      removed: removedPhrase({ ...removed, password: passwordReplaced }),
    };
  });
}

async function countFailure(db: Db, subject: string) {
  await db.insert(rateLimitEvents).values({ bucket: ADDRESS_CODE_FAILURES.bucket, subject });
}
async function addressFailures(db: Db, subject: string) {
  const [row] = await db
    .select({ n: count() })
    .from(rateLimitEvents)
    .where(
      and(
        eq(rateLimitEvents.bucket, ADDRESS_CODE_FAILURES.bucket),
        eq(rateLimitEvents.subject, subject),
        gt(
          rateLimitEvents.at,
          sql`clock_timestamp() - make_interval(secs => ${ADDRESS_CODE_FAILURES.windowSeconds})`,
        ),
      ),
    );
  return row?.n ?? 0;
}
const allowed = (db: Db, rule: typeof RESENDS, subject: string) =>
  db.transaction((tx) => consumeRateLimit(tx, rule, subject)).then((d) => d.allowed);

const codeError = (message: string, code: string) => new APIError("BAD_REQUEST", { message, code });
const CODE_WRONG = "That code is not valid. Check the newest email and try again.";
const CODE_ENDED =
  "This confirmation has ended. If you already confirmed your address, sign in; otherwise sign up again for a new code.";

/** The plugin: hooks on sign-up, sign-in and the enrolment endpoints, and the confirmation endpoints. */
export function emailConfirmation(db: Db, options: ConfirmationOptions) {
  const mailConfirmation = (email: string, code: string, token: string) =>
    options.mailer.send(
      email,
      mailTemplates.verifyEmail(options.origin, confirmationLink(options.origin, token), code),
    );

  /** Sets the cookie naming `attemptId` in this browser. */
  const remember = (ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0], attemptId: string) =>
    ctx.setSignedCookie(CONFIRM_COOKIE, attemptId, options.secret, {
      httpOnly: true,
      sameSite: "lax",
      secure: ctx.context.authCookies.sessionToken.attributes.secure,
      path: "/",
      maxAge: EMAIL_VERIFICATION_EXPIRES_IN,
    });

  /**
   * After confirming: record it (the owner is mailed only when something was removed), and sign in
   * this browser when it started the attempt and nobody else is signed in here.
   */
  async function finish(
    ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0],
    confirmed: Confirmed,
    mayStartSession: boolean,
  ) {
    await recordSecurityEvent(db, options.mailer, options.origin, {
      userId: confirmed.userId,
      kind: "email-confirmed",
      detail: confirmed.removed
        ? `Removed because they were set up before the address was confirmed: ${confirmed.removed}. If you did not set them up, someone else tried to use your address before you; they no longer can.`
        : undefined,
      userAgent: ctx.headers?.get("user-agent"),
      notify: confirmed.removed !== null,
    });
    const current = await getSessionFromCtx(ctx).catch(() => null);
    ctx.setCookie(CONFIRM_COOKIE, "", { path: "/", maxAge: 0 });
    if (current || !mayStartSession) return false;
    const created = await ctx.context.internalAdapter.createSession(confirmed.userId);
    const found = await ctx.context.internalAdapter.findUserById(confirmed.userId);
    if (!created || !found) return false;
    await setSessionCookie(ctx, { session: created, user: found });
    await rememberDevice(ctx, confirmed.email, options.secret);
    await recordSecurityEvent(db, options.mailer, options.origin, {
      userId: confirmed.userId,
      kind: "first-sign-in",
      userAgent: ctx.headers?.get("user-agent"),
      notify: false,
    });
    return true;
  }

  return {
    id: "abacus-email-confirmation",
    endpoints: {
      /** The 6-digit code, typed in the browser that started the attempt. */
      confirmEmailCode: createAuthEndpoint(
        "/email-confirmation/code",
        { method: "POST", body: z.object({ code: z.string().max(20) }) },
        async (ctx) => {
          const attemptId = await ctx.getSignedCookie(CONFIRM_COOKIE, options.secret);
          const found = attemptId ? await loadAttempt(db, attemptId) : null;
          if (!found) throw codeError(CODE_ENDED, "CONFIRMATION_ENDED");
          const subject = `email:${found.attempt.email}`;
          if (
            found.attempt.failures >= MAX_CODE_FAILURES ||
            (await addressFailures(db, subject)) >= ADDRESS_CODE_FAILURES.limit
          ) {
            throw codeError(
              "Too many wrong codes. Use the link in the email, or send a new code.",
              "TOO_MANY_ATTEMPTS",
            );
          }
          const code = ctx.body.code.replace(/\s+/g, "");
          if (
            !/^\d{6}$/.test(code) ||
            !sameDigest(found.attempt.codeHash, codeDigest(options.secret, found.id, code))
          ) {
            await db
              .update(verification)
              .set({ value: JSON.stringify({ ...found.attempt, failures: found.attempt.failures + 1 }) })
              .where(eq(verification.id, found.id));
            await countFailure(db, subject);
            throw codeError(CODE_WRONG, "INVALID_CODE");
          }
          const confirmed = await confirmAttempt(db, found.id);
          if (confirmed === "already") {
            ctx.setCookie(CONFIRM_COOKIE, "", { path: "/", maxAge: 0 });
            return ctx.json({
              status: true,
              signedIn: false,
              alreadyConfirmed: true,
              redirectTo: found.attempt.redirectTo,
            });
          }
          if (!confirmed) throw codeError(CODE_ENDED, "CONFIRMATION_ENDED");
          const signedIn = await finish(ctx, confirmed, true);
          return ctx.json({
            status: true,
            signedIn,
            alreadyConfirmed: false,
            redirectTo: confirmed.redirectTo,
          });
        },
      ),
      /** The emailed link, after the person clicked "Confirm" on the page it opened. */
      confirmEmailLink: createAuthEndpoint(
        "/email-confirmation/link",
        { method: "POST", body: z.object({ token: z.string().max(200) }) },
        async (ctx) => {
          const parts = splitToken(ctx.body.token);
          const found = parts ? await loadAttempt(db, parts.id) : null;
          if (!parts || !found || !sameDigest(found.attempt.linkHash, sha256(parts.secret))) {
            throw codeError("This link has expired or was already used.", "INVALID_TOKEN");
          }
          const confirmed = await confirmAttempt(db, found.id);
          if (confirmed === "already") {
            return ctx.json({
              status: true,
              signedIn: false,
              alreadyConfirmed: true,
              email: found.attempt.email,
              redirectTo: found.attempt.redirectTo,
            });
          }
          if (!confirmed) throw codeError("This link has expired or was already used.", "INVALID_TOKEN");
          const started = (await ctx.getSignedCookie(CONFIRM_COOKIE, options.secret)) === found.id;
          const signedIn = await finish(ctx, confirmed, started);
          return ctx.json({
            status: true,
            signedIn,
            alreadyConfirmed: false,
            email: confirmed.email,
            redirectTo: confirmed.redirectTo,
          });
        },
      ),
      /** A new code and link for the browser's attempt (a few an hour). Answers alike for every attempt. */
      resendEmailConfirmation: createAuthEndpoint(
        "/email-confirmation/resend",
        { method: "POST", body: z.object({}).optional() },
        async (ctx) => {
          const attemptId = await ctx.getSignedCookie(CONFIRM_COOKIE, options.secret);
          const found = attemptId ? await loadAttempt(db, attemptId) : null;
          if (!found) throw codeError(CODE_ENDED, "CONFIRMATION_ENDED");
          if (!(await allowed(db, RESENDS, found.id))) {
            throw new APIError("TOO_MANY_REQUESTS", {
              message: "We already sent a few codes. Please wait an hour, or use the newest email.",
              code: "RATE_LIMITED",
            });
          }
          const { id: _id, ...rest } = { id: found.id, ...found.attempt };
          const written = await writeAttempt(db, options.secret, rest, found.id);
          if (found.attempt.mode !== "exists") {
            options.mailer.track(mailConfirmation(found.attempt.email, written.code, written.token));
          }
          return ctx.json({ status: true });
        },
      ),
    },
    hooks: {
      before: [
        {
          // Nothing is enrolled on an account whose address is not proven (a session that predates
          // the rule, or an impersonation, may still exist).
          matcher: (ctx) =>
            ctx.path === "/two-factor/enable" ||
            ctx.path === "/passkey/generate-register-options" ||
            ctx.path === "/passkey/verify-registration",
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            if (!current) return;
            const [row] = await db
              .select({ verified: user.emailVerified })
              .from(user)
              .where(eq(user.id, current.user.id));
            if (!row?.verified) {
              throw new APIError("FORBIDDEN", {
                message: "Confirm your email address before adding a way to sign in.",
                code: "EMAIL_NOT_VERIFIED",
              });
            }
          }),
        },
        {
          // A GET never changes the session: Better Auth clears the active organization when the
          // caller is not a member of the one asked for; refuse before it gets there.
          matcher: (ctx) => ctx.path === "/organization/get-full-organization",
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            if (!current) return;
            const query = (ctx.query ?? {}) as { organizationId?: unknown; organizationSlug?: unknown };
            const active = (current.session as { activeOrganizationId?: string | null }).activeOrganizationId;
            const slug = typeof query.organizationSlug === "string" ? query.organizationSlug : null;
            const id = slug ? null : typeof query.organizationId === "string" ? query.organizationId : active;
            if (!slug && !id) return;
            const [org] = await db
              .select({ id: organization.id })
              .from(organization)
              .where(slug ? eq(organization.slug, slug) : eq(organization.id, id ?? ""));
            if (!org) return;
            const [membership] = await db
              .select({ id: member.id })
              .from(member)
              .where(and(eq(member.organizationId, org.id), eq(member.userId, current.user.id)));
            if (!membership) {
              throw new APIError("FORBIDDEN", {
                message: "You are not a member of this organization.",
                code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
              });
            }
          }),
        },
        {
          // Better Auth's own links now only change an address (ours confirm one). Such a link needs
          // the account's session: opened signed out, it would sign the browser in to the account
          // that asked for the change (login CSRF).
          matcher: (ctx) => ctx.path === "/verify-email",
          handler: createAuthMiddleware(async (ctx) => {
            const token = (ctx.query as { token?: unknown } | undefined)?.token;
            const payload = typeof token === "string" ? jwtPayload(token) : null;
            if (!payload || typeof payload.updateTo !== "string") {
              throw new APIError("BAD_REQUEST", {
                message: "This link is not valid.",
                code: "INVALID_TOKEN",
              });
            }
            const current = await getSessionFromCtx(ctx);
            if (current) return;
            const back = `/api/auth/verify-email?${new URLSearchParams(ctx.query as Record<string, string>).toString()}`;
            throw ctx.redirect(`/sign-in?redirect_url=${encodeURIComponent(back)}`);
          }),
        },
      ],
      after: [
        {
          // Ask the authenticator for user verification at sign-in too (it is checked: ./verification-rules.ts).
          matcher: (ctx) => ctx.path === "/passkey/generate-authenticate-options",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!returned || isAPIError(returned) || typeof returned !== "object") return;
            return ctx.json({ ...(returned as Record<string, unknown>), userVerification: "required" });
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/sign-up/email",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { user?: { id?: string } } | null;
            if (!returned || isAPIError(returned)) return;
            const body = ctx.body as { email: string; name: string; password: string; callbackURL?: string };
            const email = body.email.trim().toLowerCase();
            const [row] = await db
              .select({ id: user.id, verified: user.emailVerified })
              .from(user)
              .where(eq(user.email, email));
            if (!row) return ctx.json({ token: null, user: null });
            const mode: Mode = row.id === returned.user?.id ? "new" : row.verified ? "exists" : "replace";
            // Hashed for every sign-up, so a replacing one (which needs it) takes no longer than the rest.
            const passwordHash = await ctx.context.password.hash(body.password);
            const written = await writeAttempt(db, options.secret, {
              userId: row.id,
              email,
              mode,
              name: body.name,
              passwordHash: mode === "replace" ? passwordHash : undefined,
              redirectTo: safeRedirectPath(body.callbackURL, "/onboarding"),
            });
            await remember(ctx, written.id);
            // An existing, confirmed account gets Better Auth's "you already have an account" mail.
            if (mode !== "exists") options.mailer.track(mailConfirmation(email, written.code, written.token));
            // The same answer for every address: nothing in it says whether the address had an account.
            return ctx.json({ token: null, user: null });
          }),
        },
        {
          // The right password for an unconfirmed account: no session, but a new code for this browser.
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (
              !isAPIError(returned) ||
              (returned.body as { code?: string } | undefined)?.code !== "EMAIL_NOT_VERIFIED"
            )
              return;
            const email = String((ctx.body as { email?: unknown }).email ?? "")
              .trim()
              .toLowerCase();
            const [row] = await db
              .select({ id: user.id, verified: user.emailVerified })
              .from(user)
              .where(eq(user.email, email));
            if (!row || row.verified || !(await allowed(db, SIGN_IN_CODES, row.id))) return;
            const callbackURL = (ctx.body as { callbackURL?: unknown }).callbackURL;
            const written = await writeAttempt(db, options.secret, {
              userId: row.id,
              email,
              mode: "sign-in",
              redirectTo: safeRedirectPath(
                typeof callbackURL === "string" ? callbackURL : undefined,
                "/onboarding",
              ),
            });
            await remember(ctx, written.id);
            options.mailer.track(mailConfirmation(email, written.code, written.token));
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/**
 * Any other path that mails a confirmation (Better Auth's send-verification-email for an unconfirmed
 * address) gets our link, bound to no browser: it confirms, it never signs in.
 */
export async function mailDetachedConfirmation(
  db: Db,
  options: ConfirmationOptions,
  target: { userId: string; email: string },
) {
  const written = await writeAttempt(db, options.secret, {
    userId: target.userId,
    email: target.email.toLowerCase(),
    mode: "resend",
    redirectTo: "/onboarding",
  });
  await options.mailer.send(
    target.email,
    mailTemplates.verifyEmail(options.origin, confirmationLink(options.origin, written.token), written.code),
  );
}

function jwtPayload(token: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
  } catch {
    return null;
  }
}
