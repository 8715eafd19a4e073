import "server-only";
import { and, eq, gt, sql } from "drizzle-orm";
import { getDb } from "@/server/db/client";
import { invitation, organization, user } from "@/server/db/schema";

export type InvitationPreview =
  | {
      status: "valid";
      organizationName: string;
      inviterName: string;
      /** The address the invitation was sent to (only it can accept). */
      email: string;
      /** Whether an account with that address exists: sign in, or else sign up. */
      hasAccount: boolean;
    }
  | { status: "invalid" };

const BASE = "https://abacus.invalid";

/** The invitation id in a post-sign-in target like `/onboarding?invitation=…`, if it is one. */
export function invitationIdIn(target: string): string | null {
  const url = new URL(target, BASE);
  if (url.pathname !== "/onboarding") return null;
  const id = url.searchParams.get("invitation");
  return id && id.length <= 200 ? id : null;
}

/**
 * What an invitation link may tell someone who is not signed in yet: the organization's name, who
 * invited them, the address it was sent to and whether that address has an account (so the link
 * leads to sign-up or sign-in with it filled in), and only while the invitation is pending and
 * unexpired. The link itself is the secret (a random id mailed to that address); nothing else about
 * the organization is shown.
 */
export async function previewInvitation(id: string): Promise<InvitationPreview> {
  const db = getDb();
  const [row] = await db
    .select({ organizationName: organization.name, inviterName: user.name, email: invitation.email })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .where(
      and(eq(invitation.id, id), eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())),
    );
  if (!row) return { status: "invalid" };
  const [account] = await db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = lower(${row.email})`)
    .limit(1);
  return { status: "valid", ...row, hasAccount: account !== undefined };
}
