/**
 * Abacus expression engine: exact decimal arithmetic on decimal.js, with money. Pure: no I/O; runs in the
 * browser and in Node. Nothing here throws at the caller: every outcome is a value.
 *
 *   evaluate("rate = 7.5%\n1200 * rate")            → { ok: true, display: "90", … }
 *   evaluate("120 USD + 45 EUR in JPY", { rates })  → money result, display rounded to JPY's 0 digits
 *   evaluate("2 * (3", {})                          → { ok: false, error: { code: "syntax",
 *                                                        message: "Expected ')' at column 7", column: 7, … } }
 *
 * Grammar: see parser.ts. Numbers `1_000.50`, `1e-7`, `12%`; operators `+ - * / ^ %` (`^` is
 * right-associative and binds tighter than unary minus; `%` between operands is the remainder, with the
 * sign of the dividend); functions (FUNCTIONS in parser.ts); constants `pi`, `e`; variables; `ans`;
 * money `12.50 USD`; conversion `… in JPY` / `… to JPY` (loosest). `log(x)` is base 10, `log(x, b)` base b.
 * Percentages as people mean them (`150 + 20%` = 180, `20% of 150`, `30 as % of 120`): parser.ts.
 * `round(x, dp)` uses the selected rounding mode.
 *
 * Semantics: the result is the expression's exact mathematical value, rounded once, at the end, to
 * `precision` significant digits with `rounding`. Rational values (+ - * /, whole powers, %, percentages,
 * round/floor/ceil/trunc, min/max, money and conversion) are computed exactly (rational.ts); irrational
 * ones are evaluated with error bounds at increasing working precision until that one rounding is
 * certain (Ziv's strategy, real.ts), and common identities are recognised as exact (num.ts). `exact`
 * says whether the shown result equals the value. A money result is rounded once, from the exact
 * value, to its currency's ISO 4217 minor units with the same rounding mode.
 *
 * Money rules: amount ± amount (the right one converted to the left one's currency when they differ),
 * amount × number, amount ÷ number, amount ÷ amount = number; adding a plain number to an amount is an error.
 *
 * Bounds (limits.ts): 10,000 characters, 1,000 statements, nesting 200, results within 10^±1,000,000
 * (intermediate values may lie beyond), precision 1..1000 (slow functions have lower precision caps),
 * exact values up to about 4,900 digits (bigger ones continue as bounded approximations), and a time
 * budget (default 40 ms) checked before every operation: the cost of each refinement of an irrational
 * value is estimated before it starts and refused when the estimates would pass the budget; the wall clock
 * is a backstop once real work is done (cost.ts `overruns`), so every input finishes within about 50 ms
 * and no trivial one is refused because the process was descheduled.
 */

import Decimal from "decimal.js";
import { cashStep } from "../money/cash";
import { getCurrency } from "../money/currencies";
import type { RateTable } from "../money/fx";
import { Exact, isDecimalError, recoverDecimalState } from "./clones";
import type { Allowance, Meter } from "./cost";
import type { Unit } from "./dimensions";
import { EngineError, type EvalErrorCode, type ExpressionError, lineColumn } from "./errors";
import { dayNumber, Evaluator, perName, type Val } from "./evaluator";
import { type DecimalLike, formatDecimal, formatFixed, type Notation, ScaledDecimal } from "./format";
import { isPrecision, LIMITS, PRECISION_RULE } from "./limits";
import * as N from "./num";
import type { Node } from "./parser";
import { parse, type Statement } from "./parser";
import * as R from "./rational";
import {
  type Ball,
  ends,
  firstWorkingPrecision,
  magDown,
  NeedMore,
  Neg,
  QReal,
  roundingDecider,
  roundUndecided,
  Sum,
  settled,
  straddlesZero,
  type Target,
  type ZivContext,
  ziv,
} from "./real";
import { calendar, unitNamed } from "./registry";
import { isRoundingMode, type RoundingMode, toDecimalRounding } from "./rounding";

export { decimalFor } from "./clones";
export type { Meter } from "./cost";
export type { EvalErrorCode, ExpressionError } from "./errors";
export type { Notation } from "./format";
export { FUNCTION_PRECISION_LIMITS, isPrecision, LIMITS, PRECISION_RULE, parsePrecision } from "./limits";
export { CONSTANTS, FUNCTIONS } from "./parser";
export { isRoundingMode, ROUNDING_MODES, type RoundingMode } from "./rounding";

/** A result or variable value, serialisable (decimal strings, no Decimal objects). */
export type Value =
  | { readonly kind: "number"; readonly value: string; readonly fraction?: string; readonly unit?: string }
  | {
      readonly kind: "money";
      readonly value: string;
      readonly currency: string;
      readonly fraction?: string;
      /** A rate: `value` is per one of this unit (45 USD/h), rounded to the precision, not to minor units. */
      readonly per?: string;
    }
  /** A calendar date, `YYYY-MM-DD`. */
  | { readonly kind: "date"; readonly value: string; readonly fraction?: undefined };
// `value` is the result rounded to the precision (a decimal string); `fraction` ("1/3"), when present, is
// the exact rational value, so that `ans` and variables stay exact from one evaluation to the next. Money
// is the exception: its `value` is the amount as shown, rounded to the currency's minor units.

export interface EvaluateOptions {
  /** Significant digits, a whole number from 1 to 1000; default 20. */
  readonly precision?: number;
  /** Rounding mode of the result (rounded once, at the end); default "half-up". */
  readonly rounding?: RoundingMode;
  /** Notation of `display` and `exact`; default "plain". */
  readonly notation?: Notation;
  /** The previous result, readable as `ans`. */
  readonly ans?: Value | null;
  /** Variables defined before this program (e.g. by earlier lines the UI kept). */
  readonly variables?: Readonly<Record<string, Value>>;
  /** Exchange rates for money conversion (base EUR); without them converting is an error. */
  readonly rates?: RateTable | null;
  /** Time budget in milliseconds, checked before every operation (cost.ts `overruns`); default 40. */
  readonly timeLimitMs?: number;
  /**
   * Filled in with the operations done and the cost model's estimate of them (deterministic, unlike the
   * clock): for tests and benchmarks.
   */
  readonly meter?: Meter;
  /**
   * The clock the time budget is measured with, in milliseconds (default: performance.now). Tests pass
   * one that returns the meter's estimated cost, which makes every refusal deterministic.
   */
  readonly clock?: () => number;
}

/** The time budget of one evaluation (its limit, clock and meter), and the evaluator that checks the caps. */
interface Budget extends Allowance {
  /** The evaluator, whose check of the precision caps runs before a value is computed. */
  readonly evaluator?: Evaluator;
}

export interface EvalSuccess {
  readonly ok: true;
  /** The last statement's value, rounded to the precision (with the exact fraction when it is rational). */
  readonly value: Value;
  /**
   * The result as shown: the number in the chosen notation, or for money the amount rounded to the
   * currency's minor units followed by its code ("38.120 BHD", "15234 JPY").
   */
  readonly display: string;
  /** Whether `display` is the exact value (true) or a rounding of it (false). */
  readonly exact: boolean;
  /** For a quantity: its unit ("km", "h"); `display` ends with it. */
  readonly unit?: string;
  /** The result to the full precision (for money: before rounding to minor units), in the chosen notation. */
  readonly full: string;
  /** Whether `full` is the exact value. */
  readonly fullExact: boolean;
  /**
   * For money: the amount rounded to minor units ("38.120") and the code; `cash`, the cash increment
   * it was rounded to instead ("0.05"), when the expression asked for cash (`in CHF cash`).
   */
  readonly money?: { readonly amount: string; readonly currency: string; readonly cash?: string };
  /** A rational with a repeating expansion: 1/6 = "0.1" then "6" repeating ({ int: "0", pre: "1", cycle: "6" }). */
  readonly repeating?: {
    readonly sign: string;
    readonly int: string;
    readonly pre: string;
    readonly cycle: string;
  };
  /** Set when the value could not be told apart from zero: "0 to within 10^-1040". */
  readonly bound?: string;
  /** Every variable after the program ran (the given ones and those it assigned). */
  readonly variables: Readonly<Record<string, Value>>;
}

export interface EvalFailure {
  readonly ok: false;
  readonly error: ExpressionError;
}

export type EvalResult = EvalSuccess | EvalFailure;

function failure(
  source: string,
  code: EvalErrorCode,
  message: string,
  offset: number,
  length = 1,
): EvalFailure {
  const o = Math.max(0, Math.min(offset, source.length));
  const { line, column } = lineColumn(source, o);
  return { ok: false, error: { code, message, line, column, offset: o, length: Math.max(1, length) } };
}

function toVal(value: unknown, what: string): Val {
  const v = value as Partial<Value> | null;
  if (!v || typeof v !== "object" || typeof v.value !== "string")
    throw new RangeError(`${what} is not a value`);
  if (v.kind === "date") return dateVal(v, what);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d{1,7})?$/i.test(v.value) || v.value.length > 4_000)
    throw new RangeError(`${what} is not a decimal`);
  const fraction =
    typeof v.fraction === "string" && v.fraction.length <= 4_000 ? R.fromString(v.fraction) : undefined;
  const x = fraction ?? R.fromString(v.value);
  if (!x) throw new RangeError(`${what} is not a decimal`);
  if (!R.isZero(x) && Math.abs(R.exponentOf(x)) > LIMITS.maxExponent)
    throw new RangeError(`${what} is out of range`);
  if (v.kind === "money") {
    const cur = typeof v.currency === "string" ? getCurrency(v.currency) : undefined;
    if (!cur) throw new RangeError(`${what} has an unknown currency`);
    if (v.per === undefined) return { v: x, c: cur.code };
    const per = typeof v.per === "string" ? unitNamed(v.per, 0, 1) : undefined;
    if (!per || per.dim === "temperature") throw new RangeError(`${what} has an unknown unit`);
    return { v: R.div(x, per.factor) ?? x, c: cur.code, per };
  }
  if (v.kind !== "number") throw new RangeError(`${what} is not a value`);
  if (v.unit === undefined) return { v: x, c: null };
  const unit = typeof v.unit === "string" ? unitNamed(v.unit, 0, 1) : undefined;
  if (!unit) throw new RangeError(`${what} has an unknown unit`);
  const scaled = R.mul(x, unit.factor) ?? x;
  return { v: unit.offset ? (R.add(scaled, unit.offset) ?? scaled) : scaled, c: null, u: unit };
}

/** A date value (`{ kind: "date", value: "2026-12-01" }`) as the engine holds it. */
function dateVal(value: unknown, what: string): Val {
  const text = (value as { value?: unknown }).value;
  if (typeof text !== "string" || text.length !== 10) throw new RangeError(`${what} is not a date`);
  try {
    return { v: R.fromBigInt(BigInt(calendar(0, 1).parse(text, 0, 1))), c: null, date: true };
  } catch {
    throw new RangeError(`${what} is not a date`);
  }
}

const now: () => number =
  typeof globalThis.performance?.now === "function" ? () => globalThis.performance.now() : () => Date.now();

/**
 * The first evaluations of a process run on cold code (the parser, the evaluator and decimal.js not yet
 * compiled by the JIT, a server's first request): their wall clock may read several times the model's
 * estimate, and `1 - exp(-1200)` rounded down was refused as "took too long" on a fresh server only.
 * For these few the clock's deadline is COLD_CLOCK_FACTOR times the limit; the model's limit, which
 * bounds the work itself (cost.ts), is the same for every evaluation.
 */
export const COLD_EVALUATIONS = 4;
export const COLD_CLOCK_FACTOR = 5;
let evaluationsStarted = 0;

/** Evaluates a program. Never throws; see the module comment. */
export function evaluate(source: string, options: EvaluateOptions = {}): EvalResult {
  const clock = typeof options.clock === "function" ? options.clock : now;
  const started = clock();
  const clockFactor = evaluationsStarted < COLD_EVALUATIONS ? COLD_CLOCK_FACTOR : 1;
  evaluationsStarted++;
  if (typeof source !== "string") return failure("", "invalid_option", "The expression must be text", 0);
  const precision = options.precision ?? LIMITS.defaultPrecision;
  if (!isPrecision(precision)) {
    return failure(source, "invalid_option", `Precision must be ${PRECISION_RULE}`, 0);
  }
  const rounding = options.rounding ?? "half-up";
  if (!isRoundingMode(rounding))
    return failure(source, "invalid_option", `Unknown rounding mode ${String(rounding)}`, 0);
  const notation = options.notation ?? "plain";
  if (notation !== "plain" && notation !== "scientific") {
    return failure(source, "invalid_option", `Unknown notation ${String(notation)}`, 0);
  }
  try {
    let statements: Statement[];
    try {
      statements = parse(source);
    } catch (err) {
      if (err instanceof RangeError && /call stack/i.test(err.message)) {
        return failure(source, "limit", "Expression is too complex", 0);
      }
      throw err;
    }
    if (statements.length === 0) return failure(source, "empty", "Enter an expression", 0);
    const vars = new Map<string, Val>();
    let ans: Val | undefined;
    try {
      for (const [name, v] of Object.entries(options.variables ?? {}))
        vars.set(name, toVal(v, `Variable ${name}`));
      ans = options.ans ? toVal(options.ans, "ans") : undefined;
    } catch (err) {
      return failure(source, "invalid_option", err instanceof Error ? err.message : "Invalid variables", 0);
    }
    const asked = options.timeLimitMs ?? LIMITS.timeLimitMs;
    const limitMs = Number.isFinite(asked) && asked > 0 ? asked : LIMITS.timeLimitMs;
    const allowance: Allowance = {
      limitMs,
      deadline: started + limitMs * clockFactor,
      now: clock,
      meter: options.meter ?? { ops: 0, estimatedMs: 0 },
    };
    const evaluator: Evaluator = new Evaluator({
      precision,
      rounding,
      rates: options.rates ?? null,
      vars,
      ans,
      allowance,
    });
    const budget: Budget = {
      limitMs,
      deadline: allowance.deadline,
      now: clock,
      meter: allowance.meter,
      evaluator,
    };
    const shown = new Map<Val, Shown>();
    const last = evaluator.run(statements, (v, node) => {
      shown.set(v, show(v, node, precision, rounding, notation, budget));
    }) as Val;
    const variables: Record<string, Value> = {};
    for (const [name, v] of vars)
      variables[name] = (shown.get(v) ?? show(v, null, precision, rounding, notation, budget)).value;
    return { ok: true, ...(shown.get(last) as Shown), variables };
  } catch (err) {
    if (err instanceof EngineError) return failure(source, err.code, err.message, err.offset, err.length);
    if (err instanceof NeedMore) {
      return failure(source, "limit", "A value in the expression cannot be told apart from zero", 0);
    }
    if (isDecimalError(err)) {
      recoverDecimalState();
      return failure(source, "limit", "The calculation cannot be done at this precision", 0);
    }
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      return failure(source, "limit", "Expression is too complex", 0);
    }
    const message = err instanceof Error ? err.message : String(err);
    return failure(source, "internal", `Internal error: ${message.slice(0, 200)}`, 0);
  }
}

/** Ziv's loop's context for a value at `where` (written out: a spread here costs the engine a third). */
function zivContext(b: Budget, where: { pos: number; len: number }): ZivContext {
  return {
    limitMs: b.limitMs,
    deadline: b.deadline,
    now: b.now,
    meter: b.meter,
    pos: where.pos,
    len: where.len,
    admit: admitOf(b),
  };
}

/** The precision caps' check for Ziv's loop (made only when a value needs computing). */
function admitOf(budget: Budget): ((x: N.Real, where: { pos: number; len: number }) => void) | undefined {
  const e = budget.evaluator;
  return e ? (x, where) => e.admit(x, where) : undefined;
}

type Shown = Omit<EvalSuccess, "ok" | "variables">;

/** A rounded value: the decimal, whether it is exact, and a bound when it could not be told from zero. */
interface Rounded {
  readonly d: DecimalLike;
  readonly exact: boolean;
  readonly bound?: string;
}

/** A value whose operands cancelled more digits than Ziv's loop can compute. */
const UNDECIDABLE = "The calculation cannot be done at this precision";

/** Rounds a value once to the target (significant digits or decimal places). */
function roundOnce(
  x: N.Num,
  t: Target,
  mode: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Rounded {
  if (N.isQ(x)) {
    if ("sd" in t) {
      const r = R.roundToSd(x, t.sd, mode);
      if (!r)
        throw new EngineError("limit", "The number is too large to round exactly", where.pos, where.len);
      return { d: new ScaledDecimal(r.q, r.exp), exact: r.exact };
    }
    const r = R.roundToDp(x, t.dp, mode);
    if (!r) throw new EngineError("limit", "The number is too large to round exactly", where.pos, where.len);
    return { d: new ScaledDecimal(r.q, -t.dp), exact: r.exact };
  }
  const ctx = zivContext(budget, where);
  const soft = Math.max(4 * precision + 100, 400);
  const out = ziv(x, firstWorkingPrecision(precision), soft, ctx, roundingDecider(t, mode), {
    settle: settled,
    keepOnTimeout: true,
  });
  if (out.kind === "decided") return { d: out.value, exact: false };
  if (straddlesZero(out.ball, out.wp)) {
    // "0 to within 10^r" only when the bound is finer than the precision asked for; a wider ball (large
    // operands that cancelled) says nothing about the value, and a "0" shown from it could be wrong
    const r = Math.ceil(out.ball.r);
    if (r < -precision) return { d: new Exact(0), exact: false, bound: `0 to within 10^${r}` };
    if (out.timedOut) throw new EngineError("limit", "The calculation took too long", where.pos, where.len);
    throw new NeedMore();
  }
  const near = besideBoundary(x, out.ball, out.wp, t, mode, precision, budget, where);
  if (near) return { d: near, exact: false };
  // never round from a ball that is undecided for lack of time, or that is still wide at 2,000 digits
  if (out.timedOut) throw new EngineError("limit", "The calculation took too long", where.pos, where.len);
  if (!settled(out.ball, out.wp)) throw new EngineError("limit", UNDECIDABLE, where.pos, where.len);
  return { d: roundUndecided(out.ball, t, mode), exact: false };
}

/** The most terms of a sum taken apart to find its rational part. */
const MAX_TERMS = 1_000;

/** Splits a sum into its rational part and the other terms (signs applied); undefined when too long. */
function additiveParts(x: N.Num): { q: R.Q; terms: N.Num[] } | undefined {
  let q: R.Q = R.ZERO;
  const terms: N.Num[] = [];
  const stack: [N.Num, 1 | -1][] = [[x, 1]];
  while (stack.length > 0) {
    const [y, s] = stack.pop() as [N.Num, 1 | -1];
    if (terms.length + stack.length > MAX_TERMS) return undefined;
    const rational = N.isQ(y) ? y : y instanceof QReal ? y.q : undefined;
    if (rational) {
      const next = s > 0 ? R.add(q, rational) : R.sub(q, rational);
      if (!next) return undefined;
      q = next;
    } else if (y instanceof Sum) {
      stack.push([y.a, s], [y.b, (s * y.s) as 1 | -1]);
    } else if (y instanceof Neg) {
      stack.push([y.a, -s as 1 | -1]);
    } else {
      terms.push(s > 0 ? y : N.neg(y));
    }
  }
  return { q, terms };
}

/**
 * A value whose ball still holds a rounding boundary B because it lies a hair's breadth from it
 * (1 - exp(-1200) = 1 - 7·10^-522, rounded down): when the sum's rational part is B itself, x - B is
 * the sum of the other terms, whose sign and size are cheap at a low relative precision, where x itself
 * would need hundreds of digits. Knowing on which side of B the value lies, and that it is closer to B
 * than to any other boundary, decides the rounding. Undefined when that does not apply.
 */
function besideBoundary(
  x: N.Num,
  ball: Ball,
  wp: number,
  t: Target,
  mode: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): DecimalLike | undefined {
  if (ball.c.isZero()) return undefined;
  // the nearest point that is a boundary in some mode: a grid value or a midpoint, one digit further
  const B =
    "sd" in t
      ? new Exact(ball.c.toSD(t.sd + 1, Decimal.ROUND_HALF_EVEN))
      : new Exact(ball.c.toDecimalPlaces(t.dp + 1, Decimal.ROUND_HALF_EVEN));
  if (B.isZero()) return undefined;
  const { lo, hi } = ends(ball, wp);
  if (lo.gt(B) || hi.lt(B)) return undefined;
  const parts = additiveParts(x);
  const bq = R.fromString(B.toString());
  if (!parts || !bq || R.cmp(parts.q, bq) !== 0 || parts.terms.length === 0) return undefined;
  let rest = parts.terms[0] as N.Num;
  for (const term of parts.terms.slice(1)) rest = N.add(rest, term);
  // closer than this to B, the value is nearer B than any other boundary (at the grid or one digit on)
  const e = "sd" in t ? B.e - t.sd - 5 : -t.dp - 6;
  let side: { sign: 1 | -1; small: boolean } | undefined;
  try {
    const out = ziv(
      N.toReal(rest),
      firstWorkingPrecision(precision),
      Math.max(4 * precision + 100, 400),
      zivContext(budget, where),
      (b, w) => {
        const r = ends(b, w);
        if (!r.lo.gt(0) && !r.hi.lt(0)) return undefined;
        const mag = r.lo.abs().gt(r.hi.abs()) ? r.lo.abs() : r.hi.abs();
        return { sign: r.lo.gt(0) ? (1 as const) : (-1 as const), small: mag.lt(new Exact(`1e${e}`)) };
      },
    );
    if (out.kind === "decided") side = out.value;
  } catch (err) {
    if (!(err instanceof NeedMore) && !(err instanceof EngineError)) throw err;
  }
  if (!side?.small) return undefined;
  const nudged = B.plus(new Exact(`${side.sign}e${e}`));
  const m = toDecimalRounding(mode);
  return "sd" in t ? nudged.toSD(t.sd, m) : nudged.toDecimalPlaces(t.dp, m);
}

function rangeCheck(x: N.Num, node: Node | null, budget: Budget, precision: number): void {
  if (!node) return;
  let e: number | undefined;
  if (N.isQ(x)) e = R.isZero(x) ? undefined : R.exponentOf(x);
  else {
    const ctx = zivContext(budget, node);
    try {
      const out = ziv(x, firstWorkingPrecision(precision), precision + 10, ctx, (b, wp) => {
        // |c| > 10^r: the ball excludes zero (no exact ends needed)
        if (!b.c.isZero() && b.r < magDown(b.c)) return b.c.e;
        const { lo, hi } = ends(b, wp);
        if (lo.gt(0) || hi.lt(0)) return b.c.e;
        return undefined;
      });
      if (out.kind === "decided") e = out.value;
    } catch (err) {
      if (!(err instanceof NeedMore)) throw err;
    }
  }
  if (e === undefined) return;
  const fn = node.kind === "call" ? `${node.name}() result` : "The result";
  if (e > LIMITS.maxExponent) {
    throw new EngineError(
      "overflow",
      `${fn} is too large (above 10^${LIMITS.maxExponent})`,
      node.pos,
      node.len,
    );
  }
  if (e < -LIMITS.maxExponent) {
    throw new EngineError(
      "overflow",
      `${fn} is too small (below 10^-${LIMITS.maxExponent})`,
      node.pos,
      node.len,
    );
  }
}

function show(
  x: Val,
  node: Node | null,
  precision: number,
  rounding: RoundingMode,
  notation: Notation,
  budget: Budget,
): Shown {
  const where = node ?? { pos: 0, len: 1 };
  if (x.date) return presentDate(x, where);
  rangeCheck(x.v, node, budget, precision);
  if (x.u) return presentQuantity(x, x.u, notation, rounding, precision, budget, where);
  if (x.per) return presentRate(x, x.per, notation, rounding, precision, budget, where);
  const full = roundOnce(x.v, { sd: precision }, rounding, precision, budget, where);
  const shown = present(x, full, notation, rounding, precision, budget, where);
  if (node?.kind !== "asPercent") return shown;
  // `a as % of b` is the ratio (what `ans` and a variable hold: 0.25 × 150 is 25% of 150), shown
  // as a percentage, its hundredfold rounded once to the precision
  const hundredfold: Val = { v: N.mul(x.v, R.fromBigInt(100n)), c: null };
  const pct = present(
    hundredfold,
    roundOnce(hundredfold.v, { sd: precision }, rounding, precision, budget, where),
    notation,
    rounding,
    precision,
    budget,
    where,
  );
  return {
    value: shown.value,
    display: `${pct.display}%`,
    exact: pct.exact,
    full: `${pct.full}%`,
    fullExact: pct.fullExact,
    ...(pct.bound ? { bound: pct.bound } : {}),
  };
}

/**
 * A rounded result in the chosen notation. Plain notation writes a number of more digits than the
 * precision with zeros after the significant ones; when the value was rounded, those zeros are not
 * its digits (2^1000 to 20 digits would end in 282 invented zeros), so such a result is written in
 * scientific notation instead.
 */
function shownDecimal(r: Rounded, notation: Notation, precision: number): string {
  if (notation === "plain" && !r.exact && !r.d.isZero() && r.d.e >= precision)
    return formatDecimal(r.d, "scientific");
  return formatDecimal(r.d, notation);
}

function fractionOf(x: N.Num): string | undefined {
  if (!N.isQ(x) || x.d === 1n || Math.abs(x.e) > 1_000 || R.bitLength(x.n) + R.bitLength(x.d) > 6_000)
    return undefined;
  const n = x.e >= 0 ? x.n * R.pow10(x.e) : x.n;
  const d = x.e >= 0 ? x.d : x.d * R.pow10(-x.e);
  return `${n}/${d}`;
}

function present(
  x: Val,
  full: Rounded,
  notation: Notation,
  rounding: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Shown {
  const text = shownDecimal(full, notation, precision);
  const plain =
    notation === "plain" && text.length < 2_000 ? text : full.d.isZero() ? "0" : full.d.toString();
  const fraction = full.exact ? undefined : fractionOf(x.v);
  const rep = N.isQ(x.v) && !full.exact ? R.repetend(x.v) : undefined;
  const extra = {
    ...(rep ? { repeating: rep } : {}),
    ...(full.bound ? { bound: full.bound } : {}),
  };
  if (x.c === null) {
    const value: Value = { kind: "number", value: plain, ...(fraction ? { fraction } : {}) };
    return { value, display: text, exact: full.exact, full: text, fullExact: full.exact, ...extra };
  }
  return presentMoney(x, x.c, full, text, extra, rounding, precision, budget, where);
}

/** A quantity, shown in its unit: the base-unit value divided by the unit's factor, rounded once. */
function presentQuantity(
  x: Val,
  unit: Unit,
  notation: Notation,
  rounding: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Shown {
  const inUnit = N.div(unit.offset ? N.sub(x.v, unit.offset) : x.v, unit.factor, where.pos, where.len);
  const full = roundOnce(inUnit, { sd: precision }, rounding, precision, budget, where);
  const text = shownDecimal(full, notation, precision);
  const plain =
    notation === "plain" && text.length < 2_000 ? text : full.d.isZero() ? "0" : full.d.toString();
  const fraction = full.exact ? undefined : fractionOf(inUnit);
  const value: Value = { kind: "number", value: plain, unit: unit.name, ...(fraction ? { fraction } : {}) };
  const display = `${text} ${unit.name}`;
  return { value, display, exact: full.exact, full: display, fullExact: full.exact, unit: unit.name };
}

/** A date: its ISO text, or its weekday when asked for (`weekday 2026-12-25`). */
function presentDate(x: Val, where: { pos: number; len: number }): Shown {
  const cal = calendar(where.pos, where.len);
  const day = dayNumber(x.v);
  const iso = cal.format(day);
  const display = x.weekday ? cal.weekday(day) : iso;
  return { value: { kind: "date", value: iso }, display, exact: true, full: display, fullExact: true };
}

/** A rate, per one of its unit, rounded once to the precision (not to minor units: 0.0125 USD/s). */
function presentRate(
  x: Val,
  per: Unit,
  notation: Notation,
  rounding: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Shown {
  const c = x.c as string;
  const perUnit = N.mul(x.v, per.factor);
  const full = roundOnce(perUnit, { sd: precision }, rounding, precision, budget, where);
  const text = shownDecimal(full, notation, precision);
  const plain =
    notation === "plain" && text.length < 2_000 ? text : full.d.isZero() ? "0" : full.d.toString();
  const fraction = full.exact ? undefined : fractionOf(perUnit);
  const value: Value = {
    kind: "money",
    value: plain,
    currency: c,
    per: per.name,
    ...(fraction ? { fraction } : {}),
  };
  const display = `${text} ${c}/${perName(per)}`;
  return { value, display, exact: full.exact, full: display, fullExact: full.exact };
}

function presentMoney(
  x: Val,
  c: string,
  full: Rounded,
  text: string,
  extra: Partial<Shown>,
  rounding: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Shown {
  const minor = getCurrency(c)?.minorUnits ?? 0;
  const step = x.cash ? (cashStep(c) ?? 1n) : 1n;
  const m =
    step === 1n
      ? roundOnce(x.v, { dp: minor }, rounding, Math.max(precision, 20), budget, where)
      : roundToStep(x.v, step, minor, rounding, Math.max(precision, 20), budget, where);
  const amount = formatFixed(m.d, minor);
  // An amount of money is what was shown: `ans` and variables carry the amount rounded to minor
  // units (26961 JPY, not 26960.87…), so that a calculation continued from it goes on from the
  // figure the person saw.
  const value: Value = { kind: "money", value: amount, currency: c };
  return {
    value,
    display: `${amount} ${c}`,
    exact: m.exact,
    full: text,
    fullExact: full.exact,
    money: {
      amount,
      currency: c,
      ...(x.cash ? { cash: formatFixed(new ScaledDecimal(step, -minor), minor) } : {}),
    },
    ...extra,
  };
}

/** Rounds once to a whole number of `step` minor units (a cash increment): 33.333… CHF → 33.35. */
function roundToStep(
  x: N.Num,
  step: bigint,
  minor: number,
  rounding: RoundingMode,
  precision: number,
  budget: Budget,
  where: { pos: number; len: number },
): Rounded {
  const increment = R.make(step, 1n, -minor) as R.Q;
  const steps = roundOnce(
    N.div(x, increment, where.pos, where.len),
    { dp: 0 },
    rounding,
    precision,
    budget,
    where,
  );
  const whole = BigInt(steps.d.toFixed(0));
  return { d: new ScaledDecimal(whole * step, -minor), exact: steps.exact };
}

export interface FormatOptions {
  readonly precision?: number;
  readonly rounding?: RoundingMode;
  readonly notation?: Notation;
}

/**
 * Formats a Value the way `evaluate` does (e.g. to switch notation without evaluating again). Returns
 * undefined for a value that is not a valid decimal.
 */
export function formatResult(
  value: Value,
  options: FormatOptions = {},
): Pick<EvalSuccess, "display" | "full" | "exact" | "money"> | undefined {
  const precision = options.precision ?? LIMITS.defaultPrecision;
  const rounding = options.rounding ?? "half-up";
  if (
    !Number.isInteger(precision) ||
    precision < 1 ||
    precision > LIMITS.maxPrecision ||
    !isRoundingMode(rounding)
  ) {
    return undefined;
  }
  try {
    const x = toVal(value, "value");
    const budget: Budget = {
      limitMs: LIMITS.timeLimitMs,
      deadline: now() + LIMITS.timeLimitMs,
      now,
      meter: { ops: 0, estimatedMs: 0 },
    };
    const where = { pos: 0, len: 1 };
    const notation = options.notation ?? "plain";
    if (x.date || x.per || x.u) {
      const shown = x.date
        ? presentDate(x, where)
        : x.per
          ? presentRate(x, x.per, notation, rounding, precision, budget, where)
          : presentQuantity(x, x.u as Unit, notation, rounding, precision, budget, where);
      return { display: shown.display, full: shown.full, exact: shown.exact };
    }
    const full = roundOnce(x.v, { sd: precision }, rounding, precision, budget, where);
    const {
      display,
      full: f,
      exact,
      money,
    } = present(x, full, options.notation ?? "plain", rounding, precision, budget, where);
    return money ? { display, full: f, exact, money } : { display, full: f, exact };
  } catch {
    return undefined;
  }
}
