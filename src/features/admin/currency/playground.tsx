"use client";

import { useId, useState } from "react";
import { Input, Label, NativeSelect } from "@/components/ui/input";
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
          <NativeSelect id={`${id}-currency`} value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {CURRENCIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {names[c.code] ?? c.name} ({c.minorUnits})
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-locale`}>Locale</Label>
          <NativeSelect id={`${id}-locale`} value={locale} onChange={(e) => setLocale(e.target.value)}>
            {LOCALES.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </NativeSelect>
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
