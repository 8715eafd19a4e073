import { BILLING_INTERVALS, type BillingInterval } from "./plans";

/**
 * The paid plan a visitor picked on the pricing page before having an account. It is kept in a
 * short-lived cookie from the moment they reach checkout signed out, through sign-up and email
 * confirmation (which may happen in another tab), until onboarding's plan step shows it chosen.
 */
export type PlanChoice = { plan: "pro" | "team"; interval: BillingInterval; currency: string };

export const PLAN_CHOICE_COOKIE = "abacus-plan-choice";
/** A day: long enough to confirm an email address, short enough not to surprise anyone later. */
export const PLAN_CHOICE_MAX_AGE = 24 * 60 * 60;

/** The choice in checkout's query (`plan`, `interval`, `currency`), or null when it names no paid plan. */
export function planChoiceFromQuery(params: URLSearchParams): PlanChoice | null {
  const plan = params.get("plan");
  if (plan !== "pro" && plan !== "team") return null;
  const interval = params.get("interval");
  const currency = (params.get("currency") ?? "USD").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  return {
    plan,
    interval: (BILLING_INTERVALS as readonly string[]).includes(interval ?? "")
      ? (interval as BillingInterval)
      : "monthly",
    currency,
  };
}

export function encodePlanChoice(choice: PlanChoice): string {
  return `${choice.plan}.${choice.interval}.${choice.currency}`;
}

export function decodePlanChoice(value: string | undefined | null): PlanChoice | null {
  const [plan, interval, currency] = (value ?? "").split(".");
  return planChoiceFromQuery(
    new URLSearchParams({ plan: plan ?? "", interval: interval ?? "", currency: currency ?? "" }),
  );
}
