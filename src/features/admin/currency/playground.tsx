"use client";

import { useId, useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { Input, Label } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { ROUNDING_MODES } from "@/core/decimal/rounding";
import { CURRENCIES } from "@/core/money/currencies";
import { formatAmount } from "@/core/money/format";

const LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "de-CH", "ja-JP", "hi-IN", "ar-EG", "pt-BR"];

/**
 * Formats one amount in a chosen currency and locale under every rounding mode. Currency names come
 * from the server (`names`): the browser's ICU names some fund and unit codes differently from
 * Node's, and a name computed here would not match the server's HTML at hydration.
 */
export function Playground({ names }: { names: Readonly<Record<string, string>> }) {
  const id = useId();
  const [amount, setAmount] = useState("1234.5678");
  const [currency, setCurrency] = useState("EUR");
  const [locale, setLocale] = useState("de-DE");
  const valid = /^-?\d{1,30}(\.\d{1,30})?$/.test(amount.trim());
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-amount`}>Amount</Label>
          <Input
            id={`${id}-amount`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={!valid || undefined}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-currency`}>Currency</Label>
          <Combobox
            id={`${id}-currency`}
            value={currency}
            onValueChange={setCurrency}
            options={CURRENCIES.map((c) => ({
              value: c.code,
              label: `${names[c.code] ?? c.name} (${c.minorUnits} minor digits)`,
            }))}
            searchLabel="Search currencies by code or name"
            searchPlaceholder="Code or name: CHF, franc…"
            emptyText="No currency matches."
            renderValue={(o) => (
              <span className="flex min-w-0 items-baseline gap-2">
                <span className="font-mono font-medium">{o.value}</span>
                <span className="truncate text-muted-foreground">{o.label}</span>
              </span>
            )}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-locale`}>Locale</Label>
          <SimpleSelect
            id={`${id}-locale`}
            value={locale}
            onValueChange={setLocale}
            options={LOCALES.map((l) => ({ value: l, label: l }))}
          />
        </div>
      </div>
      <p className="min-h-5 text-sm text-destructive" aria-live="polite">
        {valid ? "" : "Enter a decimal such as 1234.5678 or -0.005."}
      </p>
      <table className="w-full text-sm tabular-nums">
        <caption className="sr-only">The amount under each rounding mode</caption>
        <thead className="text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="py-1">
              Rounding mode
            </th>
            <th scope="col" className="py-1 text-right">
              Result
            </th>
          </tr>
        </thead>
        <tbody>
          {ROUNDING_MODES.map((mode) => (
            <tr key={mode} className="border-t border-border">
              <td className="py-1.5 font-mono text-xs">{mode}</td>
              <td className="py-1.5 text-right">
                {valid ? formatAmount(amount.trim(), currency, mode, { locale }) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
