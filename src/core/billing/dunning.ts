/**
 * Failed renewals (dunning): when the card on file is tried again, and which declines are final.
 * Pure: the instants are passed in. The docs ("Failed payments") describe the same schedule.
 *
 * Attempt 1 is the renewal at the period's end. A soft decline makes the subscription past due and
 * schedules the next attempt `RETRY_DAYS[k]` days after that period end (not after the last
 * attempt, so a slow clock does not stretch the schedule). A hard decline, or a decline of the last
 * attempt, ends the subscription: the organization is on Free.
 */

/**
 * Where an owner updates the card on file: the customer billing page, which every dunning mail and
 * the past-due banner link to.
 */
export const UPDATE_CARD_PATH = "/dashboard/billing";

/** Days after the unpaid period's end at which the card on file is tried again, in order. */
export const RETRY_DAYS = [1, 3, 5] as const;

/** Every attempt at one period: the renewal itself and one per retry. */
export const MAX_RENEWAL_ATTEMPTS = RETRY_DAYS.length + 1;

const DAY_MS = 86_400_000;

/**
 * Decline codes after which trying the same card again cannot succeed (the card is reported lost or
 * stolen, closed, expired, not usable for this charge, or the provider cannot charge it at all).
 * Stripe's `decline_code`s and `code`s, and the test provider's own codes. Every other code (a
 * generic decline, insufficient funds, do-not-honor, a processing error) is soft: retried.
 */
export const HARD_DECLINE_CODES: ReadonlySet<string> = new Set([
  // The card is gone or must not be used.
  "lost_card",
  "stolen_card",
  "pickup_card",
  "fraudulent",
  "restricted_card",
  "security_violation",
  "merchant_blacklist",
  // The account behind it is closed or changed, or the cardholder revoked the mandate.
  "expired_card",
  "invalid_account",
  "new_account_information_available",
  "revocation_of_all_authorizations",
  "revocation_of_authorization",
  "stop_payment_order",
  "do_not_honor_permanent",
  // The card cannot be charged for this at all: retrying sends the same request.
  "incorrect_number",
  "invalid_number",
  "card_not_supported",
  "currency_not_supported",
  "amount_invalid",
  "no_customer",
  "unknown_test_card",
]);

export type DeclineKind = "hard" | "soft";

/** Whether a declined charge may be retried with the same card (soft) or not (hard). */
export function declineKind(code: string): DeclineKind {
  return HARD_DECLINE_CODES.has(code.trim().toLowerCase()) ? "hard" : "soft";
}

/** When attempt `attempt` (2 for the first retry) of a period that ended at `periodEnd` runs. */
export function attemptAt(periodEnd: Date, attempt: number): Date | null {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_RENEWAL_ATTEMPTS) return null;
  if (attempt === 1) return new Date(periodEnd);
  const days = RETRY_DAYS[attempt - 2];
  return days === undefined ? null : new Date(periodEnd.getTime() + days * DAY_MS);
}

/** Why a subscription ended without being paid. */
export type EndReason = "hard_decline" | "retries_exhausted" | "no_card";

/** What follows a declined attempt: another attempt at a set instant, or the end of the subscription. */
export type DunningStep =
  | { kind: "retry"; attempt: number; nextAttempt: number; retryAt: Date; attemptsLeft: number }
  | { kind: "end"; attempt: number; reason: Exclude<EndReason, "no_card"> };

/**
 * The step after attempt `attempt` at the period that ended at `periodEnd` was declined with `code`.
 * Attempts beyond the schedule (a miscount) end the subscription rather than retry forever.
 */
export function afterDecline(periodEnd: Date, attempt: number, code: string): DunningStep {
  if (declineKind(code) === "hard") return { kind: "end", attempt, reason: "hard_decline" };
  const nextAttempt = attempt + 1;
  const retryAt = attemptAt(periodEnd, nextAttempt);
  if (retryAt === null || attempt < 1) return { kind: "end", attempt, reason: "retries_exhausted" };
  return {
    kind: "retry",
    attempt,
    nextAttempt,
    retryAt,
    attemptsLeft: MAX_RENEWAL_ATTEMPTS - attempt,
  };
}
