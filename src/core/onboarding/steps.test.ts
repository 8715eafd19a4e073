import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  afterCompleting,
  canComplete,
  ONBOARDING_STEPS,
  type OnboardingStep,
  previousStep,
  stepNumber,
  stepsFor,
} from "./steps";

describe("onboarding steps", () => {
  it("walks profile → organization → preferences → plan → done", () => {
    let step: OnboardingStep = "profile";
    const seen: OnboardingStep[] = [step];
    for (const s of ONBOARDING_STEPS) {
      step = afterCompleting(step, s);
      seen.push(step);
    }
    expect(seen).toEqual(["profile", "organization", "preferences", "plan", "done"]);
  });

  it("a member who joined an organization skips the steps only managers act on", () => {
    expect(stepsFor("member")).toEqual(["profile", "organization"]);
    expect(stepsFor("admin")).toEqual(ONBOARDING_STEPS);
    expect(stepsFor(null)).toEqual(ONBOARDING_STEPS);
    expect(afterCompleting("organization", "organization", "member")).toBe("done");
    expect(afterCompleting("organization", "organization", "owner")).toBe("preferences");
    // a member left on a manager's step (joined before this rule) finishes from it
    expect(afterCompleting("preferences", "preferences", "member")).toBe("done");
    expect(afterCompleting("profile", "profile", "member")).toBe("organization");
  });

  it("goes back one step at a time and not before the first", () => {
    expect(previousStep("plan")).toBe("preferences");
    expect(previousStep("organization")).toBe("profile");
    expect(previousStep("profile")).toBeNull();
    expect(previousStep("done")).toBeNull();
  });

  it("never skips ahead: only the current or an earlier step can be completed", () => {
    expect(canComplete("profile", "organization")).toBe(false);
    expect(canComplete("preferences", "organization")).toBe(true);
    expect(canComplete("done", "profile")).toBe(false);
  });

  it("re-completing an earlier step does not move the user backwards", () => {
    expect(afterCompleting("plan", "profile")).toBe("plan");
  });

  it("any sequence of valid completions and backs stays within the flow and advances at most one step", () => {
    const actions = fc.array(fc.oneof(fc.constantFrom(...ONBOARDING_STEPS), fc.constant("back" as const)), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(actions, (list) => {
        let step: OnboardingStep = "profile";
        for (const a of list) {
          const before = stepNumber(step);
          if (a === "back") step = previousStep(step) ?? step;
          else if (canComplete(step, a)) step = afterCompleting(step, a);
          expect(stepNumber(step) - before).toBeLessThanOrEqual(1);
          expect(stepNumber(step)).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});
