import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { getDb } from "@/server/db/client";
import { invitation, organization, user } from "@/server/db/schema";

export type InvitationPreview =
  | { status: "valid"; organizationName: string; inviterName: string }
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
 * What an invitation link may tell someone who is not signed in yet: the organization's name and
 * who invited them, and only while the invitation is pending and unexpired. The link itself is
 * the secret (a random id sent to the invitee); nothing else about the organization, and not the
 * address it was sent to, is shown.
 */
export async function previewInvitation(id: string): Promise<InvitationPreview> {
  const [row] = await getDb()
    .select({ organizationName: organization.name, inviterName: user.name })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .where(
      and(eq(invitation.id, id), eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())),
    );
  return row ? { status: "valid", ...row } : { status: "invalid" };
}
