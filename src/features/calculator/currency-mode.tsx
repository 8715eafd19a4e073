"use client";

import { Check, Plus, X } from "lucide-react";
import type * as React from "react";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Label, NativeSelect } from "@/components/ui/input";
import type { RoundingMode } from "@/core/decimal";
import {
  addTax,
  allocate,
  applyDiscount,
  CURRENCIES,
  convert,
  crossRate,
  extractTax,
  formatMoney,
  getCurrency,
  hasRate,
  inverseRate,
  type Money,
  parseMoney,
  parseRate,
  type RateTable,
  rateCurrencies,
  split,
  sum,
} from "@/core/money";
import { AlignedAmount, fractionWidthFor, RoundingSelect, Segmented } from "./controls";

/** Display locale: fixed, so the server's and the browser's renderings agree. */
const LOCALE = "en-US";
const DEFAULT_TARGETS = ["USD", "GBP", "JPY"];
/** Most parts or ratios the split tool shows. */
export const MAX_SPLIT_PARTS = 1000;

const fmt = (m: Money) => formatMoney(m, { locale: LOCALE });

function currencyName(code: string): string {
  return getCurrency(code)?.name ?? code;
}

/** A rate shortened to 10 significant digits for the table ("…" marks a cut, never a rounding). */
function shortRate(rate: string): string {
  if (/e/i.test(rate)) return rate;
  const first = rate.search(/[1-9]/);
  if (first < 0) return rate;
  let digits = 0;
  for (let i = first; i < rate.length; i++) {
    if (/\d/.test(rate[i] ?? "")) digits++;
    if (digits === 10) return i + 1 < rate.length ? `${rate.slice(0, i + 1)}…` : rate;
  }
  return rate;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseAmount(text: string, currency: string): Parsed<Money> {
  if (text.trim() === "") return { ok: false, error: "Enter an amount" };
  const r = parseMoney(text.replace(/,/g, ""), currency);
  return r.ok ? r : { ok: false, error: r.error.message };
}

function parseCode(text: string): Parsed<string> {
  const t = text.trim();
  if (t === "") return { ok: false, error: "Enter a currency code, for example CHF" };
  const c = getCurrency(t);
  return c ? { ok: true, value: c.code } : { ok: false, error: `Unknown currency ${t.toUpperCase()}` };
}

function parseTaxRate(text: string): Parsed<string> {
  try {
    parseRate(text);
    return { ok: true, value: text.trim() };
  } catch {
    return { ok: false, error: "Enter a rate such as 20% or 0.2" };
  }
}

function parseRatios(text: string): Parsed<string[]> {
  const items = text
    .trim()
    .split(/\s*[:,;/]\s*|\s+/)
    .filter((s) => s !== "");
  if (items.length < 1) return { ok: false, error: "Enter ratios such as 1:2:3 or 50,30,20" };
  if (items.length > MAX_SPLIT_PARTS) return { ok: false, error: `Give at most ${MAX_SPLIT_PARTS} ratios` };
  for (const [i, item] of items.entries()) {
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(item)) {
      return { ok: false, error: `Ratio ${i + 1} (${item}) is not a number of zero or more` };
    }
  }
  if (items.every((s) => /^[0.]*$/.test(s)))
    return { ok: false, error: "At least one ratio must be above zero" };
  return { ok: true, value: items };
}

function parseParts(text: string): Parsed<number> {
  const t = text.trim();
  const n = Number(t);
  if (!/^\d+$/.test(t) || n < 1 || n > MAX_SPLIT_PARTS) {
    return { ok: false, error: `Enter a whole number of parts from 1 to ${MAX_SPLIT_PARTS}` };
  }
  return { ok: true, value: n };
}

const errorOf = <T,>(p: Parsed<T>) => (p.ok ? undefined : p.error);

/**
 * Currency mode: converts an amount to several currencies with the instance's FX table (passed from
 * the server, so no request is needed), and the money tools (tax, discount, split). All arithmetic is
 * exact on integer minor units; each result is rounded once, with the chosen mode.
 */
export function CurrencyMode({ rates }: { rates: RateTable | null }) {
  const ids = useId();
  const [rounding, setRounding] = useState<RoundingMode>("half-even");
  return (
    <div className="grid gap-6">
      <div className="grid items-center gap-x-4 gap-y-2 sm:grid-cols-[auto_20rem_minmax(0,1fr)]">
        <Label htmlFor={`${ids}-rounding`}>Rounding</Label>
        <RoundingSelect id={`${ids}-rounding`} value={rounding} onChange={setRounding} />
        <p className="text-xs text-muted-foreground">
          Used for conversions, tax and discounts; each result is rounded once, to the currency&apos;s minor
          units.
        </p>
      </div>
      {rates?.date ? (
        <Converter rates={rates} rounding={rounding} />
      ) : (
        <p className="rounded-lg border border-border bg-card p-6 text-sm text-muted-foreground">
          Exchange rates could not be loaded, so conversion is unavailable. The money tools below still work.
        </p>
      )}
      <MoneyTools rounding={rounding} />
    </div>
  );
}

function Card({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border border-border bg-card p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      <div className="mt-6">{children}</div>
    </section>
  );
}

function Converter({ rates, rounding }: { rates: RateTable; rounding: RoundingMode }) {
  const ids = useId();
  const available = useMemo(() => rateCurrencies(rates), [rates]);
  const [amountText, setAmountText] = useState("100");
  const [from, setFrom] = useState(available.includes("EUR") ? "EUR" : (available[0] ?? "EUR"));
  const [targets, setTargets] = useState(() => DEFAULT_TARGETS.filter((c) => available.includes(c)));
  const [addText, setAddText] = useState("");
  const [addError, setAddError] = useState<string | undefined>();

  const amount = useMemo(() => parseAmount(amountText, from), [amountText, from]);
  const rows = useMemo(
    () =>
      targets.map((code) => {
        const converted = amount.ok ? convert(amount.value, code, rates, rounding) : null;
        const rate = crossRate(rates, from, code);
        const inverse = inverseRate(rates, from, code);
        return {
          code,
          converted: converted?.ok ? converted.value : null,
          rate: rate.ok ? rate.value : null,
          inverse: inverse.ok ? inverse.value : null,
        };
      }),
    [targets, amount, rates, rounding, from],
  );
  const width = fractionWidthFor(targets.map((c) => getCurrency(c)?.minorUnits ?? 0));

  function add() {
    const code = parseCode(addText);
    if (!code.ok) return setAddError(code.error);
    if (!hasRate(rates, code.value)) {
      return setAddError(`No exchange rate for ${code.value} on ${rates.date}`);
    }
    if (targets.includes(code.value)) return setAddError(`${code.value} is already in the list`);
    setTargets((t) => [...t, code.value]);
    setAddText("");
    setAddError(undefined);
  }

  return (
    <Card
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
        <Field id={`${ids}-amount`} label="Amount" error={errorOf(amount)}>
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
          {(props) => (
            <NativeSelect {...props} value={from} onChange={(event) => setFrom(event.target.value)}>
              {available.map((code) => (
                <option key={code} value={code}>
                  {code} · {currencyName(code)}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>

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
                    <span className="hidden text-xs text-muted-foreground sm:block">
                      {currencyName(row.code)}
                    </span>
                    <span className="mt-1 block font-mono text-[11px] leading-4 text-muted-foreground sm:hidden">
                      <Rates from={from} to={row.code} rate={row.rate} inverse={row.inverse} phone />
                    </span>
                  </th>
                  <td className="px-3 py-3 text-right text-base font-medium">
                    {row.converted ? (
                      <AlignedAmount text={fmt(row.converted)} fractionWidth={width} data-testid="amount" />
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

      <div className="mt-6 flex max-w-md items-start gap-2">
        <div className="min-w-0 flex-1">
          <Field id={`${ids}-add`} label="Add a currency" error={addError}>
            {(props) => (
              <Input
                {...props}
                list={`${ids}-codes`}
                autoComplete="off"
                autoCapitalize="characters"
                placeholder="CHF"
                value={addText}
                onChange={(event) => {
                  setAddText(event.target.value);
                  setAddError(undefined);
                }}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    add();
                  }
                }}
                className="font-mono uppercase placeholder:normal-case"
              />
            )}
          </Field>
          <datalist id={`${ids}-codes`}>
            {available
              .filter((c) => !targets.includes(c))
              .map((code) => (
                <option key={code} value={code}>
                  {currencyName(code)}
                </option>
              ))}
          </datalist>
        </div>
        <Button type="button" variant="outline" className="mt-6" onClick={add}>
          <Plus aria-hidden />
          Add
        </Button>
      </div>
    </Card>
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

function MoneyTools({ rounding }: { rounding: RoundingMode }) {
  const ids = useId();
  const [amountText, setAmountText] = useState("100.00");
  const [currencyText, setCurrencyText] = useState("EUR");
  const [taxMode, setTaxMode] = useState<"add" | "extract">("add");
  const [taxText, setTaxText] = useState("20%");
  const [discountText, setDiscountText] = useState("10%");
  const [splitMode, setSplitMode] = useState<"equal" | "ratios">("equal");
  const [partsText, setPartsText] = useState("3");
  const [ratiosText, setRatiosText] = useState("1:2:3");

  const currency = parseCode(currencyText);
  const amount = currency.ok ? parseAmount(amountText, currency.value) : null;
  const total = amount?.ok ? amount.value : null;
  const minor = currency.ok ? (getCurrency(currency.value)?.minorUnits ?? 0) : 0;
  const width = fractionWidthFor([minor]);

  const taxRate = parseTaxRate(taxText);
  const tax =
    total && taxRate.ok ? (taxMode === "add" ? addTax : extractTax)(total, taxRate.value, rounding) : null;

  const discountRate = parseTaxRate(discountText);
  let discountError = errorOf(discountRate);
  let discount: ReturnType<typeof applyDiscount> | null = null;
  if (total && discountRate.ok) {
    try {
      discount = applyDiscount(total, discountRate.value, rounding);
    } catch (err) {
      discountError = err instanceof Error ? err.message : String(err);
    }
  }

  const parts = parseParts(partsText);
  const ratios = parseRatios(ratiosText);
  const splitInput = splitMode === "equal" ? parts : ratios;
  let pieces: Money[] | null = null;
  if (total && splitInput.ok) {
    pieces =
      splitMode === "equal" && parts.ok
        ? split(total, parts.value)
        : ratios.ok
          ? allocate(total, ratios.value)
          : null;
  }
  const pieceSum = pieces && total ? sum(pieces, total.currency) : null;

  return (
    <Card
      id={`${ids}-title`}
      title="Money tools"
      description="Tax, discount and split in any ISO 4217 currency, on whole minor units: the parts always add up exactly."
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
        <Field id={`${ids}-amount`} label="Amount" error={amount ? errorOf(amount) : undefined}>
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
        <Field id={`${ids}-currency`} label="Currency" error={errorOf(currency)}>
          {(props) => (
            <Input
              {...props}
              list={`${ids}-iso`}
              autoComplete="off"
              autoCapitalize="characters"
              value={currencyText}
              onChange={(event) => setCurrencyText(event.target.value)}
              className="font-mono uppercase"
            />
          )}
        </Field>
        <datalist id={`${ids}-iso`}>
          {CURRENCIES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </datalist>
      </div>

      <div className="mt-2 grid gap-6 lg:grid-cols-3">
        <Tool title="Tax" id={`${ids}-tax`}>
          <Segmented
            legend="Amount is"
            name={`${ids}-tax-mode`}
            value={taxMode}
            onChange={setTaxMode}
            options={[
              { value: "add", label: "Before tax" },
              { value: "extract", label: "Tax included" },
            ]}
          />
          <Field id={`${ids}-tax-rate`} label="Tax rate" error={errorOf(taxRate)}>
            {(props) => (
              <Input
                {...props}
                autoComplete="off"
                value={taxText}
                onChange={(event) => setTaxText(event.target.value)}
                className="tabular"
              />
            )}
          </Field>
          <Breakdown
            label="Tax breakdown"
            testId="tax"
            width={width}
            rows={
              tax
                ? [
                    { label: "Net", money: tax.net },
                    { label: "Tax", money: tax.tax },
                    { label: "Gross", money: tax.gross, total: true },
                  ]
                : null
            }
            check={
              tax
                ? { ok: tax.net.amount + tax.tax.amount === tax.gross.amount, text: "Net + tax = gross" }
                : null
            }
          />
        </Tool>

        <Tool title="Discount" id={`${ids}-discount`}>
          <Field
            id={`${ids}-discount-rate`}
            label="Discount"
            hint="A percentage (10%) or a fraction (0.1)"
            error={discountError}
          >
            {(props) => (
              <Input
                {...props}
                autoComplete="off"
                value={discountText}
                onChange={(event) => setDiscountText(event.target.value)}
                className="tabular"
              />
            )}
          </Field>
          <Breakdown
            label="Discount breakdown"
            testId="discount"
            width={width}
            rows={
              discount
                ? [
                    { label: "Original", money: discount.original },
                    { label: "Discount", money: { ...discount.discount, amount: -discount.discount.amount } },
                    { label: "Final", money: discount.final, total: true },
                  ]
                : null
            }
            check={
              discount
                ? {
                    ok: discount.original.amount - discount.discount.amount === discount.final.amount,
                    text: "Original − discount = final",
                  }
                : null
            }
          />
        </Tool>

        <Tool title="Split" id={`${ids}-split`}>
          <Segmented
            legend="Split into"
            name={`${ids}-split-mode`}
            value={splitMode}
            onChange={setSplitMode}
            options={[
              { value: "equal", label: "Equal parts" },
              { value: "ratios", label: "By ratios" },
            ]}
          />
          {splitMode === "equal" ? (
            <Field id={`${ids}-parts`} label="Number of parts" error={errorOf(parts)}>
              {(props) => (
                <Input
                  {...props}
                  inputMode="numeric"
                  autoComplete="off"
                  value={partsText}
                  onChange={(event) => setPartsText(event.target.value)}
                  className="tabular"
                />
              )}
            </Field>
          ) : (
            <Field
              id={`${ids}-ratios`}
              label="Ratios"
              hint="For example 1:2:3 or 50,30,20"
              error={errorOf(ratios)}
            >
              {(props) => (
                <Input
                  {...props}
                  autoComplete="off"
                  value={ratiosText}
                  onChange={(event) => setRatiosText(event.target.value)}
                  className="tabular"
                />
              )}
            </Field>
          )}
          <Breakdown
            label="Parts"
            testId="parts"
            width={width}
            scroll
            rows={
              pieces && pieceSum
                ? [
                    ...pieces.map((money, i) => ({ label: `Part ${i + 1}`, money })),
                    { label: "Sum", money: pieceSum, total: true },
                  ]
                : null
            }
            check={
              pieceSum && total
                ? { ok: pieceSum.amount === total.amount, text: "The parts add up to the amount" }
                : null
            }
          />
        </Tool>
      </div>
    </Card>
  );
}

function Tool({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid content-start gap-3 rounded-md border border-border p-4">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Breakdown({
  label,
  testId,
  rows,
  check,
  width,
  scroll = false,
}: {
  label: string;
  testId: string;
  rows: { label: string; money: Money; total?: boolean }[] | null;
  check: { ok: boolean; text: string } | null;
  width: number;
  scroll?: boolean;
}) {
  if (!rows) {
    return <p className="min-h-24 text-sm text-muted-foreground">Fix the input above to see the result.</p>;
  }
  return (
    <div className="grid gap-2">
      <div className={scroll ? "max-h-72 overflow-y-auto" : undefined}>
        <table className="w-full text-sm" aria-label={label}>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label} className={row.total ? "border-t border-border font-semibold" : undefined}>
                <th scope="row" className="py-1 pr-3 text-left font-normal text-muted-foreground">
                  {row.label}
                </th>
                <td
                  className="py-1 text-right"
                  data-testid={`${testId}-${row.label.toLowerCase().replace(/\s+/g, "-")}`}
                >
                  <AlignedAmount text={fmt(row.money)} fractionWidth={width} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {check ? (
        <p className={`flex items-center gap-1.5 text-xs ${check.ok ? "text-success" : "text-destructive"}`}>
          <Check className="size-3.5" aria-hidden />
          {check.text}
          {check.ok ? "" : " (mismatch)"}
        </p>
      ) : null}
    </div>
  );
}
