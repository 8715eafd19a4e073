/**
 * Money: an integer number of minor units (bigint) plus an ISO 4217 code. Amounts are parsed from and
 * written to decimal strings that keep the currency's minor digits ("38.120" BHD, "15234" JPY).
 * Nothing here uses binary floating point.
 */
import type Decimal from "decimal.js";
import type { RoundingMode } from "../rounding";
import { getCurrency } from "./currencies";
import { parseScaled, pow10, roundDiv, scaledToString } from "./rational";

export interface Money {
  /** The amount in minor units: 12.34 USD is 1234n, 15234 JPY is 15234n, 38.120 BHD is 38120n. */
  readonly amount: bigint;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
}

export interface MoneyError {
  readonly code:
    | "unknown_currency"
    | "invalid_amount"
    | "too_many_decimals"
    | "amount_too_large"
    | "no_rate"
    | "invalid_rate"
    | "invalid_file";
  readonly message: string;
  /** 1-based line of the offending input, for file parsers. */
  readonly line?: number;
}

export type MoneyResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: MoneyError };

/** Largest number of integer digits an amount may have (a guard against pathological input). */
export const MAX_AMOUNT_DIGITS = 60;

function canonicalCode(currency: string): string {
  const c = getCurrency(currency);
  if (!c) throw new RangeError(`Unknown currency ${currency}`);
  return c.code;
}

/** Builds a Money from minor units; throws a RangeError for an unknown currency. */
export function money(amount: bigint, currency: string): Money {
  return Object.freeze({ amount, currency: canonicalCode(currency) });
}

export function zero(currency: string): Money {
  return money(0n, currency);
}

const AMOUNT_RE = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)$/;

/**
 * Parses a decimal amount ("1234.5", "-0.05", "1_000") in a currency. With more fraction digits than the
 * currency has minor units, the amount is rounded with `rounding` when given, otherwise it is an error.
 */
export function parseMoney(text: string, currency: string, rounding?: RoundingMode): MoneyResult<Money> {
  const cur = getCurrency(currency);
  if (!cur)
    return { ok: false, error: { code: "unknown_currency", message: `Unknown currency ${currency}` } };
  const trimmed = text.trim();
  if (!AMOUNT_RE.test(trimmed)) {
    return { ok: false, error: { code: "invalid_amount", message: `"${text}" is not a decimal amount` } };
  }
  const scaled = parseScaled(trimmed.replace(/_/g, ""));
  if (!scaled) return { ok: false, error: { code: "amount_too_large", message: "The amount is too large" } };
  if (scaled.scale > cur.minorUnits && !rounding) {
    const exact = roundDiv(scaled.num, pow10(scaled.scale - cur.minorUnits), "down");
    if (exact * pow10(scaled.scale - cur.minorUnits) !== scaled.num) {
      return {
        ok: false,
        error: {
          code: "too_many_decimals",
          message: `${cur.code} has ${cur.minorUnits} decimal place${cur.minorUnits === 1 ? "" : "s"}`,
        },
      };
    }
  }
  const amount = toMinor(scaled.num, scaled.scale, cur.minorUnits, rounding ?? "half-even");
  if (integerDigits(amount, cur.minorUnits) > MAX_AMOUNT_DIGITS) {
    return { ok: false, error: { code: "amount_too_large", message: "The amount is too large" } };
  }
  return { ok: true, value: Object.freeze({ amount, currency: cur.code }) };
}

function integerDigits(amount: bigint, minor: number): number {
  const abs = amount < 0n ? -amount : amount;
  return Math.max(0, abs.toString().length - minor);
}

function toMinor(num: bigint, scale: number, minor: number, mode: RoundingMode): bigint {
  return scale <= minor ? num * pow10(minor - scale) : roundDiv(num, pow10(scale - minor), mode);
}

/**
 * Rounds a decimal value (a decimal string or a decimal.js Decimal) to the currency's minor units with the
 * rounding mode, exactly. Throws a RangeError for a non-finite or absurdly large value or unknown currency.
 */
export function roundToMoney(
  value: string | Decimal,
  currency: string,
  mode: RoundingMode = "half-even",
): Money {
  const code = canonicalCode(currency);
  const minor = getCurrency(code)?.minorUnits ?? 0;
  const text = typeof value === "string" ? value : value.toString();
  const scaled = parseScaled(text);
  if (!scaled) throw new RangeError(`Not a finite decimal within range: ${text.slice(0, 40)}`);
  const amount = toMinor(scaled.num, scaled.scale, minor, mode);
  if (integerDigits(amount, minor) > MAX_AMOUNT_DIGITS) throw new RangeError("The amount is too large");
  return Object.freeze({ amount, currency: code });
}

/** The amount as a plain decimal string with exactly the currency's minor digits: "38.120", "15234", "-0.05". */
export function toDecimalString(m: Money): string {
  return scaledToString(m.amount, getCurrency(m.currency)?.minorUnits ?? 0);
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new RangeError(`Currency mismatch: ${a.currency} and ${b.currency}`);
}

export function add(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return Object.freeze({ amount: a.amount + b.amount, currency: a.currency });
}

export function subtract(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return Object.freeze({ amount: a.amount - b.amount, currency: a.currency });
}

export function negate(a: Money): Money {
  return Object.freeze({ amount: -a.amount, currency: a.currency });
}

/** Sum of amounts of one currency (`currency` names it when the list may be empty). */
export function sum(parts: readonly Money[], currency?: string): Money {
  const code = currency ? canonicalCode(currency) : parts[0]?.currency;
  if (!code) throw new RangeError("sum of no parts needs a currency");
  let total = 0n;
  for (const p of parts) {
    if (p.currency !== code) throw new RangeError(`Currency mismatch: ${code} and ${p.currency}`);
    total += p.amount;
  }
  return Object.freeze({ amount: total, currency: code });
}

/** -1, 0 or 1; throws on a currency mismatch. */
export function compare(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  return a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0;
}

export function equals(a: Money, b: Money): boolean {
  return a.currency === b.currency && a.amount === b.amount;
}

/** Multiplies by a decimal factor ("1.5", "0.2") and rounds to minor units: exact before the rounding. */
export function multiply(a: Money, factor: string, mode: RoundingMode = "half-even"): Money {
  const f = parseScaled(factor);
  if (!f) throw new RangeError(`Not a decimal factor: ${factor}`);
  return Object.freeze({ amount: roundDiv(a.amount * f.num, pow10(f.scale), mode), currency: a.currency });
}
