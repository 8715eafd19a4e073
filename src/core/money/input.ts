import { getCurrency } from "./currencies";
import { type Money, parseMoney, roundToMoney, toDecimalString } from "./money";
import { parseRate } from "./tax";

/**
 * Parsing of what people type into the money tools: amounts, currency codes, tax rates, split
 * ratios and part counts. Each answers a value or a message to show under the field.
 */

/** Most parts or ratios the split tool takes. */
export const MAX_SPLIT_PARTS = 1000;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Parses an amount typed in a currency. The decimal-places rule, the same in the converter, the money
 * tools and the API (`parseMoney` enforces it; docs: Currencies and rounding):
 *
 *   An amount may have more decimal places than its currency only when the extra ones are zeros
 *   ("100.00 JPY" is 100 yen exactly). Anything finer ("1234.565 EUR") is refused, never rounded: the
 *   rounding mode applies to results, so every result is rounded exactly once.
 */
export function parseAmount(text: string, currency: string): Parsed<Money> {
  if (text.trim() === "") return { ok: false, error: "Enter an amount" };
  const clean = text.replace(/,/g, "").trim();
  const r = parseMoney(clean, currency);
  if (r.ok) return r;
  if (r.error.code === "invalid_amount") return { ok: false, error: "Enter a number, for example 1234.56" };
  if (r.error.code === "too_many_decimals") {
    // The two amounts of the currency either side of what was typed: what the person may have meant.
    const below = toDecimalString(roundToMoney(clean.replace(/_/g, ""), currency, "floor"));
    const above = toDecimalString(roundToMoney(clean.replace(/_/g, ""), currency, "ceil"));
    return { ok: false, error: `${r.error.message}: enter ${below} or ${above}` };
  }
  return { ok: false, error: r.error.message };
}

export function parseCode(text: string): Parsed<string> {
  const t = text.trim();
  if (t === "") return { ok: false, error: "Enter a currency code, for example CHF" };
  const c = getCurrency(t);
  return c ? { ok: true, value: c.code } : { ok: false, error: `Unknown currency ${t.toUpperCase()}` };
}

export function parseTaxRate(text: string): Parsed<string> {
  try {
    parseRate(text);
    return { ok: true, value: text.trim() };
  } catch {
    return { ok: false, error: "Enter a rate such as 20% or 0.2" };
  }
}

export function parseRatios(text: string): Parsed<string[]> {
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

export function parseParts(text: string): Parsed<number> {
  const t = text.trim();
  const n = Number(t);
  if (!/^\d+$/.test(t) || n < 1 || n > MAX_SPLIT_PARTS) {
    return { ok: false, error: `Enter a whole number of parts from 1 to ${MAX_SPLIT_PARTS}` };
  }
  return { ok: true, value: n };
}

export const errorOf = <T>(parsed: Parsed<T>): string | undefined => (parsed.ok ? undefined : parsed.error);

/** A rate shortened to 10 significant digits for the table ("…" marks a cut, never a rounding). */
export function shortRate(rate: string): string {
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
