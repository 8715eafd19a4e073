import { Check, Minus } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { BILLING_INTERVALS, type BillingInterval, type FeatureRow, type Plan } from "@/core/billing/plans";
import { YEARLY_FREE_MONTHS } from "@/core/billing/pricing";
import { cn } from "@/lib/utils";
import { PricingCurrencyPicker } from "./currency-picker";
import { IntervalInAddress } from "./interval-in-address";
import type { CurrencyPrices } from "./prices";

export type PricedPlan = Plan & { prices: Record<BillingInterval, string> };

const INTERVAL_LABELS: Record<BillingInterval, { toggle: string; per: string }> = {
  monthly: { toggle: "Monthly", per: "month" },
  yearly: { toggle: "Yearly", per: "year" },
};

/**
 * Prices arrive computed and formatted on the server (converted exactly from USD, rounded to each
 * currency's minor units). The table is server-rendered with both intervals' prices; the interval
 * switch is a pair of plain radio buttons that CSS follows (`.pricing` in globals.css), so it works
 * before, and without, any JavaScript. Only the currency picker is a client component.
 */
export function PricingTable({
  plans,
  featureTable,
  currencies,
  selected,
  interval,
  ratesDate,
}: {
  plans: PricedPlan[];
  /** The interval shown first (from the address, so a shared link keeps it). */
  interval: BillingInterval;
  featureTable: readonly FeatureRow[];
  currencies: readonly string[];
  selected: CurrencyPrices;
  ratesDate: string | null;
}) {
  const currency = selected.code;
  return (
    <div className="pricing grid gap-12">
      <div className="mx-auto flex flex-wrap items-center justify-center gap-4">
        <fieldset className="flex rounded-lg border border-border bg-muted p-1" data-interval-switch>
          <legend className="sr-only">Billing interval</legend>
          {BILLING_INTERVALS.map((value) => (
            <label
              key={value}
              className="cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium text-muted-foreground has-[:checked]:bg-background has-[:checked]:text-foreground has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
            >
              <input
                type="radio"
                name="interval"
                value={value}
                defaultChecked={value === interval}
                className="sr-only"
              />
              {INTERVAL_LABELS[value].toggle}
              {value === "yearly" ? (
                <span className="ml-1.5 text-xs text-success">{YEARLY_FREE_MONTHS} months free</span>
              ) : null}
            </label>
          ))}
        </fieldset>
        <PricingCurrencyPicker codes={currencies} value={currency} />
        <IntervalInAddress />
      </div>

      <div className="grid gap-6 md:grid-cols-3">
        {plans.map((plan) => {
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
              {BILLING_INTERVALS.map((interval) => (
                <div key={interval} data-interval={interval}>
                  <p className="mt-6 flex items-baseline gap-1">
                    <span
                      className="tabular text-4xl font-semibold tracking-tight"
                      data-testid={`price-${plan.id}`}
                    >
                      {selected.prices[plan.id][interval]}
                    </span>
                    <span className="text-sm text-muted-foreground">/ {INTERVAL_LABELS[interval].per}</span>
                  </p>
                  {interval === "yearly" && selected.yearly[plan.id] ? (
                    <p className="mt-1 text-sm" data-testid={`yearly-terms-${plan.id}`}>
                      <span className="tabular">{selected.yearly[plan.id]?.perMonth}</span> a month, billed
                      annually ·{" "}
                      <span className="font-medium text-success">
                        save <span className="tabular">{selected.yearly[plan.id]?.saving}</span>
                      </span>
                    </p>
                  ) : null}
                  <p className="mt-1 text-xs text-muted-foreground">
                    {currency === "USD" || plan.id === "free"
                      ? `${currency}, before tax`
                      : `${currency}, before tax · from $${plan.prices[interval]} at the ECB rates of ${ratesDate}`}
                  </p>
                </div>
              ))}
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
                  BILLING_INTERVALS.map((interval) => (
                    <Button
                      key={interval}
                      asChild
                      variant={featured ? "default" : "outline"}
                      className="w-full"
                      data-interval={interval}
                    >
                      {/* Not prefetched: visiting checkout remembers the plan (src/proxy.ts), and the
                          proxy cannot tell a prefetch from a visit (Next.js strips its headers). */}
                      <Link
                        href={`/checkout?plan=${plan.id}&interval=${interval}&currency=${currency}`}
                        prefetch={false}
                      >
                        Choose {plan.name}
                      </Link>
                    </Button>
                  ))
                )}
              </div>
            </section>
          );
        })}
      </div>

      {/* Three narrow plan columns beside a wrapping feature column: every plan stays readable at 360 px
          without sideways scrolling (the values are short: a count, "Unlimited" or a mark). */}
      <table className="w-full table-fixed text-sm">
        <caption className="mb-4 text-left text-lg font-semibold">Compare plans</caption>
        <colgroup>
          <col />
          {plans.map((plan) => (
            <col key={plan.id} className="w-[4.5rem] sm:w-40" />
          ))}
        </colgroup>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className="py-3 pr-2 text-left font-medium sm:pr-4">
              Feature
            </th>
            {plans.map((plan) => (
              <th key={plan.id} scope="col" className="px-1 py-3 text-center font-medium sm:px-4">
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {featureTable.map((row) => (
            <tr key={row.label} className="border-b border-border">
              <th
                scope="row"
                className="py-3 pr-2 text-left font-normal break-words text-muted-foreground sm:pr-4"
              >
                {row.label}
              </th>
              {plans.map((plan) => {
                const value = row.values[plan.id];
                return (
                  <td key={plan.id} className="tabular px-1 py-3 text-center sm:px-4">
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
  );
}
