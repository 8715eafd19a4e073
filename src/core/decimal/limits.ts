// (not from real.ts: limits.ts is imported by the evaluator before real.ts, and loading real.ts first
// from here made the whole engine measurably slower under tsx)
import { type CostFn, estimateFnCost, firstWorkingPrecision } from "./cost";

/**
 * Bounds that keep every evaluation small: no input can hang or crash the page or the server.
 * Together they keep an evaluation within about 50 ms on a 2-core machine: the slow functions are capped
 * so one call stays near 20 ms at most, and a 40 ms budget is checked between operations (on the cost
 * model's estimates, with the wall clock as a backstop once real work is done: cost.ts `overruns`).
 */
export const LIMITS = {
  /** Longest accepted source, in characters. */
  maxLength: 10_000,
  /** Most statements in one program. */
  maxStatements: 1_000,
  /** Deepest nesting of parentheses, calls, unary operators and `^` chains. */
  maxDepth: 200,
  /** Precision bounds (significant digits). */
  minPrecision: 1,
  maxPrecision: 1_000,
  defaultPrecision: 20,
  /** Largest decimal exponent of any number or result: |x| < 10^(maxExponent+1), nonzero |x| ≥ 10^-maxExponent. */
  maxExponent: 1_000_000,
  /** Plain notation is used up to this exponent; beyond it results are shown in scientific notation. */
  maxPlainExponent: 1_000,
  /** Most arguments to min/max. */
  maxArgs: 1_000,
  /** Default time budget of one evaluation (ms), checked between operations. */
  timeLimitMs: 40,
} as const;

/** What a precision must be, in the words the engine's error and every precision field use. */
export const PRECISION_RULE = `a whole number from ${LIMITS.minPrecision} to ${LIMITS.maxPrecision}`;

/** Whether `n` is an allowed precision (significant digits). */
export function isPrecision(n: unknown): n is number {
  return Number.isInteger(n) && (n as number) >= LIMITS.minPrecision && (n as number) <= LIMITS.maxPrecision;
}

/**
 * A precision typed by a person or carried in a link: digits only (no sign, exponent or fraction, which
 * `Number()` would accept), within the bounds; null otherwise.
 */
export function parsePrecision(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,4}$/.test(t)) return null;
  const n = Number(t);
  return isPrecision(n) ? n : null;
}

/**
 * The decimal.js calls (cost model names, cost.ts) that the first step of Ziv's loop makes for each slow
 * function, with the decimal exponent of the worst argument the model is asked about: exp's cost grows
 * with its argument, and before its first step the engine assumes the largest one exp accepts (2.3e9,
 * exponent 9). Derived from how num.ts builds each value: sinh and cosh need exp(x) and exp(-x); tanh
 * exp(2x); the logarithms to a base two ln (log10 x = ln x / ln 10); pow with a fractional exponent
 * exp(y ln x); asinh and acosh a square root and ln; atanh one ln; tan sin and cos.
 */
const SLOW_CALLS: Readonly<Record<string, readonly (readonly [CostFn, number])[]>> = {
  exp: [["exp", 9]],
  ln: [["ln", 0]],
  log10: [
    ["ln", 0],
    ["ln", 0],
  ],
  log2: [
    ["ln", 0],
    ["ln", 0],
  ],
  log: [
    ["ln", 0],
    ["ln", 0],
  ],
  pow: [
    ["ln", 0],
    ["exp", 9],
  ],
  sin: [["sin", 0]],
  cos: [["cos", 0]],
  tan: [
    ["sin", 0],
    ["cos", 0],
  ],
  asin: [["asin", 0]],
  acos: [["acos", 0]],
  atan: [["atan", 0]],
  atan2: [["atan2", 0]],
  sinh: [
    ["exp", 9],
    ["exp", 9],
  ],
  cosh: [
    ["exp", 9],
    ["exp", 9],
  ],
  tanh: [["exp", 9]],
  asinh: [
    ["sqrt", 0],
    ["ln", 0],
  ],
  acosh: [
    ["sqrt", 0],
    ["ln", 0],
  ],
  atanh: [["ln", 0]],
};

/**
 * The share of the time budget that one slow function's first step may take at its precision cap; the
 * rest is for parsing, the exact arithmetic around it and the final rounding.
 */
export const FIRST_STEP_SHARE = 0.9;

/** The cost model's estimate (ms) of the first step of Ziv's loop for `name` at precision p. */
export function firstStepCost(name: string, p: number): number {
  const calls = SLOW_CALLS[name];
  if (!calls) return 0;
  const wp = firstWorkingPrecision(p);
  let ms = 0;
  for (const [fn, e] of calls) ms += estimateFnCost(fn, wp, e);
  return ms;
}

/** The highest precision (≤ maxPrecision) whose first step fits FIRST_STEP_SHARE of the budget. */
function highestPrecision(name: string): number {
  const budget = FIRST_STEP_SHARE * LIMITS.timeLimitMs;
  let lo: number = LIMITS.minPrecision;
  let hi: number = LIMITS.maxPrecision;
  if (firstStepCost(name, hi) <= budget) return hi;
  // the cost grows with the precision: the largest p with cost(p) ≤ budget
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (firstStepCost(name, mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Highest precision at which each slow function may be computed: derived from the cost model (cost.ts,
 * calibrated by bench/decimal-cost.bench.ts), so that at its cap a function's first step fits the time
 * budget and above it the user reads "exp() is limited to N significant digits" rather than "took too
 * long". Functions not listed (sqrt, cbrt, arithmetic) run at any precision up to maxPrecision. The
 * documentation's table (content/docs/200-calculator.md) lists these values; a test keeps them equal.
 */
export const FUNCTION_PRECISION_LIMITS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(Object.keys(SLOW_CALLS).map((name) => [name, highestPrecision(name)])),
);
