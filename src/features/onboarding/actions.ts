"use server";

import { eq } from "drizzle-orm";
import { cookies } from "next/headers";
import { z } from "zod";
import { type MemberRole, memberRoleOf } from "@/core/auth/roles";
import { PLAN_CHOICE_COOKIE } from "@/core/billing/plan-choice";
import type { OnboardingStepName } from "@/core/onboarding/steps";
import { createOrgSchema } from "@/core/organizations/fields";
import { type ActionResult, action } from "@/server/action";
import { createOrganization, viaAuth } from "@/server/auth/adapter";
import { loadMembership } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { invitation, member, organization, user } from "@/server/db/schema";
import { memberLimitProblem } from "@/server/plan-limits";
import { invitationIdSchema, planChoiceSchema, preferencesSchema, profileSchema } from "./schemas";
import { completeStep, goBack, savePreferences } from "./service";

const onboarding = { kind: "user", allowOnboarding: true } as const;
type StepResult = ActionResult<{ step: string }>;

async function advance(
  userId: string,
  step: OnboardingStepName,
  role: MemberRole | null = null,
): Promise<StepResult> {
  const result = await completeStep(getDb(), userId, step, role);
  return result.ok ? { ok: true, data: { step: result.step } } : result;
}

export const saveProfileAction = action(onboarding, profileSchema, async ({ viewer, input }) => {
  await getDb()
    .update(user)
    .set({ name: input.name, updatedAt: new Date() })
    .where(eq(user.id, viewer.user.id));
  return advance(viewer.user.id, "profile");
});

export const createOrganizationStepAction = action(onboarding, createOrgSchema, async ({ viewer, input }) => {
  const created = await createOrganization(getDb(), input);
  if (!created.ok) return created;
  return advance(viewer.user.id, "organization");
});

// Only the confirmed owner of the invited address may join (Better Auth checks it too).
const verifiedOnboarding = { ...onboarding, verifiedEmail: true } as const;

export const acceptInvitationAction = action(
  verifiedOnboarding,
  invitationIdSchema,
  async ({ viewer, input }) => {
    const [invited] = await getDb()
      .select({ organizationId: invitation.organizationId, role: invitation.role })
      .from(invitation)
      .where(eq(invitation.id, input.invitationId));
    if (invited) {
      const full = await memberLimitProblem(getDb(), invited.organizationId, { countPending: false });
      if (full) return { ok: false, error: `${full} Ask the organization's owner to upgrade.` };
    }
    const accepted = await viaAuth(
      (auth, headers) => auth.api.acceptInvitation({ headers, body: { invitationId: input.invitationId } }),
      {
        EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
          "Confirm your email address first: open the link we sent you.",
        YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION:
          "This invitation was sent to another email address. Sign in with that address to accept it.",
        INVITATION_NOT_FOUND: "This invitation has expired, was cancelled or was already used.",
        ORGANIZATION_MEMBERSHIP_LIMIT_REACHED:
          "This organization has as many members as its plan allows. Ask its owner to upgrade the plan.",
      },
    );
    if (!accepted.ok) return accepted;
    const orgId = (accepted.data as { invitation?: { organizationId?: string } } | null)?.invitation
      ?.organizationId;
    if (orgId) {
      await viaAuth((auth, headers) =>
        auth.api.setActiveOrganization({ headers, body: { organizationId: orgId } }),
      );
    }
    if (viewer.user.onboardingStep === "done") return { ok: true, data: { step: "done" } };
    // A member joined an organization someone else set up: its defaults and plan are not theirs
    // to choose, so onboarding ends here for them.
    return advance(viewer.user.id, "organization", memberRoleOf(invited?.role));
  },
);

/** Step 2 for a user who already belongs to an organization (e.g. after going Back). */
export const keepOrganizationAction = action(onboarding, z.object({}), async ({ viewer }) => {
  const [row] = await getDb()
    .select({ id: member.id })
    .from(member)
    .where(eq(member.userId, viewer.user.id))
    .limit(1);
  if (!row) return { ok: false, error: "Create an organization or accept an invitation first." };
  const membership = await loadMembership(getDb(), viewer.user.id, viewer.activeOrganizationId);
  return advance(viewer.user.id, "organization", membership?.memberRole ?? null);
});

export const savePreferencesAction = action(onboarding, preferencesSchema, async ({ viewer, input }) => {
  const membership = await loadMembership(getDb(), viewer.user.id, viewer.activeOrganizationId);
  if (!membership) return { ok: false, error: "Create or join an organization first." };
  // Preferences belong to the organization: its owners and admins set them; members move on.
  if (membership.memberRole !== "member") await savePreferences(getDb(), membership.org.id, input);
  return advance(viewer.user.id, "preferences", membership.memberRole);
});

export const choosePlanAction = action(
  onboarding,
  planChoiceSchema,
  async ({ viewer, input }): Promise<ActionResult<{ step: string; redirectTo: string }>> => {
    const membership = await loadMembership(getDb(), viewer.user.id, viewer.activeOrganizationId);
    if (!membership) return { ok: false, error: "Create or join an organization first." };
    const done = await advance(viewer.user.id, "plan");
    if (!done.ok) return done;
    // The pricing page's choice has been offered: it is not offered again.
    (await cookies()).delete(PLAN_CHOICE_COOKIE);
    if (input.plan === "free" || membership.memberRole === "member") {
      return { ok: true, data: { step: done.data.step, redirectTo: "/dashboard" } };
    }
    const [prefs] = await getDb()
      .select({ currency: organization.defaultCurrency })
      .from(organization)
      .where(eq(organization.id, membership.org.id));
    const query = new URLSearchParams({
      plan: input.plan,
      interval: input.interval,
      currency: input.currency ?? prefs?.currency ?? "USD",
    });
    return { ok: true, data: { step: done.data.step, redirectTo: `/checkout?${query}` } };
  },
);

export const backAction = action(onboarding, z.object({}), async ({ viewer }): Promise<StepResult> => {
  const step = await goBack(getDb(), viewer.user.id);
  return { ok: true, data: { step: step ?? "profile" } };
});
