"use client";

import { Check, Minus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { BillingInterval, FeatureRow, Plan } from "@/core/billing/plans";
import { cn } from "@/lib/utils";

function formatUsd(amount: string) {
  // Amounts are exact decimal strings; Intl formats strings without going through a float.
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: amount.endsWith(".00") ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount as unknown as number);
}

export type PricedPlan = Plan & { prices: Record<BillingInterval, string> };

/** Prices arrive computed (exact decimal strings, on the server); this only displays them. */
export function PricingTable({
  plans,
  featureTable,
}: {
  plans: PricedPlan[];
  featureTable: readonly FeatureRow[];
}) {
  const [interval, setInterval] = useState<BillingInterval>("monthly");
  return (
    <div className="grid gap-12">
      <fieldset className="mx-auto flex rounded-lg border border-border bg-muted p-1">
        <legend className="sr-only">Billing interval</legend>
        {(["monthly", "yearly"] as const).map((value) => (
          <label
            key={value}
            className={cn(
              "cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium text-muted-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
              interval === value && "bg-background text-foreground shadow-sm",
            )}
          >
            <input
              type="radio"
              name="interval"
              value={value}
              checked={interval === value}
              onChange={() => setInterval(value)}
              className="sr-only"
            />
            {value === "monthly" ? "Monthly" : "Yearly"}
            {value === "yearly" ? <span className="ml-1.5 text-xs text-success">2 months free</span> : null}
          </label>
        ))}
      </fieldset>

      <div className="grid gap-6 md:grid-cols-3">
        {plans.map((plan) => {
          const price = plan.prices[interval];
          const featured = plan.id === "pro";
          return (
            <section
              key={plan.id}
              aria-labelledby={`plan-${plan.id}`}
              className={cn(
                "flex flex-col rounded-lg border border-border bg-card p-6",
                featured && "border-primary ring-1 ring-primary",
              )}
            >
              <div className="flex items-center justify-between">
                <h2 id={`plan-${plan.id}`} className="text-lg font-semibold">
                  {plan.name}
                </h2>
                {featured ? (
                  <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground">
                    Popular
                  </span>
                ) : null}
              </div>
              <p className="mt-2 min-h-12 text-sm text-muted-foreground">{plan.tagline}</p>
              <p className="mt-6 flex items-baseline gap-1">
                <span
                  className="tabular text-4xl font-semibold tracking-tight"
                  data-testid={`price-${plan.id}`}
                >
                  {formatUsd(price)}
                </span>
                <span className="text-sm text-muted-foreground">
                  / {interval === "monthly" ? "month" : "year"}
                </span>
              </p>
              <p className="mt-1 text-xs text-muted-foreground">USD, before tax</p>
              <ul className="mt-6 grid gap-2 text-sm">
                {plan.highlights.map((item) => (
                  <li key={item} className="flex gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                    {item}
                  </li>
                ))}
              </ul>
              <div className="mt-auto pt-8">
                {plan.id === "free" ? (
                  <Button asChild variant="outline" className="w-full">
                    <Link href="/sign-up">Start free</Link>
                  </Button>
                ) : (
                  <Button asChild variant={featured ? "default" : "outline"} className="w-full">
                    <Link href={`/checkout?plan=${plan.id}&interval=${interval}&currency=USD`}>
                      Choose {plan.name}
                    </Link>
                  </Button>
                )}
              </div>
            </section>
          );
        })}
      </div>

      <div className="overflow-x-auto">
        <table className="w-full min-w-[36rem] text-sm">
          <caption className="mb-4 text-left text-lg font-semibold">Compare plans</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-3 pr-4 text-left font-medium">
                Feature
              </th>
              {plans.map((plan) => (
                <th key={plan.id} scope="col" className="px-4 py-3 text-center font-medium">
                  {plan.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {featureTable.map((row) => (
              <tr key={row.label} className="border-b border-border">
                <th scope="row" className="py-3 pr-4 text-left font-normal text-muted-foreground">
                  {row.label}
                </th>
                {plans.map((plan) => {
                  const value = row.values[plan.id];
                  return (
                    <td key={plan.id} className="tabular px-4 py-3 text-center">
                      {value === true ? (
                        <Check className="mx-auto size-4 text-success" aria-label="Included" />
                      ) : value === false ? (
                        <Minus className="mx-auto size-4 text-muted-foreground" aria-label="Not included" />
                      ) : (
                        value
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
