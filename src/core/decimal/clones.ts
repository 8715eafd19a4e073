import Decimal from "decimal.js";
import { type RoundingMode, toDecimalRounding } from "./rounding";

const clones = new Map<string, typeof Decimal>();

/**
 * The decimal.js constructor for a precision and rounding mode, cloned once and cached (the global
 * Decimal configuration is never changed).
 */
export function decimalFor(precision: number, rounding: RoundingMode): typeof Decimal {
  const key = `${precision}|${rounding}`;
  let D = clones.get(key);
  if (!D) {
    D = Decimal.clone({
      precision,
      rounding: toDecimalRounding(rounding),
      modulo: Decimal.ROUND_DOWN,
      toExpNeg: -7,
      toExpPos: 21,
      minE: -9e15,
      maxE: 9e15,
    });
    if (clones.size >= 256) clones.clear();
    clones.set(key, D);
  }
  return D;
}
