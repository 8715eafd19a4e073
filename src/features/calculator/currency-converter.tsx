"use client";

import { X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { Button } from "@/components/ui/button";
import { ChoiceInput } from "@/components/ui/choice-input";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { RoundingMode } from "@/core/decimal";
import {
  cashStep,
  convert,
  crossRate,
  getCurrency,
  hasCashRounding,
  inverseRate,
  type RateTable,
  rateCurrencies,
} from "@/core/money";
import { errorOf, parseAmount, shortRate } from "@/core/money/input";
import { SaveCalculation } from "@/features/history";
import { AlignedAmount, fractionWidthFor } from "./controls";
import type { CurrencyLink } from "./currency-link";
import { currencyName, fmt } from "./money-format";
import { ToolCard } from "./tool-card";

const DEFAULT_TARGETS = ["USD", "GBP", "JPY", "EUR"];

/**
 * Converts one amount into several currencies. It starts from a saved calculation's link when there
 * is one, else from the organization's default currency (converted to the usual targets).
 */
export function Converter({
  rates,
  rounding,
  link = null,
  defaultCurrency = null,
}: {
  rates: RateTable;
  rounding: RoundingMode;
  link?: CurrencyLink | null;
  defaultCurrency?: string | null;
}) {
  const ids = useId();
  const available = useMemo(() => rateCurrencies(rates), [rates]);
  const [amountText, setAmountText] = useState(link?.amount ?? "100");
  const [from, setFrom] = useState(() => {
    for (const code of [link?.from, defaultCurrency, "EUR"])
      if (code && available.includes(code)) return code;
    return available[0] ?? "EUR";
  });
  const [targets, setTargets] = useState(() => {
    const linked = link?.to?.filter((c) => available.includes(c));
    if (linked?.length) return linked;
    return DEFAULT_TARGETS.filter((c) => available.includes(c) && c !== from).slice(0, 3);
  });

  const [cash, setCash] = useState(false);
  const amount = useMemo(() => parseAmount(amountText, from), [amountText, from]);
  const rows = useMemo(
    () =>
      targets.map((code) => {
        const step = cash ? cashStep(code) : 1n;
        const converted = amount.ok ? convert(amount.value, code, rates, rounding, step) : null;
        const rate = crossRate(rates, from, code);
        const inverse = inverseRate(rates, from, code);
        return {
          code,
          converted: converted?.ok ? converted.value : null,
          rate: rate.ok ? rate.value : null,
          inverse: inverse.ok ? inverse.value : null,
          cashed: cash && hasCashRounding(code),
        };
      }),
    [targets, amount, rates, rounding, from, cash],
  );
  const width = fractionWidthFor(targets.map((c) => getCurrency(c)?.minorUnits ?? 0));

  // Only currencies with a rate that are not in the table yet can be added: nothing to refuse.
  const addable = useMemo(() => available.filter((c) => !targets.includes(c)), [available, targets]);

  return (
    <ToolCard
      id={`${ids}-title`}
      title="Convert"
      description={
        <>
          ECB euro reference rates of{" "}
          <time dateTime={rates.date} data-testid="rates-date">
            {rates.date}
          </time>{" "}
          (base {rates.base}). Each amount is converted exactly and rounded once.
        </>
      }
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <Field id={`${ids}-amount`} label="Amount" error={errorOf(amount)} errorLines={2}>
          {(props) => (
            <Input
              {...props}
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              onChange={(event) => setAmountText(event.target.value)}
              className="tabular"
            />
          )}
        </Field>
        <Field id={`${ids}-from`} label="From">
          {(props) => <CurrencyCombobox {...props} codes={available} value={from} onValueChange={setFrom} />}
        </Field>
      </div>

      <label className="-mt-1 mb-3 flex w-fit items-center gap-2 text-sm">
        <ChoiceInput
          type="checkbox"
          checked={cash}
          onChange={(event) => setCash(event.target.checked)}
          className="size-4 accent-primary"
        />
        Paid in cash: round to the coins (CHF 0.05, DKK 0.50, SEK 1)
      </label>

      {targets.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">
          No target currencies. Add one below, for example USD.
        </p>
      ) : (
        <div className="-mx-4 overflow-x-auto sm:mx-0">
          <table className="w-full text-sm" aria-label="Conversions">
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="py-2 pr-3 pl-4 font-medium sm:pl-0">
                  Currency
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Amount
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                  Rate and inverse
                </th>
                <th scope="col" className="py-2 pr-4 pl-1 sm:pr-0">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.code}
                  className="border-b border-border align-top"
                  data-testid={`convert-${row.code}`}
                >
                  <th scope="row" className="py-3 pr-3 pl-4 text-left font-normal sm:pl-0">
                    <span className="font-mono font-medium">{row.code}</span>
                    <span className="hidden text-xs text-muted-foreground sm:block" suppressHydrationWarning>
                      {currencyName(row.code)}
                    </span>
                    <span className="mt-1 block font-mono text-[11px] leading-4 text-muted-foreground sm:hidden">
                      <Rates from={from} to={row.code} rate={row.rate} inverse={row.inverse} phone />
                    </span>
                  </th>
                  <td className="px-3 py-3 text-right text-base font-medium">
                    {row.converted ? (
                      <>
                        <AlignedAmount text={fmt(row.converted)} fractionWidth={width} data-testid="amount" />
                        {row.cashed ? (
                          <span className="block text-xs font-normal text-muted-foreground">in cash</span>
                        ) : null}
                      </>
                    ) : (
                      <span className="text-muted-foreground">–</span>
                    )}
                  </td>
                  <td className="hidden px-3 py-3 font-mono text-xs text-muted-foreground sm:table-cell">
                    <Rates from={from} to={row.code} rate={row.rate} inverse={row.inverse} />
                  </td>
                  <td className="py-2 pr-4 pl-1 text-right sm:pr-0">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Remove ${row.code}`}
                      onClick={() => setTargets((t) => t.filter((c) => c !== row.code))}
                    >
                      <X aria-hidden />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="mt-4">
        <SaveCalculation
          calculation={
            amount.ok && rows.some((row) => row.converted)
              ? {
                  mode: "currency",
                  expression: rows
                    .map((row) => `${amountText.trim()} ${from} in ${row.code}${cash ? " cash" : ""}`)
                    .join("\n"),
                  precision: 20,
                  rounding,
                }
              : null
          }
        />
      </div>

      <div className="mt-6 max-w-sm">
        <Field id={`${ids}-add`} label="Add a currency">
          {(props) => (
            <CurrencyCombobox
              {...props}
              codes={addable}
              value=""
              placeholder={addable.length ? "Search by code or name…" : "Every currency is in the table"}
              disabled={addable.length === 0}
              onValueChange={(code) => setTargets((t) => (t.includes(code) ? t : [...t, code]))}
            />
          )}
        </Field>
      </div>
    </ToolCard>
  );
}

function Rates({
  from,
  to,
  rate,
  inverse,
  phone = false,
}: {
  from: string;
  to: string;
  rate: string | null;
  inverse: string | null;
  phone?: boolean;
}) {
  if (!rate || !inverse) return null;
  return (
    <>
      <span
        className={phone ? "block" : "block whitespace-nowrap"}
        title={rate}
        data-testid={phone ? undefined : "rate"}
      >
        1 {from} = <span className="tabular text-foreground">{shortRate(rate)}</span> {to}
      </span>
      <span
        className={phone ? "mt-0.5 block" : "block whitespace-nowrap"}
        title={inverse}
        data-testid={phone ? undefined : "inverse"}
      >
        1 {to} = <span className="tabular">{shortRate(inverse)}</span> {from}
      </span>
    </>
  );
}
