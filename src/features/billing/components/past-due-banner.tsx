import { AlertTriangle } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { MAX_RENEWAL_ATTEMPTS, UPDATE_CARD_PATH } from "@/core/billing/dunning";
import { planOf } from "@/core/billing/plans";
import type { SubscriptionStatus } from "@/core/billing/vocabulary";
import { formatDate } from "../format";

const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/** What the banner needs of the organization's subscription (a `subscriptions` row will do). */
export interface PastDueState {
  status: SubscriptionStatus;
  plan: string;
  currentPeriodEnd: Date;
  dunningAttempt: number;
  nextRetryAt: Date | null;
}

/**
 * The dashboard's notice while a renewal is failing (the subscription is past due): which plan is on
 * hold since when, that the organization has the Free plan's limits meanwhile, when the card is tried
 * again and how many attempts are left, and, for owners and admins, the way to update the card.
 * Renders nothing otherwise. A server component: no script ships for it.
 */
export function PastDueBanner({
  subscription,
  canManage,
  card,
}: {
  subscription: PastDueState | null;
  canManage: boolean;
  /** The card on file, when the page loaded it. */
  card?: { brand: string; last4: string } | null;
}) {
  if (subscription?.status !== "past_due") return null;
  const plan = planOf(subscription.plan).name;
  const left = Math.max(0, MAX_RENEWAL_ATTEMPTS - subscription.dunningAttempt);
  const retry = subscription.nextRetryAt;
  const cardName = card ? `the ${card.brand} card ending ${card.last4}` : "the card on file";
  return (
    <section
      aria-labelledby="past-due-title"
      data-testid="past-due-banner"
      className="flex flex-col gap-4 rounded-lg border border-destructive/50 bg-destructive/5 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-6"
    >
      <div className="flex min-w-0 gap-3">
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
        <div className="min-w-0">
          <h2 id="past-due-title" className="font-semibold">
            Payment failed: the {plan} plan is on hold
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            We could not charge {cardName} for the period from {formatDate(subscription.currentPeriodEnd)}.
            Until a payment goes through, this organization has the Free plan&apos;s limits.
          </p>
          <p className="mt-1 text-sm">
            {retry ? (
              <>
                Next attempt:{" "}
                <time dateTime={retry.toISOString()} className="tabular font-medium">
                  {formatDate(retry)}, {timeFormat.format(retry)} UTC
                </time>{" "}
                ({left} {left === 1 ? "attempt" : "attempts"} left; then the subscription ends).
              </>
            ) : (
              "No attempt is left: the subscription ends."
            )}
          </p>
          {canManage ? null : (
            <p className="mt-1 text-sm text-muted-foreground">Ask an owner or admin to update the card.</p>
          )}
        </div>
      </div>
      {canManage ? (
        <Button asChild size="sm" className="ml-8 shrink-0 self-start sm:ml-0">
          <Link href={UPDATE_CARD_PATH}>Update card</Link>
        </Button>
      ) : null}
    </section>
  );
}
