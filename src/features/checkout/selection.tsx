"use client";

import { useRouter } from "next/navigation";
import { useId, useTransition } from "react";
import { Label, NativeSelect } from "@/components/ui/input";

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
      <div className="grid gap-2">
        <Label htmlFor={`${id}-plan`}>Plan</Label>
        <NativeSelect id={`${id}-plan`} value={plan} onChange={(e) => go({ plan: e.target.value })}>
          <option value="pro">Pro</option>
          <option value="team">Team</option>
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-interval`}>Billing interval</Label>
        <NativeSelect
          id={`${id}-interval`}
          value={interval}
          onChange={(e) => go({ interval: e.target.value })}
        >
          <option value="monthly">Monthly</option>
          <option value="yearly">Yearly (2 months free)</option>
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-currency`}>Currency</Label>
        <NativeSelect
          id={`${id}-currency`}
          value={currency}
          onChange={(e) => go({ currency: e.target.value })}
        >
          {currencies.map((c) => (
            <option key={c.code} value={c.code}>
              {c.code} · {c.name}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
