import type { Metadata } from "next";
import { featureTable, planPriceUsd, plans } from "@/core/billing/plans";
import { PricingTable } from "@/features/pricing/pricing-table";

export const metadata: Metadata = {
  title: "Pricing",
  description: "Free, Pro and Team plans for Abacus. A year costs ten months.",
};

export default function PricingPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <div className="mx-auto mb-12 max-w-2xl text-center">
        <h1 className="text-4xl font-semibold tracking-tight">Simple, exact pricing</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Start free. Upgrade when your team needs more calls, more history and signed receipts.
        </p>
      </div>
      <PricingTable
        featureTable={featureTable}
        plans={plans.map((plan) => ({
          ...plan,
          prices: { monthly: planPriceUsd(plan, "monthly"), yearly: planPriceUsd(plan, "yearly") },
        }))}
      />
    </div>
  );
}
