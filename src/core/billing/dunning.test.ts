import { describe, expect, it } from "vitest";
import {
  afterDecline,
  attemptAt,
  declineKind,
  HARD_DECLINE_CODES,
  MAX_RENEWAL_ATTEMPTS,
  RETRY_DAYS,
} from "./dunning";
import { effectivePlan, type SubscriptionState } from "./subscription";
import { DECLINE_REASONS } from "./test-cards";

const END = new Date("2026-02-28T10:00:00Z");
const day = (n: number) => new Date(END.getTime() + n * 86_400_000);

describe("the retry schedule", () => {
  it("tries the card at the period's end, then 1, 3 and 5 days after it", () => {
    expect(RETRY_DAYS).toEqual([1, 3, 5]);
    expect(MAX_RENEWAL_ATTEMPTS).toBe(4);
    expect([1, 2, 3, 4].map((a) => attemptAt(END, a)?.toISOString())).toEqual([
      "2026-02-28T10:00:00.000Z",
      "2026-03-01T10:00:00.000Z",
      "2026-03-03T10:00:00.000Z",
      "2026-03-05T10:00:00.000Z",
    ]);
  });

  it("has no attempt before the first or after the last", () => {
    expect(attemptAt(END, 0)).toBeNull();
    expect(attemptAt(END, 5)).toBeNull();
    expect(attemptAt(END, 1.5)).toBeNull();
  });

  it("schedules the next attempt after each soft decline, counting what is left", () => {
    expect(afterDecline(END, 1, "card_declined")).toEqual({
      kind: "retry",
      attempt: 1,
      nextAttempt: 2,
      retryAt: day(1),
      attemptsLeft: 3,
    });
    expect(afterDecline(END, 2, "insufficient_funds")).toMatchObject({ kind: "retry", retryAt: day(3) });
    expect(afterDecline(END, 3, "do_not_honor")).toMatchObject({
      kind: "retry",
      nextAttempt: 4,
      retryAt: day(5),
      attemptsLeft: 1,
    });
  });

  it("ends after the last attempt, and never retries beyond the schedule", () => {
    expect(afterDecline(END, 4, "card_declined")).toEqual({
      kind: "end",
      attempt: 4,
      reason: "retries_exhausted",
    });
    expect(afterDecline(END, 9, "card_declined")).toMatchObject({ kind: "end", reason: "retries_exhausted" });
    expect(afterDecline(END, 0, "card_declined")).toMatchObject({ kind: "end" });
  });

  it("ends at once on a hard decline, whatever the attempt", () => {
    for (const attempt of [1, 2, 3]) {
      expect(afterDecline(END, attempt, "stolen_card")).toEqual({
        kind: "end",
        attempt,
        reason: "hard_decline",
      });
    }
  });
});

describe("decline classification", () => {
  it("treats lost, stolen, expired and unusable cards as hard", () => {
    for (const code of [
      "lost_card",
      "stolen_card",
      "pickup_card",
      "fraudulent",
      "expired_card",
      "restricted_card",
      "do_not_honor_permanent",
      "revocation_of_all_authorizations",
      "invalid_account",
    ]) {
      expect(declineKind(code), code).toBe("hard");
    }
  });

  it("retries generic declines, missing funds and processing errors", () => {
    for (const code of [
      "card_declined",
      "generic_decline",
      "insufficient_funds",
      "do_not_honor",
      "processing_error",
      "try_again_later",
      "a_code_nobody_knows",
    ]) {
      expect(declineKind(code), code).toBe("soft");
    }
  });

  it("is not fooled by case or spaces", () => {
    expect(declineKind(" Stolen_Card ")).toBe("hard");
  });

  it("classifies every code the test provider returns", () => {
    // The test provider's codes are the keys of its reasons: each is decided on purpose here.
    const expected: Record<string, "hard" | "soft"> = {
      card_declined: "soft",
      insufficient_funds: "soft",
      expired_card: "hard",
      unknown_test_card: "hard",
      processing_error: "soft",
    };
    expect(Object.keys(DECLINE_REASONS).sort()).toEqual(Object.keys(expected).sort());
    for (const [code, kind] of Object.entries(expected)) expect(declineKind(code), code).toBe(kind);
    // The Stripe provider's own codes for requests it cannot make.
    expect(declineKind("no_customer")).toBe("hard");
    expect(declineKind("amount_invalid")).toBe("hard");
    expect(HARD_DECLINE_CODES.size).toBeGreaterThan(10);
  });
});

describe("effectivePlan", () => {
  const sub = (over: Partial<SubscriptionState>): SubscriptionState => ({
    plan: "pro",
    interval: "monthly",
    status: "active",
    currentPeriodEnd: END,
    cancelAtPeriodEnd: false,
    scheduledPlan: null,
    ...over,
  });
  const justBefore = new Date(END.getTime() - 1);

  it("keeps the paid plan only inside the paid period", () => {
    expect(effectivePlan(sub({}), justBefore)).toBe("pro");
    expect(effectivePlan(sub({}), END)).toBe("free");
    expect(effectivePlan(null, justBefore)).toBe("free");
  });

  it("gives a past-due subscription no grace after the paid period", () => {
    expect(effectivePlan(sub({ status: "past_due" }), justBefore)).toBe("pro");
    for (const at of [END, day(1), day(4.9), day(30)]) {
      expect(effectivePlan(sub({ status: "past_due" }), at)).toBe("free");
    }
  });

  it("gives an ended subscription Free, even inside its period", () => {
    expect(effectivePlan(sub({ status: "ended" }), justBefore)).toBe("free");
  });
});
