import { FlaskConical, ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { planLabel } from "@/core/billing/plan-names";
import {
  buildQuote,
  CheckoutForm,
  formatMinor,
  getSubscription,
  lastBillingDetails,
  newIdempotencyKey,
  OrderSelection,
  parseSelection,
  pendingOrder,
} from "@/features/billing";
import { organizationPreferences } from "@/features/organizations/server";
import { ALL_MEMBER_ROLES, requireOrgRole, requireVerifiedEmail } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";

export const metadata: Metadata = { title: "Checkout" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<{ plan?: string; interval?: string; currency?: string }>;
}) {
  const search = await searchParams;
  const path = `/checkout?${new URLSearchParams(
    Object.entries(search).filter((e): e is [string, string] => typeof e[1] === "string"),
  )}`;
  // Buying needs a confirmed email address: unconfirmed users are sent to confirm it, then back.
  await requireVerifiedEmail(path);
  const viewer = await requireOrgRole(path, ALL_MEMBER_ROLES);
  if (viewer.memberRole === "member") return <OwnersOnly orgName={viewer.org.name} />;
  const db = getDb();
  const [table, subscription, pending, last, preferences] = await Promise.all([
    loadRateTable(db),
    getSubscription(db, viewer.org.id),
    pendingOrder(db, viewer.org.id),
    lastBillingDetails(db, viewer.org.id),
    organizationPreferences(db, viewer.org.id),
  ]);
  // Without a currency in the link (an upgrade, a plain "Upgrade" button), the organization is
  // billed as before: its last order's currency, else its default currency.
  const selection = parseSelection({
    ...search,
    currency: search.currency ?? last?.currency ?? preferences?.defaultCurrency,
  });
  const quote = buildQuote(selection, table);
  // Without Stripe the built-in test provider takes payments: nothing real is charged.
  const testMode = !getEnv().STRIPE_SECRET_KEY;
  const current = currentPlanNote(subscription);
  // A payment whose outcome is still unknown: the same purchase resumes under its key (so a reload
  // checks on it instead of paying again); another purchase waits for it.
  const resumes =
    pending &&
    quote &&
    pending.plan === quote.plan.id &&
    pending.interval === quote.interval &&
    pending.currency === quote.currency;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-semibold tracking-tight">Checkout</h1>
        {testMode ? (
          <span
            className="inline-flex items-center gap-1.5 rounded-full border border-amber-500/60 bg-amber-50 px-2.5 py-0.5 text-sm font-medium text-amber-950 dark:bg-amber-950/40 dark:text-amber-50"
            data-testid="test-mode"
          >
            <FlaskConical className="size-3.5" aria-hidden />
            Test mode
          </span>
        ) : null}
      </div>
      <p className="mt-2 text-muted-foreground">
        {quote ? `${quote.plan.name} for ${viewer.org.name}. ${quote.plan.tagline}` : null}
      </p>
      {current ? (
        <p className="mt-2 text-sm" data-testid="current-plan">
          {current}
        </p>
      ) : null}
      {pending ? <PendingNote pending={pending} resumes={Boolean(resumes)} /> : null}
      {quote ? (
        <div className="mt-8 grid gap-8">
          <OrderSelection
            plan={quote.plan.id}
            interval={quote.interval}
            currency={quote.currency}
            currencies={quote.currencies}
          />
          <CheckoutForm
            quote={quote}
            initialKey={resumes ? pending.idempotencyKey : newIdempotencyKey()}
            defaultName={last?.name ?? viewer.org.name}
            defaultCountry={last && quote.countries.some((c) => c.code === last.country) ? last.country : ""}
            defaultVatId={last?.vatId ?? ""}
            testMode={testMode}
          />
        </div>
      ) : (
        <p className="mt-8 rounded-lg border border-border p-6 text-sm">
          Prices cannot be computed right now because the exchange rates are missing. Try US dollars on the{" "}
          <Link className="underline" href="/pricing">
            pricing page
          </Link>
          .
        </p>
      )}
    </div>
  );
}

function currentPlanNote(sub: Awaited<ReturnType<typeof getSubscription>>): string | null {
  if (sub?.status !== "active" || sub.currentPeriodEnd <= new Date()) return null;
  const end = sub.currentPeriodEnd.toISOString().slice(0, 10);
  return `Currently on ${planLabel(sub.plan, sub.interval)} until ${end}. Paying now starts a new period from today.`;
}

function PendingNote({
  pending,
  resumes,
}: {
  pending: NonNullable<Awaited<ReturnType<typeof pendingOrder>>>;
  resumes: boolean;
}) {
  const what = `${planLabel(pending.plan, pending.interval)} for ${formatMinor(pending.totalMinor, pending.currency)}`;
  const card = pending.card ? ` with the ${pending.card.brand} card ending ${pending.card.last4}` : "";
  return (
    <p
      className="mt-4 rounded-lg border border-border bg-card p-4 text-sm leading-6"
      data-testid="pending-order"
    >
      A payment of {what}
      {card} has not been confirmed by the payment provider yet.{" "}
      {resumes ? (
        "Submit the form again with the same card to check on it: it will not be charged twice."
      ) : (
        <>
          <Link
            className="underline"
            href={`/checkout?plan=${pending.plan}&interval=${pending.interval}&currency=${pending.currency}`}
          >
            Open that order
          </Link>{" "}
          to check on it before buying anything else.
        </>
      )}
    </p>
  );
}

function OwnersOnly({ orgName }: { orgName: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
      <h1 className="text-3xl font-semibold tracking-tight">Only owners and admins can change the plan</h1>
      <div className="mt-8 rounded-lg border border-border bg-card p-6 sm:p-8">
        <div className="flex items-start gap-4">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
          <div className="grid gap-3">
            <p className="text-sm leading-6 text-muted-foreground">
              You are a member of {orgName}. Ask one of its owners or admins to upgrade the plan; you can see
              the current plan and receipts on the dashboard.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button asChild size="sm">
                <Link href="/dashboard">Go to the dashboard</Link>
              </Button>
              <Button asChild variant="outline" size="sm">
                <Link href="/pricing">See the plans</Link>
              </Button>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
