/**
 * Cash rounding: the smallest amount a currency's coins can pay, which for some currencies is coarser
 * than its minor unit (CHF: 0.05; DKK: 0.50; SEK: 1). The increments come from CLDR's supplemental
 * currency data (`_cashRounding`, `_cashDigits`) in the `cldr-core` package, copied into
 * data/cash-rounding.json so the browser does not load CLDR's whole table; cash.test.ts derives the copy
 * from the installed package again and fails while they differ.
 */
import { roundDiv } from "../bigint";
import type { RoundingMode } from "../rounding";
import { getCurrency } from "./currencies";
import cash from "./data/cash-rounding.json";
import type { Money } from "./money";

/** CLDR's `currencyData.fractions` entries: digits and rounding, for accounting and for cash. */
export type CldrFractions = Readonly<
  Record<
    string,
    {
      readonly _digits?: string;
      readonly _rounding?: string;
      readonly _cashDigits?: string;
      readonly _cashRounding?: string;
    }
  >
>;

/**
 * The cash increments CLDR gives, as decimal strings: { CHF: "0.05", DKK: "0.5", SEK: "1" }. A
 * rounding of 0 means none beyond the digits (an increment of one unit of the last digit).
 */
export function cashIncrementsFromCldr(fractions: CldrFractions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, f] of Object.entries(fractions)) {
    if (f._cashRounding === undefined && f._cashDigits === undefined) continue;
    const digits = Number(f._cashDigits ?? f._digits ?? "2");
    const step = Number(f._cashRounding ?? f._rounding ?? "0") || 1;
    out[code] = scaledText(BigInt(step), digits);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function scaledText(n: bigint, scale: number): string {
  if (scale === 0) return n.toString();
  const s = n.toString().padStart(scale + 1, "0");
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`.replace(/\.?0+$/, "");
}

/** Where the table comes from. */
export const CASH_SOURCE: string = cash.source;

const INCREMENTS: Readonly<Record<string, string>> = cash.increments;

/**
 * A currency's cash increment in its minor units (CHF: 5, i.e. 0.05; SEK: 100, i.e. 1.00), or 1 when
 * its coins pay every minor unit. Undefined for an unknown currency.
 */
export function cashStep(currency: string): bigint | undefined {
  const c = getCurrency(currency);
  if (!c) return undefined;
  const inc = INCREMENTS[c.code];
  if (inc === undefined) return 1n;
  const [whole = "0", frac = ""] = inc.split(".");
  // an increment finer than the minor unit (none in CLDR today) cannot be paid either: one minor unit
  if (frac.length > c.minorUnits) return 1n;
  const step = BigInt(whole + frac.padEnd(c.minorUnits, "0"));
  return step > 0n ? step : 1n;
}

/** Whether cash rounding changes anything for the currency (its coins do not pay every minor unit). */
export function hasCashRounding(currency: string): boolean {
  return (cashStep(currency) ?? 1n) > 1n;
}

/** The amount as paid in cash: rounded to the currency's cash increment with the mode. */
export function roundToCash(m: Money, mode: RoundingMode = "half-up"): Money {
  const step = cashStep(m.currency) ?? 1n;
  if (step === 1n) return m;
  return Object.freeze({ amount: roundDiv(m.amount, step, mode) * step, currency: m.currency });
}

/**
 * Divides an amount paid in cash: the total is rounded to the cash increment first, and `divide` works
 * on whole increments, so every part can be paid in coins and the parts still add up to the total.
 */
export function divideInCash(
  total: Money,
  divide: (total: Money) => Money[],
  mode: RoundingMode = "half-up",
): { total: Money; parts: Money[] } {
  const step = cashStep(total.currency) ?? 1n;
  const paid = roundToCash(total, mode);
  if (step === 1n) return { total: paid, parts: divide(paid) };
  const inSteps = divide(Object.freeze({ amount: paid.amount / step, currency: paid.currency }));
  return {
    total: paid,
    parts: inSteps.map((p) => Object.freeze({ amount: p.amount * step, currency: p.currency })),
  };
}
