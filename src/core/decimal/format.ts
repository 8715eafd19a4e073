import type Decimal from "decimal.js";
import { LIMITS } from "./limits";

export type Notation = "plain" | "scientific";

/**
 * Writes a decimal in plain ("0.0000001", "1234.5") or scientific ("1e-7", "1.2345e+3") notation.
 * Plain notation falls back to scientific beyond 10^±LIMITS.maxPlainExponent so output stays short.
 * Negative zero is written "0".
 */
export function formatDecimal(x: Decimal, notation: Notation): string {
  if (x.isZero()) return "0";
  if (notation === "scientific" || Math.abs(x.e) > LIMITS.maxPlainExponent) return x.toExponential();
  return x.toFixed();
}

/** Writes a decimal with exactly `dp` fraction digits (already rounded to them), plain unless enormous. */
export function formatFixed(x: Decimal, dp: number): string {
  if (Math.abs(x.e) > LIMITS.maxPlainExponent) return x.toExponential();
  const text = x.toFixed(dp);
  return x.isZero() && text.startsWith("-") ? text.slice(1) : text;
}
