import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";
import type { Mailer } from "../mail/outbox";
import { mailTemplates } from "../mail/templates";
import { recordSecurityEvent } from "./security-events";
import { mailDetachedConfirmation, removeUnprovenFactors } from "./verification";

export const RESET_PASSWORD_EXPIRES_IN = 60 * 60;
export { EMAIL_VERIFICATION_EXPIRES_IN } from "./verification";

export function resetPasswordLink(origin: string, token: string): string {
  return new URL(`/sign-in/reset-password?token=${encodeURIComponent(token)}`, origin).toString();
}

/**
 * The mail Better Auth asks us to send, and the account changes we tell the user about. Wired
 * into the configuration in ./auth.ts; every message goes through the outbox.
 */
export function accountMail(db: Db, mailer: Mailer, origin: string, secret: string) {
  const currentEmail = async (userId: string) =>
    (await db.select({ email: user.email }).from(user).where(eq(user.id, userId)))[0]?.email;

  return {
    /**
     * Confirmation of a new address when the email is being changed (Better Auth's link). Asked for an
     * unconfirmed account's own address (send-verification-email), it mails our code and link instead
     * (./verification.ts), which confirm but never sign anybody in.
     */
    async sendVerificationEmail(data: { user: { id: string; email: string }; url: string }) {
      const stored = await currentEmail(data.user.id);
      const changing = stored !== undefined && stored.toLowerCase() !== data.user.email.toLowerCase();
      if (changing) {
        await mailer.send(data.user.email, mailTemplates.changeEmail(origin, data.url, data.user.email));
        return;
      }
      await mailDetachedConfirmation(
        db,
        { mailer, origin, secret },
        { userId: data.user.id, email: data.user.email },
      );
    },
    /**
     * Sign-up with an address that already has a confirmed account: the answer is the same, the mail
     * says why. An unconfirmed one gets a new code instead (./verification.ts).
     */
    async onExistingUserSignUp(data: { user: { email: string; emailVerified: boolean } }) {
      if (!data.user.emailVerified) return;
      await mailer.send(data.user.email, mailTemplates.accountExists(origin));
    },
    async sendResetPassword(data: { user: { email: string }; token: string }) {
      await mailer.send(
        data.user.email,
        mailTemplates.resetPassword(origin, resetPasswordLink(origin, data.token)),
      );
    },
    /**
     * A reset through the mailbox proves the address. On an unconfirmed account it confirms it, and
     * whatever was set up before (two-factor, passkeys; the sessions Better Auth revokes anyway) is
     * removed: it may be someone else's who signed up with this address first.
     */
    async onPasswordReset(data: { user: { id: string; emailVerified?: boolean } }, request?: Request) {
      let removed: string | null = null;
      if (data.user.emailVerified === false) {
        const found = await db.transaction(async (tx) => {
          const factors = await removeUnprovenFactors(tx, data.user.id);
          await tx.update(user).set({ emailVerified: true }).where(eq(user.id, data.user.id));
          return factors;
        });
        const parts = [
          found.twoFactor ? "two-factor authentication" : null,
          found.passkeys ? `${found.passkeys} passkey${found.passkeys === 1 ? "" : "s"}` : null,
        ].filter((p): p is string => p !== null);
        removed = parts.length ? parts.join(" and ") : null;
      }
      await recordSecurityEvent(db, mailer, origin, {
        userId: data.user.id,
        kind: "password-reset",
        detail: removed
          ? `Every device was signed out, and ${removed} set up before your address was confirmed ${removed.includes(" and ") || removed.endsWith("s") ? "were" : "was"} removed.`
          : "Every device was signed out.",
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
