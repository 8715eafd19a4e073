import "server-only";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { MemberRole } from "@/core/auth/roles";
import {
  afterCompleting,
  canComplete,
  type ONBOARDING_STEPS,
  type OnboardingStep,
  previousStep,
} from "@/core/onboarding/steps";
import type { Db } from "@/server/db/client";
import { invitation, organization, user } from "@/server/db/schema";

type Step = (typeof ONBOARDING_STEPS)[number];

export async function currentStep(db: Db, userId: string): Promise<OnboardingStep | null> {
  const [row] = await db.select({ step: user.onboardingStep }).from(user).where(eq(user.id, userId));
  return row?.step ?? null;
}

/**
 * Marks `step` complete and moves the user on (past the steps their role in their organization
 * does not act on). The update is conditional on the step read, so two
 * tabs finishing the same step at once cannot skip one.
 */
export async function completeStep(
  db: Db,
  userId: string,
  step: Step,
  role: MemberRole | null = null,
): Promise<{ ok: true; step: OnboardingStep } | { ok: false; error: string }> {
  const current = await currentStep(db, userId);
  if (!current) return { ok: false, error: "Your account no longer exists." };
  if (!canComplete(current, step)) {
    return {
      ok: false,
      error: current === "done" ? "You have already finished setting up." : "Finish the earlier steps first.",
    };
  }
  const next = afterCompleting(current, step, role);
  await db
    .update(user)
    .set({ onboardingStep: next, updatedAt: new Date() })
    .where(and(eq(user.id, userId), eq(user.onboardingStep, current)));
  return { ok: true, step: (await currentStep(db, userId)) ?? next };
}

export async function goBack(db: Db, userId: string): Promise<OnboardingStep | null> {
  const current = await currentStep(db, userId);
  const previous = current ? previousStep(current) : null;
  if (!current || !previous) return current;
  await db
    .update(user)
    .set({ onboardingStep: previous })
    .where(and(eq(user.id, userId), eq(user.onboardingStep, current)));
  return previous;
}

export type PendingInvitation = {
  id: string;
  organizationName: string;
  role: string;
  inviterName: string;
  expiresAt: Date;
};

/** Pending, unexpired invitations addressed to this email. */
export async function pendingInvitationsFor(db: Db, email: string): Promise<PendingInvitation[]> {
  return db
    .select({
      id: invitation.id,
      organizationName: organization.name,
      role: sql<string>`coalesce(${invitation.role}, 'member')`,
      inviterName: user.name,
      expiresAt: invitation.expiresAt,
    })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .where(
      and(
        sql`lower(${invitation.email}) = lower(${email})`,
        eq(invitation.status, "pending"),
        gt(invitation.expiresAt, new Date()),
      ),
    )
    .orderBy(asc(invitation.createdAt));
}

export {
  type OrgPreferences,
  organizationPreferences,
  savePreferences,
} from "@/features/organizations/server";
