import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";
import type { Mailer } from "../mail/outbox";
import { mailTemplates } from "../mail/templates";
import { recordSecurityEvent } from "./security-events";

export const RESET_PASSWORD_EXPIRES_IN = 60 * 60;
export const EMAIL_VERIFICATION_EXPIRES_IN = 60 * 60 * 24;

export function resetPasswordLink(origin: string, token: string): string {
  return new URL(`/sign-in/reset-password?token=${encodeURIComponent(token)}`, origin).toString();
}

/**
 * The mail Better Auth asks us to send, and the account changes we tell the user about. Wired
 * into the configuration in ./auth.ts; every message goes through the outbox.
 */
export function accountMail(db: Db, mailer: Mailer, origin: string) {
  const currentEmail = async (userId: string) =>
    (await db.select({ email: user.email }).from(user).where(eq(user.id, userId)))[0]?.email;

  return {
    /** Sign-up verification, and confirmation of a new address when the email is being changed. */
    async sendVerificationEmail(data: { user: { id: string; email: string }; url: string }) {
      const stored = await currentEmail(data.user.id);
      const changing = stored !== undefined && stored.toLowerCase() !== data.user.email.toLowerCase();
      await mailer.send(
        data.user.email,
        changing
          ? mailTemplates.changeEmail(origin, data.url, data.user.email)
          : mailTemplates.verifyEmail(origin, data.url),
      );
    },
    /** Sign-up with an address that already has an account: the answer is the same, the mail says why. */
    async onExistingUserSignUp(data: { user: { email: string } }) {
      await mailer.send(data.user.email, mailTemplates.accountExists(origin));
    },
    async sendResetPassword(data: { user: { email: string }; token: string }) {
      await mailer.send(
        data.user.email,
        mailTemplates.resetPassword(origin, resetPasswordLink(origin, data.token)),
      );
    },
    async onPasswordReset(data: { user: { id: string } }, request?: Request) {
      await recordSecurityEvent(db, mailer, origin, {
        userId: data.user.id,
        kind: "password-reset",
        detail: "Every device was signed out.",
        userAgent: request?.headers.get("user-agent"),
      });
    },
    async sendInvitation(
      to: string,
      invite: { inviterName: string; organizationName: string; link: string },
    ) {
      await mailer.send(to, mailTemplates.invitation(origin, invite));
    },
    /**
     * Before Better Auth updates a user: email and two-factor changes become security events. The
     * update hook is not told which user, so the user comes from the session (two-factor settings)
     * or from the already-verified email-change token (/verify-email, possibly signed out).
     */
    async beforeUserUpdate(
      data: { email?: unknown; twoFactorEnabled?: unknown },
      ctx: { path?: string; query?: unknown; context?: { session?: { user: { id: string } } | null } } | null,
    ) {
      if (typeof data.email === "string") {
        const token = (ctx?.query as { token?: unknown } | undefined)?.token;
        const oldEmail =
          ctx?.path === "/verify-email" && typeof token === "string" ? tokenEmail(token) : null;
        if (oldEmail && oldEmail.toLowerCase() !== data.email.toLowerCase()) {
          const [row] = await db
            .select({ id: user.id })
            .from(user)
            .where(eq(user.email, oldEmail.toLowerCase()));
          if (row) {
            await recordSecurityEvent(db, mailer, origin, {
              userId: row.id,
              kind: "email-changed",
              detail: `The account's address is now ${data.email}.`,
              notifyEmail: oldEmail,
            });
          }
        }
      }
      const userId = ctx?.context?.session?.user.id;
      if (typeof data.twoFactorEnabled === "boolean" && userId) {
        const [row] = await db
          .select({ twoFactorEnabled: user.twoFactorEnabled })
          .from(user)
          .where(eq(user.id, userId));
        if (row && row.twoFactorEnabled !== data.twoFactorEnabled) {
          await recordSecurityEvent(db, mailer, origin, {
            userId,
            kind: data.twoFactorEnabled ? "two-factor-enabled" : "two-factor-disabled",
          });
        }
      }
    },
  };
}

/** The `email` claim of a Better Auth email token (already verified by Better Auth when we read it). */
function tokenEmail(token: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      email?: unknown;
      updateTo?: unknown;
    };
    return typeof payload.email === "string" && typeof payload.updateTo === "string" ? payload.email : null;
  } catch {
    return null;
  }
}
