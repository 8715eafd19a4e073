/**
 * Exact rational helpers on bigint: every rounding of money in this module goes through `roundDiv`,
 * so one routine decides all nine rounding modes. No binary floating point is involved.
 */
import type { RoundingMode } from "../rounding";

/** A decimal as an exact fraction `num / 10^scale` (scale ≥ 0). */
export interface ScaledDecimal {
  readonly num: bigint;
  readonly scale: number;
}

/** Largest number of digits (integer plus fraction) accepted when turning a decimal into a fraction. */
export const MAX_DECIMAL_DIGITS = 400;

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

/**
 * Parses a decimal string ("-12.50", "1e-7", "0.000123") into an exact fraction. Returns undefined when
 * the text is not a finite decimal or needs more than MAX_DECIMAL_DIGITS digits.
 */
export function parseScaled(text: string): ScaledDecimal | undefined {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m) return undefined;
  const int = m[2] ?? "";
  const frac = m[3] ?? "";
  if (int === "" && frac === "") return undefined;
  const exp = m[4] ? Number.parseInt(m[4], 10) : 0;
  let digits = (int + frac).replace(/^0+(?=\d)/, "");
  let scale = frac.length - exp;
  if (scale < 0) {
    if (digits.length - scale > MAX_DECIMAL_DIGITS && !/^0*$/.test(digits)) return undefined;
    digits += "0".repeat(/^0*$/.test(digits) ? 0 : -scale);
    scale = 0;
  }
  if (digits.length > MAX_DECIMAL_DIGITS || scale > MAX_DECIMAL_DIGITS) return undefined;
  const num = BigInt(digits === "" ? "0" : digits);
  return { num: m[1] === "-" ? -num : num, scale };
}

export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** `n / d` rounded to an integer with the given mode. `d` must not be zero. */
export function roundDiv(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d === 0n) throw new RangeError("Division by zero");
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates towards zero
  const r = n % d; // same sign as n
  if (r === 0n) return q;
  const sign = n < 0n ? -1n : 1n;
  const away = q + sign;
  switch (mode) {
    case "down":
      return q;
    case "up":
      return away;
    case "ceil":
      return sign > 0n ? away : q;
    case "floor":
      return sign < 0n ? away : q;
    default: {
      const twice = 2n * (r < 0n ? -r : r);
      if (twice > d) return away;
      if (twice < d) return q;
      switch (mode) {
        case "half-up":
          return away;
        case "half-down":
          return q;
        case "half-even":
          return q % 2n === 0n ? q : away;
        case "half-ceil":
          return sign > 0n ? away : q;
        case "half-floor":
          return sign < 0n ? away : q;
      }
    }
  }
  throw new RangeError(`Unknown rounding mode ${String(mode)}`);
}

/** Formats `num / 10^scale` as a plain decimal string with exactly `scale` fraction digits. */
export function scaledToString(num: bigint, scale: number): string {
  const neg = num < 0n;
  let digits = (neg ? -num : num).toString();
  if (scale === 0) return (neg ? "-" : "") + digits;
  if (digits.length <= scale) digits = "0".repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${neg ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
