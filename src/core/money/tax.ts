/**
 * Tax and discount. Every function returns parts that add up exactly (net + tax = gross;
 * original - discount = final), because only one part is rounded and the other is the difference.
 *
 * Rates are decimal strings: a fraction ("0.2") or a percentage with a trailing "%" ("20%", "7.5%").
 */
import type { RoundingMode } from "../rounding";
import type { Money } from "./money";
import { parseScaled, pow10, roundDiv } from "./rational";

export interface TaxBreakdown {
  readonly net: Money;
  readonly tax: Money;
  readonly gross: Money;
}

export interface DiscountBreakdown {
  readonly original: Money;
  readonly discount: Money;
  readonly final: Money;
}

/** Parses "0.2" or "20%" into an exact fraction num/den with 0 ≤ rate; throws a RangeError otherwise. */
export function parseRate(rate: string): { num: bigint; den: bigint } {
  const t = rate.trim();
  const percent = t.endsWith("%");
  const body = percent ? t.slice(0, -1).trim() : t;
  const s = /^\+?(\d+(\.\d*)?|\.\d+)$/.test(body) ? parseScaled(body) : undefined;
  if (!s) throw new RangeError(`Not a rate: ${rate}`);
  return { num: s.num, den: pow10(s.scale) * (percent ? 100n : 1n) };
}

function m(amount: bigint, currency: string): Money {
  return Object.freeze({ amount, currency });
}

/** Adds tax at `rate` to a tax-exclusive amount: tax = round(net × rate), gross = net + tax. */
export function addTax(net: Money, rate: string, mode: RoundingMode = "half-even"): TaxBreakdown {
  const r = parseRate(rate);
  const tax = roundDiv(net.amount * r.num, r.den, mode);
  return { net, tax: m(tax, net.currency), gross: m(net.amount + tax, net.currency) };
}

/**
 * Extracts the tax contained in a tax-inclusive amount: tax = round(gross × rate / (1 + rate)),
 * net = gross - tax.
 */
export function extractTax(gross: Money, rate: string, mode: RoundingMode = "half-even"): TaxBreakdown {
  const r = parseRate(rate);
  const tax = roundDiv(gross.amount * r.num, r.den + r.num, mode);
  return { net: m(gross.amount - tax, gross.currency), tax: m(tax, gross.currency), gross };
}

/** A percentage or fractional discount: discount = round(original × rate), final = original - discount. */
export function applyDiscount(
  original: Money,
  rate: string,
  mode: RoundingMode = "half-even",
): DiscountBreakdown {
  const r = parseRate(rate);
  if (r.num > r.den) throw new RangeError("A discount cannot exceed 100%");
  const discount = roundDiv(original.amount * r.num, r.den, mode);
  return {
    original,
    discount: m(discount, original.currency),
    final: m(original.amount - discount, original.currency),
  };
}
