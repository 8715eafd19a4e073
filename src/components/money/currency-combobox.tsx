"use client";

import { useMemo } from "react";
import { Combobox } from "@/components/ui/combobox";
import { currencyName } from "@/core/money/currencies";

/**
 * Picks one currency from a list of ISO codes: searchable by code ("chf") and by the locale's name
 * ("swiss", "yen"). Names come from `currencyName`, the one source of currency names.
 */
export function CurrencyCombobox({
  codes,
  placeholder = "Choose a currency…",
  ...props
}: {
  id: string;
  value: string;
  onValueChange: (code: string) => void;
  codes: readonly string[];
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const options = useMemo(() => codes.map((code) => ({ value: code, label: currencyName(code) })), [codes]);
  return (
    <Combobox
      {...props}
      options={options}
      placeholder={placeholder}
      searchLabel="Search currencies by code or name"
      searchPlaceholder="Code or name: CHF, franc…"
      emptyText="No currency matches."
      renderValue={(o) => (
        <span className="flex min-w-0 items-baseline gap-2" suppressHydrationWarning>
          <span className="font-mono font-medium">{o.value}</span>
          <span className="truncate text-muted-foreground">{o.label}</span>
        </span>
      )}
    />
  );
}
