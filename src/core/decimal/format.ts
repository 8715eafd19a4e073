import type Decimal from "decimal.js";
import { LIMITS } from "./limits";

export type Notation = "plain" | "scientific";

/** What formatting needs of a decimal: decimal.js's Decimal, or a ScaledDecimal (no parsing needed). */
export interface DecimalLike {
  /** floor(log10 |x|) (0 for zero), as decimal.js defines `e`. */
  readonly e: number;
  isZero(): boolean;
  toFixed(dp?: number): string;
  toExponential(): string;
  toString(): string;
}

/**
 * The exact decimal q × 10^exp (q a bigint) written the way decimal.js writes the same value (default
 * toExpNeg -7 and toExpPos 21 for toString), without building a Decimal: the engine's rational results
 * are rounded in bigint arithmetic, and parsing them into decimal.js only to print them again cost
 * about a tenth of an evaluation.
 */
export class ScaledDecimal implements DecimalLike {
  private readonly neg: boolean;
  /** |q| without trailing zeros ("" for zero). */
  private readonly digits: string;
  readonly e: number;

  constructor(q: bigint, exp: number) {
    this.neg = q < 0n;
    let s = (q < 0n ? -q : q).toString();
    if (s === "0") {
      this.digits = "";
      this.e = 0;
      return;
    }
    let end = s.length;
    while (s.charCodeAt(end - 1) === 48) end--;
    const e = exp + s.length - 1;
    s = end === s.length ? s : s.slice(0, end);
    this.digits = s;
    this.e = e;
  }

  isZero(): boolean {
    return this.digits === "";
  }

  private sign(): string {
    return this.neg ? "-" : "";
  }

  /** Plain notation with at least `dp` fraction digits (all digits when dp is undefined); the value is exact. */
  toFixed(dp?: number): string {
    const want = dp ?? 0;
    if (this.digits === "") return want > 0 ? `0.${"0".repeat(want)}` : "0";
    const ds = this.digits;
    const e = this.e;
    let int: string;
    let frac: string;
    if (e < 0) {
      int = "0";
      frac = "0".repeat(-e - 1) + ds;
    } else if (e + 1 >= ds.length) {
      int = ds + "0".repeat(e + 1 - ds.length);
      frac = "";
    } else {
      int = ds.slice(0, e + 1);
      frac = ds.slice(e + 1);
    }
    if (dp !== undefined && frac.length < dp) frac += "0".repeat(dp - frac.length);
    return `${this.sign()}${int}${frac === "" ? "" : `.${frac}`}`;
  }

  toExponential(): string {
    if (this.digits === "") return "0e+0";
    const ds = this.digits;
    const mant = ds.length === 1 ? ds : `${ds[0]}.${ds.slice(1)}`;
    return `${this.sign()}${mant}e${this.e < 0 ? "-" : "+"}${Math.abs(this.e)}`;
  }

  toString(): string {
    if (this.digits === "") return "0";
    return this.e <= -7 || this.e >= 21 ? this.toExponential() : this.toFixed();
  }
}

/**
 * Writes a decimal in plain ("0.0000001", "1234.5") or scientific ("1e-7", "1.2345e+3") notation.
 * Plain notation falls back to scientific beyond 10^±LIMITS.maxPlainExponent so output stays short.
 * Negative zero is written "0".
 */
export function formatDecimal(x: DecimalLike | Decimal, notation: Notation): string {
  if (x.isZero()) return "0";
  if (notation === "scientific" || Math.abs(x.e) > LIMITS.maxPlainExponent) return x.toExponential();
  return x.toFixed();
}

/** Writes a decimal with exactly `dp` fraction digits (already rounded to them), plain unless enormous. */
export function formatFixed(x: DecimalLike | Decimal, dp: number): string {
  if (Math.abs(x.e) > LIMITS.maxPlainExponent) return x.toExponential();
  const text = x.toFixed(dp);
  return x.isZero() && text.startsWith("-") ? text.slice(1) : text;
}
