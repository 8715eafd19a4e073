import "server-only";
import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { admin, organization, twoFactor } from "better-auth/plugins";
import { asc, eq, lt } from "drizzle-orm";
import { generateBackupCodes } from "@/core/auth/backup-codes";
import { passwordProblem } from "@/core/auth/password-policy";
import { plural } from "@/core/plural";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { createMailer, type Mailer } from "../mail/outbox";
import { memberLimitOf } from "../plan-limits";
import { consumeRateLimit } from "../rate-limit";
import { refuseUnsafeAccountDeletion } from "./account-deletion";
import { accountMail, EMAIL_VERIFICATION_EXPIRES_IN, RESET_PASSWORD_EXPIRES_IN } from "./account-mail";
import { accountSecurity, clientOf, clientRefusalHeaders } from "./account-security";
import { hardenAuthInput } from "./hardening";
import { enforceInviteLimit } from "./invite-limit";
import {
  DEFAULT_MAIL_LIMITS,
  limitMailPerRecipient,
  limitMailRequests,
  type MailLimits,
} from "./mail-limits";
import {
  DEFAULT_ORGANIZATIONS_PER_USER,
  keepWithinOrganizationLimit,
  organizationLimit,
} from "./organization-limit";
import { passwordHashing } from "./password-hashing";
import { auditAuthSurface, DISABLED_AUTH_PATHS, guardAuthSurface } from "./surface";
import { emailConfirmation } from "./verification";
import { passkeyUserVerification, refuseUnconfirmedSession } from "./verification-rules";

export type AuthConfig = {
  baseURL: string;
  trustedOrigins: string[];
  secret: string;
  secureCookies: boolean;
  signInLimit: number;
  signUpLimit: number;
  /** Outgoing mail (verification, reset, invitations, security notices); the outbox by default. */
  mailer?: Mailer;
  /** Organizations one account may own (ORGANIZATIONS_PER_USER); 5 by default. */
  organizationsPerUser?: number;
  /** Mail per recipient and requests for mail per client, per hour (MAIL_PER_*_LIMIT). */
  mailLimits?: MailLimits;
  /** Password hashes one client may have queued or running (AUTH_HASH_QUEUE_PER_CLIENT). */
  hashQueuePerClient?: number;
};

const SIGN_UP_WINDOW_SECONDS = 60 * 60;

// The password policy's first check builds zxcvbn's ranked dictionaries: ~170 ms of one event-loop
// turn, then under 10 ms a check. Next.js loads route modules at start (preloadEntriesOnStart), so
// doing it here moves that turn to start-up, away from the first sign-up any visitor makes.
passwordProblem("warm-up-passphrase-7", []);

async function limit(db: Db, bucket: string, subject: string, max: number, windowSeconds: number) {
  const decision = await db.transaction((tx) =>
    consumeRateLimit(tx, { bucket, limit: max, windowSeconds }, subject),
  );
  if (!decision.allowed) {
    const minutes = Math.ceil(decision.retryAfterSeconds / 60);
    throw new APIError(
      "TOO_MANY_REQUESTS",
      {
        message: `Too many attempts. Please wait ${plural(minutes, "minute")} and try again.`,
        code: "RATE_LIMITED",
      },
      // keyed on the client alone: the edge may repeat it while the database's refusal holds
      clientRefusalHeaders(decision.retryAfterSeconds, decision.holdsForMs),
    );
  }
}

/**
 * Better Auth, on our database. Email and password only; the organization plugin (owner, admin,
 * member; invitations; the active organization in the session) and the admin plugin (platform
 * roles user and admin, bans, impersonation). Its own in-memory rate limiter is off: sign-in and
 * sign-up are limited in PostgreSQL so the limits hold across restarts and instances.
 */
export function createAuth(db: Db, config: AuthConfig) {
  const mailLimits = config.mailLimits ?? DEFAULT_MAIL_LIMITS;
  const mailer = limitMailPerRecipient(db, config.mailer ?? createMailer(db), mailLimits);
  const mail = accountMail(db, mailer, config.baseURL, config.secret);
  const ownedLimit = config.organizationsPerUser ?? DEFAULT_ORGANIZATIONS_PER_USER;
  return betterAuth({
    appName: "Abacus",
    baseURL: config.baseURL,
    trustedOrigins: config.trustedOrigins,
    secret: config.secret,
    database: drizzleAdapter(db, { provider: "pg", schema }),
    telemetry: { enabled: false },
    rateLimit: { enabled: false },
    // Only what the product serves over HTTP (the rest: 404; surface.ts says which and why).
    disabledPaths: DISABLED_AUTH_PATHS,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 10,
      maxPasswordLength: 128,
      password: passwordHashing(config.hashQueuePerClient),
      // Sign-up answers the same whether or not the address has an account (./verification.ts).
      autoSignIn: false,
      // No session until the address is confirmed (the code or link of ./verification.ts).
      requireEmailVerification: true,
      onExistingUserSignUp: mail.onExistingUserSignUp,
      sendResetPassword: mail.sendResetPassword,
      resetPasswordTokenExpiresIn: RESET_PASSWORD_EXPIRES_IN,
      onPasswordReset: mail.onPasswordReset,
      revokeSessionsOnPasswordReset: true,
    },
    emailVerification: {
      // Sign-up's code and link come from ./verification.ts; Better Auth's own link only changes an
      // address, and never signs anybody in.
      sendOnSignUp: false,
      autoSignInAfterVerification: false,
      expiresIn: EMAIL_VERIFICATION_EXPIRES_IN,
      sendVerificationEmail: mail.sendVerificationEmail,
    },
    user: {
      // A new address takes effect only once confirmed from that mailbox.
      changeEmail: { enabled: true, updateEmailWithoutVerification: false },
      // Never leaves an organization without an owner or the instance without an admin.
      deleteUser: { enabled: true, beforeDelete: refuseUnsafeAccountDeletion(db) },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      // Every mail Better Auth asks for (verification, reset, email change, "you already have an
      // account") is written to the outbox after the answer, not before it: otherwise an address
      // with an account answers later than one without (one more database write), which tells an
      // attacker which addresses exist. `mailer.flush()` waits for them.
      backgroundTasks: { handler: (work) => mailer.track(work) },
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await guardAuthSurface(db, ctx); // unused endpoints, impersonation rules (surface.ts)
        hardenAuthInput(ctx); // the forms' zod rules on every endpoint that writes user/org data
        await limitMailRequests(db, ctx, mailLimits); // requests for mail, per client
        await enforceInviteLimit(db, ctx); // the plan's member cap at invite time, as the app's action
        const body = (ctx.body ?? {}) as {
          name?: unknown;
          email?: unknown;
          password?: unknown;
          newPassword?: unknown;
        };
        if (ctx.path === "/sign-up/email") {
          await limit(db, "sign-up", clientOf(ctx.headers), config.signUpLimit, SIGN_UP_WINDOW_SECONDS);
        }
        const candidate =
          ctx.path === "/sign-up/email"
            ? body.password
            : ctx.path === "/change-password" || ctx.path === "/reset-password"
              ? body.newPassword
              : undefined;
        if (typeof candidate === "string") {
          const known = [body.name, body.email].filter((v): v is string => typeof v === "string");
          const problem = passwordProblem(candidate, known);
          if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "WEAK_PASSWORD" });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        await auditAuthSurface(db, ctx); // audit rows of Better Auth's admin endpoints we use
      }),
    },
    databaseHooks: {
      verification: {
        create: {
          // A reset request for an unknown address makes Better Auth delete expired verification
          // rows (after a dummy token lookup); one for a known address inserts the token instead.
          // Doing the same cleanup after the insert gives both answers the same database work.
          after: async (row) => {
            if (row.identifier.startsWith("reset-password:")) {
              await db.delete(schema.verification).where(lt(schema.verification.expiresAt, new Date()));
            }
          },
        },
      },
      user: {
        update: {
          before: async (data, ctx) => {
            await mail.beforeUserUpdate(data, ctx ?? null);
          },
        },
      },
      session: {
        create: {
          // A new session starts in the user's first organization (Better Auth leaves it empty); an
          // account whose address is not confirmed gets none (passkeys included), impersonation aside.
          before: async (newSession) => {
            await refuseUnconfirmedSession(db, newSession);
            const [first] = await db
              .select({ organizationId: schema.member.organizationId })
              .from(schema.member)
              .where(eq(schema.member.userId, newSession.userId))
              .orderBy(asc(schema.member.createdAt))
              .limit(1);
            return { data: { ...newSession, activeOrganizationId: first?.organizationId ?? null } };
          },
        },
      },
    },
    plugins: [
      organization({
        allowUserToCreateOrganization: true,
        creatorRole: "owner",
        // How many organizations one account may own, also under concurrent creates.
        organizationLimit: organizationLimit(db, ownedLimit),
        organizationHooks: { afterCreateOrganization: keepWithinOrganizationLimit(db, ownedLimit) },
        // The plan's member limit, checked by Better Auth when an invitation is accepted.
        membershipLimit: (_user, org) => memberLimitOf(db, org.id),
        invitationExpiresIn: 60 * 60 * 24 * 7,
        cancelPendingInvitationsOnReInvite: true,
        // Only the verified owner of the invited address can accept.
        requireEmailVerificationOnInvitation: true,
        async sendInvitationEmail(data) {
          await mail.sendInvitation(data.email, {
            organizationName: data.organization.name,
            inviterName: data.inviter.user.name,
            link: invitationLink(config.baseURL, data.id),
          });
        },
      }),
      admin({ defaultRole: "user", adminRoles: ["admin"], impersonationSessionDuration: 60 * 60 }),
      accountSecurity(db, {
        clientFailureLimit: config.signInLimit,
        mailer,
        origin: config.baseURL,
        secret: config.secret,
      }),
      emailConfirmation(db, { mailer, origin: config.baseURL, secret: config.secret }),
      twoFactor({
        issuer: "Abacus",
        skipVerificationOnEnable: false,
        // Upper case without look-alikes (the plugin's own mix cases and uses 0/O, 1/l/I).
        backupCodeOptions: { customBackupCodesGenerate: () => generateBackupCodes() },
      }),
      // WebAuthn bound to this instance's origin (never to whatever Origin a request claims), and
      // only with the authenticator's user verification (PIN, biometrics), not mere presence.
      passkey({
        rpName: "Abacus",
        rpID: new URL(config.baseURL).hostname,
        origin: new URL(config.baseURL).origin,
        ...passkeyUserVerification,
      }),
      nextCookies(),
    ],
  });
}

export function invitationLink(baseURL: string, invitationId: string): string {
  return new URL(`/onboarding?invitation=${encodeURIComponent(invitationId)}`, baseURL).toString();
}

export type Auth = ReturnType<typeof createAuth>;
