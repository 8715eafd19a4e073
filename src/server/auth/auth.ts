import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { admin, organization } from "better-auth/plugins";
import { asc, eq } from "drizzle-orm";
import { passwordProblem } from "@/core/auth/password-policy";
import { hashClient } from "../client-identity";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { memberLimitOf } from "../plan-limits";
import { consumeRateLimit } from "../rate-limit";

export type AuthConfig = {
  baseURL: string;
  trustedOrigins: string[];
  secret: string;
  secureCookies: boolean;
  signInLimit: number;
  signUpLimit: number;
  sendInvitationEmail?: (invite: {
    email: string;
    organizationName: string;
    inviterName: string;
    link: string;
  }) => Promise<void>;
};

const SIGN_IN_WINDOW_SECONDS = 10 * 60;
const SIGN_UP_WINDOW_SECONDS = 60 * 60;

function clientOf(headers: Headers | undefined): string {
  return hashClient(headers?.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown");
}

async function limit(db: Db, bucket: string, subject: string, max: number, windowSeconds: number) {
  const decision = await db.transaction((tx) =>
    consumeRateLimit(tx, { bucket, limit: max, windowSeconds }, subject),
  );
  if (!decision.allowed) {
    const minutes = Math.ceil(decision.retryAfterSeconds / 60);
    throw new APIError("TOO_MANY_REQUESTS", {
      message: `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      code: "RATE_LIMITED",
    });
  }
}

/**
 * Better Auth, on our database. Email and password only; the organization plugin (owner, admin,
 * member; invitations; the active organization in the session) and the admin plugin (platform
 * roles user and admin, bans, impersonation). Its own in-memory rate limiter is off: sign-in and
 * sign-up are limited in PostgreSQL so the limits hold across restarts and instances.
 */
export function createAuth(db: Db, config: AuthConfig) {
  return betterAuth({
    appName: "Abacus",
    baseURL: config.baseURL,
    trustedOrigins: config.trustedOrigins,
    secret: config.secret,
    database: drizzleAdapter(db, { provider: "pg", schema }),
    telemetry: { enabled: false },
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 10,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
    },
    user: {
      changeEmail: { enabled: true, updateEmailWithoutVerification: true },
      deleteUser: { enabled: true },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as { email?: unknown; password?: unknown; newPassword?: unknown };
        if (ctx.path === "/sign-in/email") {
          await limit(db, "sign-in", clientOf(ctx.headers), config.signInLimit, SIGN_IN_WINDOW_SECONDS);
          if (typeof body.email === "string") {
            // Also per account, so spreading guesses over many addresses does not help.
            const key = `email:${body.email.trim().toLowerCase()}`;
            await limit(db, "sign-in-account", key, config.signInLimit, SIGN_IN_WINDOW_SECONDS);
          }
        }
        if (ctx.path === "/sign-up/email") {
          await limit(db, "sign-up", clientOf(ctx.headers), config.signUpLimit, SIGN_UP_WINDOW_SECONDS);
        }
        const candidate =
          ctx.path === "/sign-up/email"
            ? body.password
            : ctx.path === "/change-password"
              ? body.newPassword
              : undefined;
        if (typeof candidate === "string") {
          const problem = passwordProblem(candidate);
          if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "WEAK_PASSWORD" });
        }
      }),
    },
    databaseHooks: {
      session: {
        create: {
          // A new session starts in the user's first organization (Better Auth leaves it empty).
          before: async (newSession) => {
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
        // The plan's member limit, checked by Better Auth when an invitation is accepted.
        membershipLimit: (_user, org) => memberLimitOf(db, org.id),
        invitationExpiresIn: 60 * 60 * 24 * 7,
        cancelPendingInvitationsOnReInvite: true,
        requireEmailVerificationOnInvitation: false,
        async sendInvitationEmail(data) {
          if (!config.sendInvitationEmail) return;
          await config.sendInvitationEmail({
            email: data.email,
            organizationName: data.organization.name,
            inviterName: data.inviter.user.name,
            link: invitationLink(config.baseURL, data.id),
          });
        },
      }),
      admin({ defaultRole: "user", adminRoles: ["admin"], impersonationSessionDuration: 60 * 60 }),
      nextCookies(),
    ],
  });
}

export function invitationLink(baseURL: string, invitationId: string): string {
  return new URL(`/onboarding?invitation=${encodeURIComponent(invitationId)}`, baseURL).toString();
}

export type Auth = ReturnType<typeof createAuth>;
