/**
 * Exact integer helpers shared by the money engine (core/money) and the expression engine
 * (core/decimal): powers of ten and the one routine that rounds a quotient in all nine rounding modes.
 * They live below both folders, so that money, which may not import the expression engine
 * (dependency rule core-money-below-decimal), and the engine use the same code. No floating point.
 */
import type { RoundingMode } from "./rounding";

const POW10: bigint[] = [];

/** 10^k for a whole k ≥ 0 (the first 64 cached). */
export function pow10(k: number): bigint {
  if (k < 64) {
    let p = POW10[k];
    if (p === undefined) {
      p = 10n ** BigInt(k);
      POW10[k] = p;
    }
    return p;
  }
  return 10n ** BigInt(k);
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
