/**
 * The engine's cost model: an upper bound, in milliseconds on the reference machine (2 cores, Node 20),
 * of one decimal.js call at a working precision, from the precision and the argument's decimal
 * exponent. Every such call is checked against the time budget before it starts (real.ts), so a
 * computation that would overrun is refused with "The calculation took too long" instead of started.
 *
 * The forms follow decimal.js's algorithms; the constants are fitted to `npx tsx
 * bench/decimal-cost.bench.ts --all` (best-of timings on an idle machine) and multiplied by SAFETY.
 *
 * - exp(x): x is divided by 32 until |x| < 0.1 (k halvings, 5 per division), the series then needs
 *   about wpr / 1.5 terms at wpr = wp + 0.6k + 5 digits, each a multiplication and a division
 *   (quadratic in the digits), and k squarings follow: (wpr / 1.5 + k) · wpr².
 * - ln(x): series at wp + 10 digits after reducing the argument: cubic in the digits (a huge or tiny
 *   argument costs less, not more: its exponent times ln 10 replaces part of the series).
 * - sin, cos: our own reduction modulo 2π first, then decimal.js's series with triplings: w^2.5.
 * - atan, asin, acos: decimal.js halves the argument with square roots about wp / 7 times, then a
 *   series: cubic, with a large quadratic part.
 * - sqrt, cbrt and arithmetic: quadratic.
 */

/**
 * Digits beyond the requested precision at which Ziv's loop starts. A ball a few units wide in the last
 * of p + 3 digits decides the rounding at p digits unless the value lies within about a hundredth of a
 * unit of a rounding boundary (about 1 in 100 values, which then cost one more step at twice the
 * precision); starting at p + 10 cost every value 50% more digits in decimal.js to save that step.
 */
export const GUARD_DIGITS = 3;

/** The working precision of Ziv's first step for a result of p digits. */
export function firstWorkingPrecision(p: number): number {
  return p + GUARD_DIGITS;
}

/** Multiplies every fitted estimate: the margin for a slower run than the fitted best-of timings. */
export const SAFETY = 2;

export type CostFn =
  | "arith"
  | "div"
  | "sqrt"
  | "cbrt"
  | "exp"
  | "ln"
  | "sin"
  | "cos"
  | "atan"
  | "asin"
  | "acos"
  | "atan2"
  | "pi";

/** Halvings decimal.js's exp does for an argument of decimal exponent e (|x| < 10^(e+1)). */
function expHalvings(e: number): number {
  if (e <= -2) return 0;
  // each multiplication by 1/32 lowers the exponent by log10(32) ≈ 1.505
  return 5 * (Math.ceil((e + 2) / 1.505) + 1);
}

/** Fitted cost of one call, before the safety factor (ms; see the module comment). */
function fitted(fn: CostFn, wp: number, e: number): number {
  const w = wp;
  switch (fn) {
    case "arith":
      return 0.0015 + 4e-8 * w + 4.2e-7 * w * w;
    case "div":
      return 0.002 + 5e-5 * w + 4.6e-7 * w * w;
    case "sqrt":
      return 0.01 + 4e-6 * w * w;
    case "cbrt":
      return 0.02 + 1.9e-5 * w * w;
    case "exp": {
      const k = expHalvings(e);
      const wpr = w + 0.61 * k + 5;
      return 0.1 + 4e-5 * wpr * wpr + 3.5e-7 * (wpr / 1.5 + k) * wpr * wpr;
    }
    case "ln": {
      const wpr = w + 10;
      return 0.05 + 6e-5 * wpr * wpr + 2e-7 * wpr * wpr * wpr;
    }
    case "sin":
    case "cos":
      return 0.15 + 1.1e-5 * w * w * Math.sqrt(w);
    case "atan":
    case "asin":
    case "acos":
    case "atan2":
      return 0.3 + 1.6e-4 * w * w + 1.8e-6 * w * w * w;
    case "pi":
      return 0.001 + 1e-9 * w;
  }
}

/** Estimated milliseconds of one decimal.js call of `fn` at working precision wp on an argument of exponent e. */
export function estimateFnCost(fn: CostFn, wp: number, e = 0): number {
  return SAFETY * fitted(fn, wp, Number.isFinite(e) ? e : 0);
}

/**
 * Counts the work of one evaluation: the operations done and the cost model's estimate of them
 * (deterministic, unlike a clock). Every evaluation has one; tests and benchmarks may pass their own to read it.
 */
export interface Meter {
  /** Operations: expression nodes evaluated, decimal.js calls of the slow functions, steps of Ziv's loop. */
  ops: number;
  /** The sum of the cost model's estimates (ms) of every step of Ziv's loop that was started. */
  estimatedMs: number;
}

/**
 * Operations an evaluation may do before the wall clock alone can refuse it (unless the model says a
 * quarter of the budget is spent). A wall clock also counts time the process did not run: a server
 * descheduled under load, a garbage collection of other requests' garbage, a cold start; `0.1 + 0.2`
 * (4 operations) was refused as "took too long" that way. The budget is kept by the model first, on work
 * it estimates before the work starts; the clock is the backstop for work the model does not see, and a
 * backstop needs work done before it can have caught any.
 */
export const CLOCK_GRACE_OPS = 32;

/** The budget of one evaluation: its limit, the clock's deadline, and the meter of the work done so far. */
export interface Allowance {
  readonly limitMs: number;
  readonly deadline: number;
  /** The clock of the deadline (ms). */
  readonly now: () => number;
  readonly meter: Meter;
}

/**
 * Whether starting work estimated at `estMs` would overrun the budget: refused when the model's sum
 * would pass the limit (the same answer on any machine, under any load), or, once the evaluation has done
 * real work, when the clock would end past the deadline.
 */
export function overruns(a: Allowance, estMs: number): boolean {
  const m = a.meter;
  if (m.estimatedMs + estMs > a.limitMs) return true;
  if (m.ops < CLOCK_GRACE_OPS && m.estimatedMs < a.limitMs / 4) return false;
  return a.now() + estMs > a.deadline;
}
