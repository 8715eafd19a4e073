"use server";

import { and, eq } from "drizzle-orm";
import { MANAGER_ROLES, MEMBER_ROLES } from "@/core/auth/roles";
import { type ActionResult, action } from "@/server/action";
import { appOrigin } from "@/server/auth";
import {
  createOrganization,
  ORGANIZATION_SLUG_MESSAGES,
  SLUG_TAKEN,
  slugTaken,
  viaAuth,
} from "@/server/auth/adapter";
import { invitationLink } from "@/server/auth/auth";
import { getDb } from "@/server/db/client";
import { invitation, member } from "@/server/db/schema";
import { memberLimitProblem } from "@/server/plan-limits";
import {
  createOrgSchema,
  deleteOrgSchema,
  idSchema,
  inviteSchema,
  memberRoleSchema,
  preferencesSchema,
  updateOrgSchema,
} from "./schemas";
import { savePreferences } from "./server/preferences";

export const createOrganizationAction = action({ kind: "user" }, createOrgSchema, async ({ input }) =>
  createOrganization(getDb(), input),
);

export const updateOrganizationAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  updateOrgSchema,
  async ({ viewer, input }) => {
    if (await slugTaken(getDb(), input.slug, viewer.org.id)) {
      return { ok: false, error: SLUG_TAKEN, fieldErrors: { slug: SLUG_TAKEN } };
    }
    const result = await viaAuth(
      (auth, headers) =>
        auth.api.updateOrganization({
          headers,
          body: { organizationId: viewer.org.id, data: { name: input.name, slug: input.slug } },
        }),
      ORGANIZATION_SLUG_MESSAGES,
    );
    return result.ok ? { ok: true, data: undefined } : result;
  },
);

/** The calculator defaults of the organization: its owners and admins change them. */
export const updatePreferencesAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  preferencesSchema,
  async ({ viewer, input }) => {
    await savePreferences(getDb(), viewer.org.id, input);
    return { ok: true, data: undefined };
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
    const full = await memberLimitProblem(getDb(), viewer.org.id, { countPending: true });
    if (full) return { ok: false, error: full, fieldErrors: { email: full } };
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
  { kind: "org", roles: MEMBER_ROLES },
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
