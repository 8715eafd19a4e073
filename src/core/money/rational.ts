/**
 * Exact rational helpers on bigint: every rounding of money goes through `roundDiv` (core/bigint.ts,
 * shared with the expression engine), so one routine decides all nine rounding modes. No binary
 * floating point is involved.
 */
import { pow10, roundDiv } from "../bigint";

export { pow10, roundDiv };

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

/** Formats `num / 10^scale` as a plain decimal string with exactly `scale` fraction digits. */
export function scaledToString(num: bigint, scale: number): string {
  const neg = num < 0n;
  let digits = (neg ? -num : num).toString();
  if (scale === 0) return (neg ? "-" : "") + digits;
  if (digits.length <= scale) digits = "0".repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${neg ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
