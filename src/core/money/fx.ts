/**
 * Currency conversion through a rate table quoted against a base (the ECB's: EUR). `rates[X]` is the
 * number of units of X for one unit of the base; the base's own rate is 1 and may be omitted.
 *
 * - The cross rate from A to B is rates[B] / rates[A], shown to WORKING_PRECISION (34) significant
 *   digits, half-even; the inverse rate is rates[A] / rates[B] the same way.
 * - A conversion is computed exactly as a fraction (amount × rates[B] / rates[A], in minor units) and
 *   rounded once to the target's minor units with the rounding mode (default half-even). It is never
 *   computed from the shortened cross rate, so it carries no intermediate rounding.
 */
import Decimal from "decimal.js";
import type { RoundingMode } from "../rounding";
import { getCurrency } from "./currencies";
import type { Money, MoneyResult } from "./money";
import { parseScaled, pow10, roundDiv } from "./rational";

export interface RateTable {
  /** The currency every rate is quoted against: "EUR" for ECB data. */
  readonly base: string;
  /** The rates' date, YYYY-MM-DD. */
  readonly date: string;
  /** Units of each currency per one unit of the base, as positive decimal strings: { USD: "1.0815" }. */
  readonly rates: Readonly<Record<string, string>>;
}

/** Significant digits of displayed cross rates and inverse rates. */
export const WORKING_PRECISION = 34;

const Working = Decimal.clone({ precision: WORKING_PRECISION, rounding: Decimal.ROUND_HALF_EVEN });

interface Fraction {
  num: bigint;
  den: bigint;
}

function rateOf(table: RateTable, code: string): MoneyResult<Fraction> {
  const upper = code.toUpperCase();
  if (!getCurrency(upper))
    return { ok: false, error: { code: "unknown_currency", message: `Unknown currency ${code}` } };
  if (upper === table.base.toUpperCase()) return { ok: true, value: { num: 1n, den: 1n } };
  const text = table.rates[upper];
  if (text === undefined) {
    return {
      ok: false,
      error: { code: "no_rate", message: `No exchange rate for ${upper} on ${table.date}` },
    };
  }
  const s = parseScaled(text);
  if (!s || s.num <= 0n) {
    return {
      ok: false,
      error: { code: "invalid_rate", message: `The rate for ${upper} is not a positive decimal` },
    };
  }
  return { ok: true, value: { num: s.num, den: pow10(s.scale) } };
}

/** Whether the table can convert to and from this currency. */
export function hasRate(table: RateTable, code: string): boolean {
  return rateOf(table, code).ok;
}

/** The codes the table can convert between (the base included), sorted. */
export function rateCurrencies(table: RateTable): string[] {
  return [...new Set([table.base.toUpperCase(), ...Object.keys(table.rates)])].sort();
}

function crossFraction(table: RateTable, from: string, to: string): MoneyResult<Fraction> {
  const a = rateOf(table, from);
  if (!a.ok) return a;
  const b = rateOf(table, to);
  if (!b.ok) return b;
  // (b.num / b.den) / (a.num / a.den)
  return { ok: true, value: { num: b.value.num * a.value.den, den: b.value.den * a.value.num } };
}

function fractionToString(f: Fraction): string {
  return new Working(f.num.toString()).div(f.den.toString()).toString();
}

/** Units of `to` per unit of `from`, to 34 significant digits (a decimal string). */
export function crossRate(table: RateTable, from: string, to: string): MoneyResult<string> {
  const f = crossFraction(table, from, to);
  return f.ok ? { ok: true, value: fractionToString(f.value) } : f;
}

/** Units of `from` per unit of `to`: the inverse of `crossRate(table, from, to)`, to 34 significant digits. */
export function inverseRate(table: RateTable, from: string, to: string): MoneyResult<string> {
  return crossRate(table, to, from);
}

/**
 * The exact cross rate as a fraction of two decimal-string integers, for callers (like the expression
 * evaluator) that compute at their own precision.
 */
export function crossRateFraction(
  table: RateTable,
  from: string,
  to: string,
): MoneyResult<{ num: string; den: string }> {
  const f = crossFraction(table, from, to);
  return f.ok ? { ok: true, value: { num: f.value.num.toString(), den: f.value.den.toString() } } : f;
}

/** Converts money to another currency, exactly, then rounds once to the target's minor units. */
export function convert(
  amount: Money,
  to: string,
  table: RateTable,
  mode: RoundingMode = "half-even",
  /** Round to a whole number of this many minor units (a cash increment, cash.ts `cashStep`). */
  step = 1n,
): MoneyResult<Money> {
  const target = getCurrency(to);
  if (!target) return { ok: false, error: { code: "unknown_currency", message: `Unknown currency ${to}` } };
  const source = getCurrency(amount.currency);
  if (!source)
    return { ok: false, error: { code: "unknown_currency", message: `Unknown currency ${amount.currency}` } };
  const f = crossFraction(table, source.code, target.code);
  if (!f.ok) return f;
  // amount.amount / 10^ms × num/den × 10^mt  (minor units of the target)
  let num = amount.amount * f.value.num;
  let den = f.value.den;
  const shift = target.minorUnits - source.minorUnits;
  if (shift >= 0) num *= pow10(shift);
  else den *= pow10(-shift);
  // one rounding, straight to the step: rounding to minor units first and then to the step can
  // move a value across the step's midpoint (12.245 DKK → 12.25 → 12.50, but 12.245 is nearer 12.00)
  const s = step > 0n ? step : 1n;
  return {
    ok: true,
    value: Object.freeze({ amount: roundDiv(num, den * s, mode) * s, currency: target.code }),
  };
}
