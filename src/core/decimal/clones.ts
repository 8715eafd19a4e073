import Decimal from "decimal.js";
import { type RoundingMode, toDecimalRounding } from "./rounding";

const clones = new Map<string, typeof Decimal>();

/**
 * The decimal.js constructor for a precision and rounding mode, cloned once and cached (the global
 * Decimal configuration is never changed).
 */
let lastPrecision = 0;
let lastRounding: RoundingMode | undefined;
let lastClone: typeof Decimal | undefined;

export function decimalFor(precision: number, rounding: RoundingMode): typeof Decimal {
  if (lastClone && precision === lastPrecision && rounding === lastRounding) return lastClone;
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
  lastPrecision = precision;
  lastRounding = rounding;
  lastClone = D;
  return D;
}

/** Exact products and sums (precision only rounds results; a product has at most the sum of the digits). */
export const Exact = Decimal.clone({ precision: 1e9 });
/** Low-precision estimates for range checks. */
export const Low = Decimal.clone({ precision: 20, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * Restores decimal.js after one of its exceptions ("[DecimalError] Precision limit exceeded"). Its
 * transcendental functions change their constructor's precision and a module-level flag while they
 * work and put them back only on success, so a throw leaves a clone with the wrong precision and the
 * library in its internal mode. Forget every cached clone, reset the shared ones, and run one
 * operation that ends by switching the flag back.
 */
export function recoverDecimalState(): void {
  clones.clear();
  lastClone = undefined;
  Exact.set({ precision: 1e9, rounding: Decimal.ROUND_HALF_UP });
  Low.set({ precision: 20, rounding: Decimal.ROUND_HALF_EVEN });
  new Low(2).sqrt();
}

/** Whether an exception came from decimal.js. */
export function isDecimalError(err: unknown): boolean {
  return err instanceof Error && err.message.includes("[DecimalError]");
}
