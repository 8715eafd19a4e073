"use server";

import { and, eq } from "drizzle-orm";
import { type ActionResult, action } from "@/server/action";
import { appOrigin } from "@/server/auth";
import { invitationLink } from "@/server/auth/auth";
import { MANAGER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { invitation, member, organization } from "@/server/db/schema";
import {
  createOrgSchema,
  deleteOrgSchema,
  idSchema,
  inviteSchema,
  memberRoleSchema,
  switchSchema,
  updateOrgSchema,
} from "./schemas";
import { SLUG_TAKEN, viaAuth } from "./service";

const orgMessages = {
  ORGANIZATION_ALREADY_EXISTS: SLUG_TAKEN,
  ORGANIZATION_SLUG_ALREADY_TAKEN: SLUG_TAKEN,
  SLUG_IS_TAKEN: SLUG_TAKEN,
};

async function slugTaken(slug: string, exceptId?: string) {
  const [row] = await getDb()
    .select({ id: organization.id })
    .from(organization)
    .where(eq(organization.slug, slug));
  return !!row && row.id !== exceptId;
}

export const switchOrganizationAction = action({ kind: "user" }, switchSchema, async ({ viewer, input }) => {
  const [membership] = await getDb()
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.userId, viewer.user.id), eq(member.organizationId, input.organizationId)));
  if (!membership) return { ok: false, error: "You are not a member of that organization." };
  const result = await viaAuth((auth, headers) =>
    auth.api.setActiveOrganization({ headers, body: { organizationId: input.organizationId } }),
  );
  return result.ok ? { ok: true, data: undefined } : result;
});

export const createOrganizationAction = action({ kind: "user" }, createOrgSchema, async ({ input }) => {
  if (await slugTaken(input.slug)) return { ok: false, error: SLUG_TAKEN, fieldErrors: { slug: SLUG_TAKEN } };
  const result = await viaAuth(
    (auth, headers) => auth.api.createOrganization({ headers, body: { name: input.name, slug: input.slug } }),
    orgMessages,
  );
  if (!result.ok) return result;
  return { ok: true, data: { id: result.data?.id ?? "" } };
});

export const updateOrganizationAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  updateOrgSchema,
  async ({ viewer, input }) => {
    if (await slugTaken(input.slug, viewer.org.id)) {
      return { ok: false, error: SLUG_TAKEN, fieldErrors: { slug: SLUG_TAKEN } };
    }
    const result = await viaAuth(
      (auth, headers) =>
        auth.api.updateOrganization({
          headers,
          body: { organizationId: viewer.org.id, data: { name: input.name, slug: input.slug } },
        }),
      orgMessages,
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

export const inviteMemberAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  inviteSchema,
  async ({ viewer, input }): Promise<ActionResult<{ link: string }>> => {
    if (input.role === "owner" && viewer.memberRole !== "owner") {
      return {
        ok: false,
        error: "Only an owner can invite another owner.",
        fieldErrors: { role: "Only an owner can invite another owner." },
      };
    }
    const result = await viaAuth(
      (auth, headers) =>
        auth.api.createInvitation({
          headers,
          body: { email: input.email, role: input.role, organizationId: viewer.org.id, resend: true },
        }),
      {
        USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "That person is already a member.",
        USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "That person already has a pending invitation.",
      },
    );
    if (!result.ok) return { ...result, fieldErrors: { email: result.error } };
    const id = (result.data as { id?: string } | null)?.id;
    if (!id) return { ok: false, error: "The invitation could not be created." };
    return { ok: true, data: { link: invitationLink(appOrigin(), id) } };
  },
);

export const cancelInvitationAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  idSchema,
  async ({ viewer, input }) => {
    const [row] = await getDb()
      .select({ id: invitation.id })
      .from(invitation)
      .where(and(eq(invitation.id, input.id), eq(invitation.organizationId, viewer.org.id)));
    if (!row) return { ok: false, error: "That invitation no longer exists." };
    const result = await viaAuth((auth, headers) =>
      auth.api.cancelInvitation({ headers, body: { invitationId: input.id } }),
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

export const updateMemberRoleAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  memberRoleSchema,
  async ({ viewer, input }) => {
    const [target] = await getDb()
      .select({ role: member.role, userId: member.userId })
      .from(member)
      .where(and(eq(member.id, input.memberId), eq(member.organizationId, viewer.org.id)));
    if (!target) return { ok: false, error: "That member is no longer in this organization." };
    if ((target.role === "owner" || input.role === "owner") && viewer.memberRole !== "owner") {
      return { ok: false, error: "Only an owner can make or unmake an owner." };
    }
    const result = await viaAuth(
      (auth, headers) =>
        auth.api.updateMemberRole({
          headers,
          body: { memberId: input.memberId, role: input.role, organizationId: viewer.org.id },
        }),
      { YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: "The organization needs at least one owner." },
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

export const removeMemberAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  idSchema,
  async ({ viewer, input }) => {
    const [target] = await getDb()
      .select({ role: member.role, userId: member.userId })
      .from(member)
      .where(and(eq(member.id, input.id), eq(member.organizationId, viewer.org.id)));
    if (!target) return { ok: false, error: "That member is no longer in this organization." };
    if (target.userId === viewer.user.id)
      return { ok: false, error: "To remove yourself, leave the organization." };
    if (target.role === "owner" && viewer.memberRole !== "owner") {
      return { ok: false, error: "Only an owner can remove an owner." };
    }
    const result = await viaAuth((auth, headers) =>
      auth.api.removeMember({ headers, body: { memberIdOrEmail: input.id, organizationId: viewer.org.id } }),
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

export const leaveOrganizationAction = action(
  { kind: "org", roles: ["owner", "admin", "member"] },
  deleteOrgSchema.partial(),
  async ({ viewer }) => {
    const result = await viaAuth(
      (auth, headers) => auth.api.leaveOrganization({ headers, body: { organizationId: viewer.org.id } }),
      {
        YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER:
          "You are the only owner. Make someone else an owner first, or delete the organization.",
        YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER:
          "You are the only owner. Make someone else an owner first, or delete the organization.",
      },
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

export const deleteOrganizationAction = action(
  { kind: "org", roles: ["owner"] },
  deleteOrgSchema,
  async ({ viewer, input }) => {
    if (input.confirm !== viewer.org.slug) {
      return {
        ok: false,
        error: `Type ${viewer.org.slug} to confirm.`,
        fieldErrors: { confirm: `Type ${viewer.org.slug} to confirm.` },
      };
    }
    const result = await viaAuth((auth, headers) =>
      auth.api.deleteOrganization({ headers, body: { organizationId: viewer.org.id } }),
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);
