import "server-only";
import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";

/**
 * No session for an account whose address is not confirmed, whatever created it (password, passkey,
 * a second factor); an administrator's impersonation session is the one exception.
 */
export async function refuseUnconfirmedSession(
  db: Db,
  newSession: { userId: string; impersonatedBy?: string | null },
) {
  if (newSession.impersonatedBy) return;
  const [row] = await db
    .select({ verified: user.emailVerified })
    .from(user)
    .where(eq(user.id, newSession.userId));
  if (row && !row.verified) {
    throw new APIError("FORBIDDEN", {
      message: "Confirm your email address first.",
      code: "EMAIL_NOT_VERIFIED",
    });
  }
}

const userVerificationMissing = () =>
  new APIError("BAD_REQUEST", {
    message: "Your device did not verify you (PIN, fingerprint or face). Passkeys need it here.",
    code: "USER_VERIFICATION_REQUIRED",
  });

/**
 * The passkey plugin verifies with `requireUserVerification: false` (a tap proves presence, not who
 * tapped); these options ask authenticators for user verification and refuse responses without it.
 */
export const passkeyUserVerification = {
  authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  registration: {
    afterVerification: ({
      verification,
    }: {
      verification: { registrationInfo?: { userVerified?: boolean } };
    }) => {
      if (!verification.registrationInfo?.userVerified) throw userVerificationMissing();
    },
  },
  authentication: {
    afterVerification: ({
      verification,
    }: {
      verification: { authenticationInfo?: { userVerified?: boolean } };
    }) => {
      if (!verification.authenticationInfo?.userVerified) throw userVerificationMissing();
    },
  },
} as const;
