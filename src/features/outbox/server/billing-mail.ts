import "server-only";
import { UPDATE_CARD_PATH } from "@/core/billing/dunning";
import { compose, type MailMessage } from "@/server/mail/templates";

/** What every dunning mail says about the charge that failed. */
export interface FailedCharge {
  organizationName: string;
  planName: string;
  interval: "monthly" | "yearly";
  /** The amount as an exact decimal with its currency: "12.34 EUR". */
  amount: string;
  /** The card tried: "Visa ending 4242". */
  card: string;
  /** The provider's reason, in words a customer can act on. */
  reason: string;
  /** The attempt that failed (1 is the renewal itself) and how many there are in all. */
  attempt: number;
  attempts: number;
}

/** An instant as the mails print it: "2026-03-01 10:00 UTC". */
export function mailInstant(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function billingLink(origin: string) {
  return { link: new URL(UPDATE_CARD_PATH, origin).toString(), label: "Update your card" };
}

function whatFailed(c: FailedCharge): string {
  return `We could not charge ${c.amount} to ${c.card} for ${c.organizationName}'s ${c.planName} plan (${c.interval}). ${c.reason}`;
}

/** The mails the billing clock sends an organization's owners when a renewal fails or recovers. */
export const billingMail = {
  /** A declined renewal that will be tried again. */
  paymentFailed(origin: string, c: FailedCharge & { retryAt: Date }): MailMessage {
    const left = c.attempts - c.attempt;
    return compose("billing", origin, `Payment failed: ${c.organizationName}'s ${c.planName} plan`, [
      { p: whatFailed(c) },
      {
        p: `We will try the card on file again on ${mailInstant(c.retryAt)} (${left} ${left === 1 ? "attempt" : "attempts"} left). Until a payment goes through, ${c.organizationName} has the Free plan's limits.`,
      },
      { p: "Update the card before then so the next attempt succeeds:" },
      billingLink(origin),
      {
        small: `Attempt ${c.attempt} of ${c.attempts}. After the last failed attempt the subscription ends and the organization stays on Free.`,
      },
    ]);
  },
  /** The last mail: the subscription ended because it could not be paid. */
  subscriptionEnded(
    origin: string,
    c: Omit<FailedCharge, "attempt"> & {
      attempt: number | null;
      why: "hard_decline" | "retries_exhausted" | "no_card";
    },
  ): MailMessage {
    const because =
      c.why === "no_card"
        ? `There is no card on file to renew ${c.organizationName}'s ${c.planName} plan (${c.interval}).`
        : c.why === "hard_decline"
          ? `${whatFailed({ ...c, attempt: c.attempt ?? 1 })} The bank will not accept this card again, so we did not retry.`
          : `${whatFailed({ ...c, attempt: c.attempt ?? c.attempts })} This was the last of ${c.attempts} attempts.`;
    return compose("billing", origin, `Subscription ended: ${c.organizationName} is on Free`, [
      { p: because },
      {
        p: `The ${c.planName} subscription has ended and ${c.organizationName} is now on the Free plan, with its limits. Your data, invoices and receipts are kept.`,
      },
      { p: "To subscribe again, add a card and choose a plan:" },
      { link: new URL(UPDATE_CARD_PATH, origin).toString(), label: "Open billing" },
    ]);
  },
  /** A retry went through: the plan is back. */
  paymentRecovered(
    origin: string,
    c: { organizationName: string; planName: string; amount: string; card: string; periodEnd: Date },
  ): MailMessage {
    return compose(
      "billing",
      origin,
      `Payment received: ${c.organizationName}'s ${c.planName} plan is active`,
      [
        {
          p: `We charged ${c.card} ${c.amount}. ${c.organizationName}'s ${c.planName} plan is active again, paid until ${mailInstant(c.periodEnd)}.`,
        },
        { link: new URL(UPDATE_CARD_PATH, origin).toString(), label: "Open billing" },
      ],
    );
  },
};
