import { MANAGER_ROLES, type MemberRole } from "../auth/roles";

/**
 * The onboarding flow as a small state machine. The user's current step is stored on the server;
 * finishing a step moves forward one, Back moves to the previous step, and no step can be skipped.
 */
export const ONBOARDING_STEPS = ["profile", "organization", "preferences", "plan"] as const;
/** A step the user completes (every step but the final "done"). */
export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number];
export type OnboardingStep = OnboardingStepName | "done";

export const STEP_TITLES: Record<(typeof ONBOARDING_STEPS)[number], string> = {
  profile: "Your profile",
  organization: "Your organization",
  preferences: "Preferences",
  plan: "Choose a plan",
};

/**
 * Steps only an organization's owners and admins act on. A plain member's would be read-only (the
 * organization's defaults and plan are theirs to see, not to set), so members skip them.
 */
export const MANAGER_ONLY_STEPS: readonly OnboardingStepName[] = ["preferences", "plan"];

/** The steps a person goes through, given their role in the organization they are in (if any yet). */
export function stepsFor(role: MemberRole | null): readonly OnboardingStepName[] {
  return role === null || MANAGER_ROLES.includes(role)
    ? ONBOARDING_STEPS
    : ONBOARDING_STEPS.filter((s) => !MANAGER_ONLY_STEPS.includes(s));
}

export function stepNumber(step: OnboardingStep): number {
  return step === "done" ? ONBOARDING_STEPS.length + 1 : ONBOARDING_STEPS.indexOf(step) + 1;
}

/**
 * The step after finishing `completed`, given where the user is now (never moves backwards) and
 * their role in their organization (a member skips the steps only managers act on).
 */
export function afterCompleting(
  current: OnboardingStep,
  completed: (typeof ONBOARDING_STEPS)[number],
  role: MemberRole | null = null,
): OnboardingStep {
  const steps = stepsFor(role);
  const next: OnboardingStep = steps.find((s) => stepNumber(s) > stepNumber(completed)) ?? "done";
  return stepNumber(next) > stepNumber(current) ? next : current;
}

/** Whether the user may complete `step` now: only the current step, or one already passed. */
export function canComplete(current: OnboardingStep, step: (typeof ONBOARDING_STEPS)[number]): boolean {
  return current !== "done" && stepNumber(step) <= stepNumber(current);
}

export function previousStep(current: OnboardingStep): OnboardingStep | null {
  if (current === "done") return null;
  const index = ONBOARDING_STEPS.indexOf(current);
  return index > 0 ? (ONBOARDING_STEPS[index - 1] ?? null) : null;
}
