"use client";

import { useRouter } from "next/navigation";
import { useId, useTransition } from "react";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { Label } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";

/**
 * Plan, interval and currency of the order. Changing one reloads the server-computed quote in place
 * (the form below keeps what was typed).
 */
export function OrderSelection({
  plan,
  interval,
  currency,
  currencies,
}: {
  plan: string;
  interval: string;
  currency: string;
  currencies: { code: string; name: string }[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const id = useId();
  function go(next: Partial<{ plan: string; interval: string; currency: string }>) {
    const query = new URLSearchParams({ plan, interval, currency, ...next });
    startTransition(() => router.replace(`/checkout?${query}`, { scroll: false }));
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3" aria-busy={pending || undefined}>
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-plan`}>Plan</Label>
        <SimpleSelect
          id={`${id}-plan`}
          value={plan}
          onValueChange={(next) => go({ plan: next })}
          options={PLAN_OPTIONS}
        />
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-interval`}>Billing interval</Label>
        <SimpleSelect
          id={`${id}-interval`}
          value={interval}
          onValueChange={(next) => go({ interval: next })}
          options={INTERVAL_OPTIONS}
        />
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-currency`}>Currency</Label>
        <CurrencyCombobox
          id={`${id}-currency`}
          codes={currencies.map((c) => c.code)}
          value={currency}
          onValueChange={(next) => go({ currency: next })}
        />
      </div>
    </div>
  );
}

const PLAN_OPTIONS = [
  { value: "pro", label: "Pro" },
  { value: "team", label: "Team" },
] as const;

const INTERVAL_OPTIONS = [
  { value: "monthly", label: "Monthly" },
  { value: "yearly", label: "Yearly (2 months free)" },
] as const;
