import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { decodePlanChoice, PLAN_CHOICE_COOKIE } from "@/core/billing/plan-choice";
import { plans } from "@/core/billing/plans";
import { ROUNDING_MODES } from "@/core/decimal/rounding";
import { CURRENCIES, currencyName } from "@/core/money/currencies";
import { VerifyEmailNotice } from "@/features/account/security-forms";
import { loadMeSummary } from "@/features/account/server";
import { AcceptInvitation } from "@/features/onboarding/accept-invitation";
import { OnboardingFlow } from "@/features/onboarding/onboarding-flow";
import { organizationPreferences, pendingInvitationsFor } from "@/features/onboarding/server";
import { pricesByCurrency } from "@/features/pricing/server";
import { requireUser } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { loadRatesOrNull } from "@/server/fx";

export const metadata: Metadata = { title: "Welcome to Abacus" };

export default async function OnboardingPage({
  searchParams,
}: {
  searchParams: Promise<{ invitation?: string }>;
}) {
  const { invitation } = await searchParams;
  const path = invitation ? `/onboarding?invitation=${encodeURIComponent(invitation)}` : "/onboarding";
  const viewer = await requireUser(path, { allowOnboarding: true });
  const db = getDb();
  // Invitations are shown only to the confirmed owner of the address they were sent to.
  const verified = viewer.user.emailVerified;
  const invitations = verified ? await pendingInvitationsFor(db, viewer.user.email) : [];
  const notice = verified ? null : (
    <div className="mx-auto max-w-2xl px-4 pt-8 sm:px-6">
      <VerifyEmailNotice
        email={viewer.user.email}
        reason={
          invitation ? "To see and accept your invitation, confirm your email address first." : undefined
        }
      />
    </div>
  );

  if (viewer.user.onboardingStep === "done") {
    if (invitation && !verified) return notice;
    const match = invitations.find((i) => i.id === invitation);
    if (invitation) return <AcceptInvitation invitation={match ?? null} />;
    redirect("/dashboard");
  }

  const me = await loadMeSummary(db, viewer);
  const active = me.organizations.find((o) => o.id === me.activeOrganizationId) ?? null;
  const preferences = (active && (await organizationPreferences(db, active.id))) || {
    defaultCurrency: "USD",
    roundingMode: "half-even" as const,
    precision: 20,
  };
  // The plan step: prices in every currency the rates allow (the organization's own first), and
  // the plan picked on the pricing page before signing up, if any.
  const priced =
    viewer.user.onboardingStep === "plan" ? pricesByCurrency(plans, await loadRatesOrNull(db)) : [];
  const chosen = decodePlanChoice((await cookies()).get(PLAN_CHOICE_COOKIE)?.value);
  return (
    <>
      {notice}
      <OnboardingFlow
        data={{
          step: viewer.user.onboardingStep,
          name: viewer.user.name,
          invitations: invitations.map(({ id, organizationName, role, inviterName }) => ({
            id,
            organizationName,
            role,
            inviterName,
          })),
          highlightInvitation: invitation ?? null,
          organizations: me.organizations,
          activeOrganization: active ? { name: active.name, role: active.role } : null,
          preferences,
          currencies: CURRENCIES.map((c) => ({ code: c.code, name: currencyName(c.code) })),
          roundingModes: ROUNDING_MODES,
          plans: plans.map((p) => ({ id: p.id, name: p.name, tagline: p.tagline })),
          prices: Object.fromEntries(priced.map((c) => [c.code, c.prices])),
          chosenPlan:
            chosen && priced.some((c) => c.code === chosen.currency)
              ? chosen
              : chosen
                ? { ...chosen, currency: "USD" }
                : null,
        }}
      />
    </>
  );
}
