"use client";

import { Check } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { ChoiceInput } from "@/components/ui/choice-input";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { RoundingMode } from "@/core/decimal";
import {
  addTax,
  allocate,
  applyDiscount,
  CURRENCIES,
  divideInCash,
  extractTax,
  getCurrency,
  hasCashRounding,
  type Money,
  roundToCash,
  split,
  sum,
} from "@/core/money";
import { errorOf, parseAmount, parseParts, parseRatios, parseTaxRate } from "@/core/money/input";
import { AlignedAmount, fractionWidthFor, Segmented } from "./controls";
import { fmt } from "./money-format";
import { ToolCard } from "./tool-card";

const ALL_CODES = CURRENCIES.map((c) => c.code);

export function MoneyTools({
  rounding,
  defaultCurrency = null,
}: {
  rounding: RoundingMode;
  defaultCurrency?: string | null;
}) {
  const ids = useId();
  const startCurrency = defaultCurrency && getCurrency(defaultCurrency) ? defaultCurrency : "EUR";
  const [amountText, setAmountText] = useState(
    (getCurrency(startCurrency)?.minorUnits ?? 2) > 0 ? "100.00" : "100",
  );
  const [currency, setCurrency] = useState(startCurrency);
  const [taxMode, setTaxMode] = useState<"add" | "extract">("add");
  const [taxText, setTaxText] = useState("20%");
  const [discountText, setDiscountText] = useState("10%");
  const [splitMode, setSplitMode] = useState<"equal" | "ratios">("equal");
  const [partsText, setPartsText] = useState("3");
  const [ratiosText, setRatiosText] = useState("1:2:3");
  const [cash, setCash] = useState(false);

  const amount = parseAmount(amountText, currency);
  const total = amount.ok ? amount.value : null;
  const minor = getCurrency(currency)?.minorUnits ?? 0;
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
  const cashed = cash && hasCashRounding(currency);
  let pieces: Money[] | null = null;
  let splitTotal = total;
  if (total && splitInput.ok) {
    const divide = (t: Money) =>
      splitMode === "equal" && parts.ok ? split(t, parts.value) : ratios.ok ? allocate(t, ratios.value) : [];
    const divided = cashed ? divideInCash(total, divide, rounding) : { total, parts: divide(total) };
    splitTotal = divided.total;
    pieces = divided.parts.length > 0 ? divided.parts : null;
  }
  const pieceSum = pieces && total ? sum(pieces, total.currency) : null;
  /** The row that says what is paid in coins, under a total, when cash is asked for and matters. */
  const inCash = (m: Money) =>
    cashed ? [{ label: "In cash", money: roundToCash(m, rounding), total: true }] : [];

  return (
    <ToolCard
      id={`${ids}-title`}
      title="Money tools"
      description="Tax, discount and split in any ISO 4217 currency, on whole minor units: the parts always add up exactly."
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_16rem]">
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
        <Field id={`${ids}-currency`} label="Currency">
          {(props) => (
            <CurrencyCombobox {...props} codes={ALL_CODES} value={currency} onValueChange={setCurrency} />
          )}
        </Field>
      </div>

      <label className="-mt-1 flex w-fit items-center gap-2 text-sm">
        <ChoiceInput
          type="checkbox"
          checked={cash}
          onChange={(event) => setCash(event.target.checked)}
          className="size-4 accent-primary"
        />
        Paid in cash: round totals and parts to the coins
      </label>

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
                    ...inCash(tax.gross),
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
                    ...inCash(discount.final),
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
              pieceSum && splitTotal
                ? {
                    ok: pieceSum.amount === splitTotal.amount,
                    text: cashed
                      ? `The parts add up to the amount paid in cash, ${fmt(splitTotal)}`
                      : "The parts add up to the amount",
                  }
                : null
            }
          />
        </Tool>
      </div>
    </ToolCard>
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
