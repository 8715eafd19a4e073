"use client";

import { usePathname, useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { CurrencyCombobox } from "@/components/money/currency-combobox";

/**
 * The pricing page's one interactive part: choosing a currency puts it in the address (so the page
 * can be shared) and the server renders that currency's prices. Everything else on the page is
 * server-rendered HTML with nothing to hydrate.
 */
export function PricingCurrencyPicker({ codes, value }: { codes: readonly string[]; value: string }) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const [chosen, setChosen] = useState(value);
  const [pending, startTransition] = useTransition();
  // A newer server answer (back/forward, a shared link) wins over the last local choice.
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setChosen(value);
  }

  function choose(next: string) {
    setChosen(next);
    // The address as it is now: the interval switch writes to it with history.replaceState.
    const query = new URLSearchParams(window.location.search);
    if (next === "USD") query.delete("currency");
    else query.set("currency", next);
    const search = query.toString();
    startTransition(() => router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false }));
  }

  return (
    <div className="flex items-center gap-2" aria-busy={pending || undefined}>
      <label htmlFor={id} className="text-sm font-medium">
        Currency
      </label>
      <CurrencyCombobox
        id={id}
        codes={codes}
        value={chosen}
        onValueChange={choose}
        className="w-64 max-w-[calc(100vw-8rem)]"
      />
    </div>
  );
}
