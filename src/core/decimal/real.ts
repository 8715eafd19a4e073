/**
 * Irrational values with error bounds (ball arithmetic), for Ziv's strategy: an expression that is not
 * rational is a tree of Real nodes; `ball(ax)` evaluates it at a working precision ax.wp into a decimal
 * centre c and a bound r with |value - c| ≤ 10^r, counting every rounding of decimal.js (each result
 * is taken to be within one unit in the last place of the working precision, which decimal.js
 * guarantees with a margin) and how each function magnifies its argument's error (a bound on its
 * derivative over the ball). `approximate()` raises the working precision until the rounding of the
 * whole ball to the requested digits is one number, so that every digit shown is right.
 *
 * Each node's cost at a working precision is estimated before it is evaluated, so a refinement that
 * would overrun the time budget is refused instead of started.
 */
import Decimal from "decimal.js";
import type { RoundingMode } from "../rounding";
import { decimalFor, Exact, isDecimalError, recoverDecimalState } from "./clones";
import { piDigits } from "./constants";
import { type Allowance, type CostFn, estimateFnCost, firstWorkingPrecision, overruns } from "./cost";
import { EngineError } from "./errors";
import { lnFast, sqrtFast } from "./fastfn";
import * as R from "./rational";
import { toDecimalRounding } from "./rounding";

/** |value - c| ≤ 10^r; r = -Infinity when c is exact. */
export interface Ball {
  readonly c: Decimal;
  readonly r: number;
}

/** The working precision is too low to bound a value (a divisor or logarithm's argument near zero). */
export class NeedMore extends Error {}

export interface Approx {
  readonly wp: number;
  readonly D: typeof Decimal;
  /**
   * Called with the cost model's estimate (ms) before each slow decimal.js call, from its actual
   * argument: throws "The calculation took too long" when the call would end past the deadline.
   */
  readonly charge?: (ms: number) => void;
}

const LOG10_2 = Math.log10(2);
const LOG10_E = Math.log10(Math.E);
const LOG10_09 = Math.log10(0.9);

/** log10 of a sum of 10^x for the given x, rounded up a little. */
export function lsum(...xs: number[]): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const x of xs) if (x > m) m = x;
  if (m === Number.NEGATIVE_INFINITY) return m;
  let s = 0;
  for (const x of xs) s += 10 ** (x - m);
  return m + Math.log10(s) + 1e-12;
}

/** log10 of one unit in the last place of c at wp digits (2 units, to be safe). */
function ulp(c: Decimal, wp: number): number {
  return c.isZero() ? Number.NEGATIVE_INFINITY : c.e - wp + 1 + LOG10_2;
}

/**
 * |c| = (L + f) × 10^s with 0 ≤ f < 1 and L the first words of decimal.js's digits (base 10^7, the
 * first one of k digits): L has 8 to 14 digits, so bounds from it are within 10^-7 of |c|.
 */
function lead(c: Decimal): { L: number; s: number } {
  const d = c.d;
  const w0 = d[0] as number;
  let k = 1;
  while (k < 7 && w0 >= 10 ** k) k++;
  return { L: w0 * 1e7 + (d.length > 1 ? (d[1] as number) : 0), s: c.e - k + 1 - 7 };
}

/** An upper bound of log10 |c| (c ≠ 0), within 10^-7 of it (no longer the crude c.e + 1). */
function magUp(c: Decimal): number {
  if (c.isZero()) return Number.NEGATIVE_INFINITY;
  const { L, s } = lead(c);
  return Math.log10(L + 1) + s + 1e-12;
}

/** A lower bound of log10 |c| (c ≠ 0), within 10^-7 of it. */
export function magDown(c: Decimal): number {
  const { L, s } = lead(c);
  return Math.log10(L) + s - 1e-12;
}

/** log10 |c| to about 15 digits, for bounds that must not be as crude as magUp. */
function log10Abs(c: Decimal): number {
  if (c.isZero()) return Number.NEGATIVE_INFINITY;
  const m = Number(c.abs().toSD(16).toExponential().split("e")[0]);
  return c.e + Math.log10(m);
}

/** Whether the ball is certainly away from zero, with 10^r ≤ |c| / 10. */
function awayFromZero(b: Ball): boolean {
  return !b.c.isZero() && b.r < b.c.e - 1;
}

let nextId = 1;

export abstract class Real {
  readonly id = nextId++;
  private cacheWp = -1;
  private cache: Ball | undefined;

  ball(ax: Approx): Ball {
    if (this.cacheWp === ax.wp && this.cache) return this.cache;
    const b = this.compute(ax);
    if (!b.c.isFinite()) {
      // beyond decimal.js's own range (10^±9e15): far beyond anything a result may be
      throw new EngineError("overflow", "An intermediate value is too large or too small to compute", 0, 1);
    }
    this.cacheWp = ax.wp;
    this.cache = b;
    return b;
  }

  /** The decimal exponent of the last ball computed for this value, if any (for cost estimates). */
  lastExponent(): number | undefined {
    return this.cache ? this.cache.c.e : undefined;
  }

  /**
   * Estimated milliseconds to evaluate this tree at wp (each shared node counted once, and nothing for
   * a subtree whose ball at wp is cached: ball() answers it without any work).
   */
  cost(wp: number, seen: Set<number> = new Set()): number {
    if (seen.has(this.id)) return 0;
    seen.add(this.id);
    if (this.cacheWp === wp && this.cache) return 0;
    let total = this.ownCost(wp);
    for (const c of this.children()) total += c.cost(wp, seen);
    return total;
  }

  /** The operands of this value (for walks over the tree, e.g. the precision caps' check). */
  operands(): readonly Real[] {
    return this.children();
  }

  protected abstract compute(ax: Approx): Ball;
  protected abstract ownCost(wp: number): number;
  protected abstract children(): readonly Real[];
}

/** An exact rational, as a ball. */
export class QReal extends Real {
  constructor(readonly q: R.Q) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const q = this.q;
    if (q.n === 0n) return { c: new ax.D(0), r: Number.NEGATIVE_INFINITY };
    const exactInt = q.d === 1n && R.digitCount(q.n) <= ax.wp;
    // one parse of n × 10^e (exact), then the one rounding: the division, or wp digits of an integer
    const n = q.n.toString();
    let c = new ax.D(q.e === 0 ? n : `${n}e${q.e}`);
    if (q.d !== 1n) c = c.div(q.d.toString());
    else if (!exactInt) c = c.toSD(ax.wp);
    return { c, r: exactInt ? Number.NEGATIVE_INFINITY : ulp(c, ax.wp) + 0.31 };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost(this.q.d === 1n ? "arith" : "div", wp);
  }
  protected children(): readonly Real[] {
    return [];
  }
}

export class PiReal extends Real {
  protected compute(ax: Approx): Ball {
    if (ax.wp > 2_000) throw new NeedMore();
    const c = new ax.D(piDigits());
    return { c, r: ulp(c, ax.wp) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("pi", wp);
  }
  protected children(): readonly Real[] {
    return [];
  }
}

export const PI = new PiReal();

export class Sum extends Real {
  constructor(
    readonly a: Real,
    readonly b: Real,
    readonly s: 1 | -1,
  ) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    const y = this.b.ball(ax);
    const c = this.s > 0 ? x.c.plus(y.c) : x.c.minus(y.c);
    return { c, r: lsum(x.r, y.r, ulp(c, ax.wp)) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("arith", wp);
  }
  protected children(): readonly Real[] {
    return [this.a, this.b];
  }
}

export class Neg extends Real {
  constructor(readonly a: Real) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    return { c: x.c.neg(), r: x.r };
  }
  protected ownCost(): number {
    return 0;
  }
  protected children(): readonly Real[] {
    return [this.a];
  }
}

export class Mul extends Real {
  constructor(
    readonly a: Real,
    readonly b: Real,
  ) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    const y = this.b.ball(ax);
    const c = x.c.times(y.c);
    return { c, r: lsum(magUp(x.c) + y.r, magUp(y.c) + x.r, x.r + y.r, ulp(c, ax.wp)) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("arith", wp);
  }
  protected children(): readonly Real[] {
    return [this.a, this.b];
  }
}

export class Div extends Real {
  constructor(
    readonly a: Real,
    readonly b: Real,
    readonly pos: number,
    readonly len: number,
  ) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    const y = this.b.ball(ax);
    if (!awayFromZero(y)) throw new NeedMore();
    const c = x.c.div(y.c);
    // |x1/x2 - c1/c2| ≤ (|c2| r1 + |c1| r2) / (|c2| |x2|), |x2| ≥ 0.9 |c2| ≥ 0.9 × 10^e2
    // |x2| ≥ |c2| - 10^r2, and 10^r2 ≤ |c2| / 10 (awayFromZero)
    const m2 = magDown(y.c);
    const r = lsum(magUp(y.c) + x.r, magUp(x.c) + y.r) - 2 * m2 - Math.log10(1 - 10 ** (y.r - m2));
    return { c, r: lsum(r, ulp(c, ax.wp)) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("div", wp);
  }
  protected children(): readonly Real[] {
    return [this.a, this.b];
  }
}

/** x^k for a whole k ≥ 2. */
export class PowInt extends Real {
  constructor(
    readonly a: Real,
    readonly k: number,
  ) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    const G = decimalFor(ax.wp + 5, "half-even");
    ax.charge?.(this.ownCost(ax.wp));
    const c = new ax.D(new G(x.c).pow(this.k));
    if (x.r === Number.NEGATIVE_INFINITY) return { c, r: ulp(c, ax.wp) };
    if (x.c.isZero()) return { c, r: this.k * x.r };
    // |x^k - c^k| ≤ k M^(k-1) r with M = |c| + 10^r
    const lc = log10Abs(x.c);
    const logM = lc + Math.log10(1 + 10 ** (x.r - lc)) + 1e-12 * (1 + Math.abs(lc)) * this.k;
    const r = Math.log10(this.k) + (this.k - 1) * logM + x.r;
    return { c, r: lsum(r, ulp(c, ax.wp)) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("arith", wp + 5) * (2 * Math.log2(this.k) + 2);
  }
  protected children(): readonly Real[] {
    return [this.a];
  }
}

export type FnName = "exp" | "ln" | "sqrt" | "cbrt" | "sin" | "cos" | "atan" | "asin" | "acos";

/** A function of one argument, with its Lipschitz bound over the ball. */
export class Fn extends Real {
  constructor(
    readonly name: FnName,
    readonly a: Real,
    readonly pos: number,
    readonly len: number,
  ) {
    super();
  }

  private domain(message: string): never {
    throw new EngineError("domain", message, this.pos, this.len);
  }

  protected compute(ax: Approx): Ball {
    const x = this.a.ball(ax);
    try {
      return this.at(x, ax);
    } catch (err) {
      if (!isDecimalError(err)) throw err;
      recoverDecimalState();
      throw new EngineError(
        "limit",
        `${this.name}() cannot be computed for this argument at this precision`,
        this.pos,
        this.len,
      );
    }
  }

  private at(x: Ball, ax: Approx): Ball {
    const D = ax.D;
    const xr = x.r;
    const exactIn = xr === Number.NEGATIVE_INFINITY;
    let c: Decimal;
    let logL = 0; // log10 of a bound of |f'| over the ball
    switch (this.name) {
      case "exp": {
        const hi = x.c.toNumber() + (exactIn ? 0 : 10 ** xr);
        if (hi > 2.3e9) {
          throw new EngineError("overflow", "exp() result is too large to compute", this.pos, this.len);
        }
        if (hi < -2.3e9) {
          // far below anything the result can show: a ball around 0
          return { c: new D(0), r: hi * LOG10_E + 1 };
        }
        this.charge(ax, x.c.e);
        c = x.c.exp();
        logL = hi * LOG10_E;
        break;
      }
      case "ln":
      case "sqrt": {
        if (x.c.isNeg() && !exactIn && x.c.abs().gt(new D(10).pow(Math.ceil(xr)))) {
          this.domain(
            this.name === "ln"
              ? "ln() of zero or a negative number is undefined"
              : "sqrt() of a negative number is undefined",
          );
        }
        if (!awayFromZero(x) || x.c.isNeg()) throw new NeedMore();
        this.charge(ax, x.c.e);
        c =
          this.name === "ln" ? (lnFast(x.c, ax.wp, D) ?? x.c.ln()) : (sqrtFast(x.c, ax.wp, D) ?? x.c.sqrt());
        logL = this.name === "ln" ? -(x.c.e + LOG10_09) : -LOG10_2 - 0.5 * (x.c.e + LOG10_09);
        break;
      }
      case "cbrt":
        if (!exactIn && !awayFromZero(x)) throw new NeedMore();
        this.charge(ax, x.c.e);
        c = x.c.cbrt();
        logL = -Math.log10(3) - (2 / 3) * (x.c.e + LOG10_09);
        break;
      case "sin":
      case "cos": {
        // a large argument is first reduced modulo 2π with our own π (2,100 digits), in a few
        // multiplications, instead of by decimal.js's slow reduction
        let arg = x.c;
        let extra = Number.NEGATIVE_INFINITY;
        const gp = ax.wp + x.c.e + 10;
        if (x.c.e > 2 && gp <= 2_090) {
          ax.charge?.(estimateFnCost("div", gp) + 2 * estimateFnCost("arith", gp));
          const G = decimalFor(gp, "half-even");
          const twoPi = new G(piDigits()).times(2);
          const k = new G(x.c).div(twoPi).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN);
          arg = new D(new G(x.c).minus(twoPi.times(k)));
          extra = lsum(x.c.e - gp + 2, ulp(arg, ax.wp));
        }
        this.charge(ax, arg.e);
        c = this.name === "sin" ? arg.sin() : arg.cos();
        if (extra > Number.NEGATIVE_INFINITY) return { c, r: lsum(xr, extra, ulp(c, ax.wp)) };
        break;
      }
      case "atan":
        this.charge(ax, x.c.e);
        c = x.c.atan();
        break;
      case "asin":
      case "acos": {
        const m = exactIn ? x.c.abs() : x.c.abs().plus(new D(10).pow(Math.ceil(xr)));
        if (m.gt(1)) {
          if (
            x.c
              .abs()
              .minus(new D(10).pow(Math.ceil(xr)))
              .gt(1)
          )
            this.domain(`${this.name}() needs a number from -1 to 1`);
          throw new NeedMore();
        }
        this.charge(ax, x.c.e);
        c = this.name === "asin" ? x.c.asin() : x.c.acos();
        if (!exactIn) {
          const t = new D(1).minus(m.times(m));
          if (t.isZero()) throw new NeedMore();
          logL = -0.5 * t.e;
        }
        break;
      }
    }
    const r = exactIn ? Number.NEGATIVE_INFINITY : logL + xr;
    return { c, r: lsum(r, ulp(c, ax.wp)) };
  }

  /** Checks the budget before the decimal.js call, with the cost estimated from the actual argument. */
  private charge(ax: Approx, e: number): void {
    ax.charge?.(estimateFnCost(this.name as CostFn, ax.wp, e));
  }

  protected ownCost(wp: number): number {
    // exp's cost grows with its argument: the exponent of the last ball computed for it, or before the
    // first one the largest argument exp accepts (2.3e9)
    return estimateFnCost(this.name, wp, this.name === "exp" ? (this.a.lastExponent() ?? 9) : 0);
  }

  protected children(): readonly Real[] {
    return [this.a];
  }
}

/** atan2(y, x); |∂/∂y|, |∂/∂x| ≤ 1 / |(x, y)|. */
export class Atan2 extends Real {
  constructor(
    readonly y: Real,
    readonly x: Real,
  ) {
    super();
  }
  protected compute(ax: Approx): Ball {
    const y = this.y.ball(ax);
    const x = this.x.ball(ax);
    const exact = y.r === Number.NEGATIVE_INFINITY && x.r === Number.NEGATIVE_INFINITY;
    let minNormLog = Number.NEGATIVE_INFINITY;
    if (awayFromZero(x)) minNormLog = Math.max(minNormLog, x.c.e + LOG10_09);
    if (awayFromZero(y)) minNormLog = Math.max(minNormLog, y.c.e + LOG10_09);
    if (!exact && minNormLog === Number.NEGATIVE_INFINITY) throw new NeedMore();
    if (!awayFromZero(x) && x.c.isZero() === false && !exact) throw new NeedMore(); // the branch cut side
    ax.charge?.(this.ownCost(ax.wp));
    const c = ax.D.atan2(y.c, x.c);
    const r = exact ? Number.NEGATIVE_INFINITY : lsum(x.r, y.r) - minNormLog;
    return { c, r: lsum(r, ulp(c, ax.wp)) };
  }
  protected ownCost(wp: number): number {
    return estimateFnCost("atan2", wp);
  }
  protected children(): readonly Real[] {
    return [this.y, this.x];
  }
}

// ---- Ziv's loop --------------------------------------------------------------------------------

export interface ZivContext extends Allowance {
  /** Where to report "took too long". */
  readonly pos: number;
  readonly len: number;
  /**
   * Called once with the value before its first step: throws when the value needs a slow function above
   * its precision cap (the evaluator's check for values that stayed symbolic, num.ts).
   */
  readonly admit?: (x: Real, where: { pos: number; len: number }) => void;
}

/** Highest working precision Ziv's loop goes to. */
export const MAX_WORKING_PRECISION = 2_000;

// Ziv's first working precision is defined with the cost model (cost.ts), which the precision caps
// (limits.ts) are derived from
export { firstWorkingPrecision, GUARD_DIGITS } from "./cost";

export type ZivOutcome<T> =
  | { readonly kind: "decided"; readonly value: T }
  /**
   * The ball still straddles a rounding boundary at the highest working precision allowed, or (only
   * with `keepOnTimeout`, `timedOut`) when the time budget ran out before it.
   */
  | {
      readonly kind: "undecided";
      readonly ball: Ball;
      readonly wp: number;
      readonly D: typeof Decimal;
      readonly timedOut?: boolean;
    };

/** How far Ziv's loop goes past its first cap (`maxWp`) when the value is still undecided there. */
export interface ZivFurther {
  /**
   * Whether an undecided ball at `maxWp` is good enough to stop at (e.g. a zero bound already tiny);
   * otherwise, or without it, the loop goes on to MAX_WORKING_PRECISION while the budget allows.
   */
  readonly settle?: (b: Ball, wp: number) => boolean;
  /** Return the last ball, marked `timedOut`, instead of throwing when the budget runs out. */
  readonly keepOnTimeout?: boolean;
}

/** "The calculation took too long", thrown when a step or a slow call would overrun the budget. */
class TimeUp extends EngineError {}

/**
 * Evaluates x at increasing working precision (start, 2×start, …) until `decide` returns a value for
 * the ball, or the precision cap or the time budget (estimated before each step) is reached. With
 * `further`, an undecided value at `maxWp` is refined on, up to MAX_WORKING_PRECISION, until `settle`
 * accepts its ball (`settled`: a value that stays on a rounding boundary, or at zero, to hundreds of
 * digits), so that a value whose operands cancelled more digits than `maxWp`
 * (1 - (sqrt(10^1000 + 1) - 10^500)) is computed instead of taken to be on a boundary.
 */
export function ziv<T>(
  x: Real,
  start: number,
  maxWp: number,
  ctx: ZivContext,
  decide: (b: Ball, wp: number) => T | undefined,
  further?: ZivFurther,
): ZivOutcome<T> {
  let wp = Math.max(start, 8);
  let last: { ball: Ball; wp: number; D: typeof Decimal } | undefined;
  const soft = Math.min(MAX_WORKING_PRECISION, maxWp);
  const cap = further ? MAX_WORKING_PRECISION : soft;
  let guessed = false;
  ctx.admit?.(x, ctx);
  for (;;) {
    const est = x.cost(wp);
    if (overruns(ctx, est)) {
      // never round from a ball that is not decided for lack of time: that could show a wrong digit
      // (the caller that keeps it only reads a zero bound from it)
      if (further?.keepOnTimeout && last) return { kind: "undecided", ...last, timedOut: true };
      throw new TimeUp("limit", "The calculation took too long", ctx.pos, ctx.len);
    }
    const D = decimalFor(wp, "half-even");
    let ball: Ball | undefined;
    let timedOut = false;
    try {
      ball = x.ball({ wp, D, charge: (ms) => charge(ctx, ms) });
    } catch (err) {
      if (err instanceof TimeUp && further?.keepOnTimeout && last) timedOut = true;
      else if (!(err instanceof NeedMore)) throw err;
    } finally {
      // counted once the step is done, so that a clock reading the meter (tests) shows the work before
      // the step while its slow calls are charged, as a real clock does
      ctx.meter.ops++;
      ctx.meter.estimatedMs += est;
    }
    if (timedOut && last) return { kind: "undecided", ...last, timedOut: true };
    if (ball) {
      const v = decide(ball, wp);
      if (v !== undefined) return { kind: "decided", value: v };
      last = { ball, wp, D };
    }
    if (wp >= cap || (wp >= soft && last && (!further || further.settle?.(last.ball, last.wp)))) {
      if (last) return { kind: "undecided", ...last };
      throw new NeedMore();
    }
    // the step at `soft` itself is kept (it is the usual last one), then on by doubling, or less when
    // the last ball shows how many digits a cancellation took
    const doubled = Math.min(wp < soft ? soft : cap, wp * 2);
    const needed = wp >= soft && last ? cancellation(last.ball, wp, start, guessed) : undefined;
    if (needed !== undefined && last && straddles(last.ball)) guessed = true;
    wp = needed !== undefined ? Math.min(doubled, Math.max(wp + 16, needed)) : doubled;
  }
}

function straddles(b: Ball): boolean {
  return b.c.isZero() || b.r >= magDown(b.c);
}

/**
 * The working precision a value needs when terms cancelled: at `wp` digits the ball is c ± 10^r, so it
 * pins (log|c| − r) digits of the value, and `digits` are wanted; where the ball holds zero the value
 * is taken to be about 1, once (a guess: when it is smaller, the loop doubles from there). Undefined:
 * double. Big terms that
 * cancel down to a small value ((e + 10^400)(e − 10^400) + 10^800) need a little more than the
 * digits the terms lost, where doubling past them would cost several times the budget.
 */
function cancellation(b: Ball, wp: number, digits: number, guessed: boolean): number | undefined {
  if (!Number.isFinite(b.r)) return undefined;
  if (straddles(b)) return guessed ? undefined : Math.ceil(wp + digits + b.r + 16);
  // a ball that already pins the digits wanted is undecided for another reason (a rounding boundary)
  const pinned = magDown(b.c) - b.r;
  return pinned < digits ? Math.ceil(wp + digits - pinned + 16) : undefined;
}

/** Refuses a slow call that would end past the deadline (its estimate is already in the step's). */
function charge(ctx: ZivContext, ms: number): void {
  ctx.meter.ops++;
  if (overruns(ctx, ms)) {
    throw new TimeUp("limit", "The calculation took too long", ctx.pos, ctx.len);
  }
}

/** The ends of a ball as exact decimals: c ∓ 10^R with R no finer than a few digits below c's precision. */
export function ends(b: Ball, wp: number): { lo: Decimal; hi: Decimal } {
  if (b.r === Number.NEGATIVE_INFINITY) {
    const c = new Exact(b.c);
    return { lo: c, hi: c };
  }
  const R = Math.ceil(b.r);
  // a radius beyond the centre's magnitude: the ball lies within ±2·10^R (no long exact sum)
  if (b.c.isZero() || R >= b.c.e + 1) {
    const rad = new Exact(`1e${Math.max(R, b.c.isZero() ? R : b.c.e - wp - 3)}`);
    return { lo: rad.times(-2), hi: rad.times(2) };
  }
  // 10^r rounded up to two significant digits (not to a power of ten, which would make the ball up to
  // ten times wider than its bound and leave one rounding in ten undecided at the first precision)
  const U = Math.max(Math.floor(b.r) - 1, b.c.e - wp - 3);
  const m = Math.ceil(10 ** (b.r - U) * (1 + 1e-9));
  const rad = new Exact(`${m}e${U}`);
  const c = new Exact(b.c);
  return { lo: c.minus(rad), hi: c.plus(rad) };
}

export type Target = { readonly sd: number } | { readonly dp: number };

function roundAt(x: Decimal, t: Target, mode: Decimal.Rounding): Decimal {
  return "sd" in t ? x.toSD(t.sd, mode) : x.toDecimalPlaces(t.dp, mode);
}

/** A decider for Ziv's loop: the rounding of both ends agrees (and they have one sign). */
export function roundingDecider(t: Target, mode: RoundingMode): (b: Ball, wp: number) => Decimal | undefined {
  const m = toDecimalRounding(mode);
  return (b, wp) => {
    if ("dp" in t && !b.c.isZero() && Math.max(b.c.e, Math.ceil(b.r)) + t.dp > MAX_WORKING_PRECISION - 100) {
      // the digit that decides this rounding lies beyond the highest working precision
      throw new EngineError("limit", "The number is too large to round exactly", 0, 1);
    }
    const { lo, hi } = ends(b, wp);
    if ("sd" in t && lo.isNeg() !== hi.isNeg() && !(lo.isZero() && hi.isZero())) return undefined;
    if ("sd" in t && (lo.isZero() || hi.isZero()) && !(lo.isZero() && hi.isZero())) return undefined;
    const a = roundAt(lo, t, m);
    const z = roundAt(hi, t, m);
    return a.eq(z) ? a : undefined;
  };
}

/**
 * When the ball still holds a rounding boundary at the highest precision: the value is taken to be the
 * boundary (one more digit, nearest the centre) and rounded from there. This is what identities that the
 * engine does not recognise need (sin(x)^2 + cos(x)^2 rounded down); the result is marked as rounded.
 */
export function roundUndecided(b: Ball, t: Target, mode: RoundingMode): Decimal {
  const m = toDecimalRounding(mode);
  const snapped =
    "sd" in t
      ? b.c.toSD(t.sd + 1, Decimal.ROUND_HALF_EVEN)
      : b.c.toDecimalPlaces(t.dp + 1, Decimal.ROUND_HALF_EVEN);
  return roundAt(new Exact(snapped), t, m);
}

/**
 * Whether an undecided ball at Ziv's first cap or beyond is narrow enough to stop at: it kept at least
 * half of the working precision, relative to its centre (or, when it contains zero, relative to 1).
 * Then the value stays on a rounding boundary, or at zero, to hundreds of digits (an identity the engine
 * does not recognise). A wider ball comes from large operands that cancelled (1 - (sqrt(10^1000 + 1) -
 * 10^500), whose ball at 400 digits is ±10^102): it is refined further rather than taken to be on a
 * boundary, or zero, where it is not.
 */
export function settled(b: Ball, wp: number): boolean {
  const scale = b.c.isZero() || straddlesZero(b, wp) ? 0 : b.c.e;
  return Math.ceil(b.r) <= scale - wp / 2;
}

/** Whether the ball contains zero. */
export function straddlesZero(b: Ball, wp: number): boolean {
  const { lo, hi } = ends(b, wp);
  return lo.lte(0) && hi.gte(0);
}

/** The sign of a real, refining until it is certain; undefined when it cannot be told from zero. */
export function signOf(x: Real, p: number, ctx: ZivContext): -1 | 1 | undefined {
  try {
    const out = ziv(x, firstWorkingPrecision(p), Math.max(4 * p + 100, 400), ctx, (b, wp) => {
      const { lo, hi } = ends(b, wp);
      if (lo.gt(0)) return 1 as const;
      if (hi.lt(0)) return -1 as const;
      return undefined;
    });
    return out.kind === "decided" ? out.value : undefined;
  } catch (err) {
    if (err instanceof NeedMore) return undefined;
    throw err;
  }
}
