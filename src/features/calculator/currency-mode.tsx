"use client";

import { useId, useState } from "react";
import { RoundingSelect } from "@/components/money/rounding-select";
import { Label } from "@/components/ui/input";
import type { RoundingMode } from "@/core/decimal";
import type { RateTable } from "@/core/money";
import { Converter } from "./currency-converter";
import type { CurrencyLink } from "./currency-link";
import type { CalculatorDefaults } from "./defaults";
import { MoneyTools } from "./money-tools";

/**
 * Currency mode: converts an amount to several currencies with the instance's FX table (passed from
 * the server, so no request is needed), and the money tools (tax, discount, split). All arithmetic is
 * exact on integer minor units; each result is rounded once, with the chosen mode.
 */
export function CurrencyMode({
  rates,
  defaults = null,
  link = null,
}: {
  rates: RateTable | null;
  defaults?: CalculatorDefaults | null;
  link?: CurrencyLink | null;
}) {
  const ids = useId();
  const [rounding, setRounding] = useState<RoundingMode>(
    link?.rounding ?? defaults?.roundingMode ?? "half-even",
  );
  return (
    <div className="grid gap-6">
      <div className="grid items-center gap-x-4 gap-y-2 sm:grid-cols-[auto_20rem_minmax(0,1fr)]">
        <Label htmlFor={`${ids}-rounding`}>Rounding</Label>
        <RoundingSelect id={`${ids}-rounding`} value={rounding} onValueChange={setRounding} />
        <p className="text-xs text-muted-foreground">
          Used for conversions, tax and discounts; each result is rounded once, to the currency&apos;s minor
          units.
        </p>
      </div>
      {rates?.date ? (
        <Converter
          rates={rates}
          rounding={rounding}
          link={link}
          defaultCurrency={defaults?.defaultCurrency ?? null}
        />
      ) : (
        <p className="rounded-lg border border-border bg-card p-6 text-sm text-muted-foreground">
          Exchange rates could not be loaded, so conversion is unavailable. The money tools below still work.
        </p>
      )}
      <MoneyTools rounding={rounding} defaultCurrency={defaults?.defaultCurrency ?? null} />
    </div>
  );
}
