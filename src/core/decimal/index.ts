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
 * `round(x, dp)` uses the selected rounding mode.
 *
 * Precision: every operation is rounded to `precision` significant digits with `rounding`; the final
 * result is rounded once more to that precision (literals are exact until used). A money result is also
 * shown rounded to its currency's ISO 4217 minor units with the same rounding mode.
 *
 * Money rules: amount ± amount (the right one converted to the left one's currency when they differ),
 * amount × number, amount ÷ number, amount ÷ amount = number; adding a plain number to an amount is an error.
 *
 * Bounds (limits.ts): 10,000 characters, 1,000 statements, nesting 200, exponents within ±1,000,000,
 * precision 1..1000 (slow functions have lower precision caps), and a wall-clock budget checked between
 * operations (default 40 ms), so that every input finishes within about 50 ms.
 */
import type Decimal from "decimal.js";
import { getCurrency } from "../money/currencies";
import type { RateTable } from "../money/fx";
import { decimalFor, isDecimalError, recoverDecimalState } from "./clones";
import { EngineError, type EvalErrorCode, type ExpressionError, lineColumn } from "./errors";
import { Evaluator, type Val } from "./evaluator";
import { formatDecimal, formatFixed, type Notation } from "./format";
import { LIMITS } from "./limits";
import { parse, type Statement } from "./parser";
import { isRoundingMode, type RoundingMode, toDecimalRounding } from "./rounding";

export { decimalFor } from "./clones";
export type { EvalErrorCode, ExpressionError } from "./errors";
export type { Notation } from "./format";
export { FUNCTION_PRECISION_LIMITS, LIMITS } from "./limits";
export { CONSTANTS, FUNCTIONS } from "./parser";
export { isRoundingMode, ROUNDING_MODES, type RoundingMode } from "./rounding";

/** A result or variable value, serialisable (decimal strings, no Decimal objects). */
export type Value =
  | { readonly kind: "number"; readonly value: string }
  | { readonly kind: "money"; readonly value: string; readonly currency: string };

export interface EvaluateOptions {
  /** Significant digits, a whole number from 1 to 1000; default 20. */
  readonly precision?: number;
  /** Rounding mode of every operation and of the displayed result; default "half-up" (decimal.js's). */
  readonly rounding?: RoundingMode;
  /** Notation of `display` and `exact`; default "plain". */
  readonly notation?: Notation;
  /** The previous result, readable as `ans`. */
  readonly ans?: Value | null;
  /** Variables defined before this program (e.g. by earlier lines the UI kept). */
  readonly variables?: Readonly<Record<string, Value>>;
  /** Exchange rates for money conversion (base EUR); without them converting is an error. */
  readonly rates?: RateTable | null;
  /** Wall-clock budget in milliseconds, checked between operations; default 40. */
  readonly timeLimitMs?: number;
}

export interface EvalSuccess {
  readonly ok: true;
  /** The last statement's value, exact to the precision. */
  readonly value: Value;
  /**
   * The result as shown: the number in the chosen notation, or for money the amount rounded to the
   * currency's minor units followed by its code ("38.120 BHD", "15234 JPY").
   */
  readonly display: string;
  /** The result to the full precision, without rounding to minor units, in the chosen notation. */
  readonly exact: string;
  /** For money: the amount rounded to minor units ("38.120") and the code. */
  readonly money?: { readonly amount: string; readonly currency: string };
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

function toVal(D: typeof Decimal, value: unknown, what: string): Val {
  const v = value as Partial<Value> | null;
  if (!v || typeof v !== "object" || typeof v.value !== "string")
    throw new RangeError(`${what} is not a value`);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d{1,7})?$/i.test(v.value))
    throw new RangeError(`${what} is not a decimal`);
  const x = new D(v.value);
  if (!x.isFinite() || Math.abs(x.e) > LIMITS.maxExponent) throw new RangeError(`${what} is out of range`);
  if (v.kind === "money") {
    const cur = typeof v.currency === "string" ? getCurrency(v.currency) : undefined;
    if (!cur) throw new RangeError(`${what} has an unknown currency`);
    return { v: x, c: cur.code };
  }
  if (v.kind !== "number") throw new RangeError(`${what} is not a value`);
  return { v: x, c: null };
}

function fromVal(x: Val): Value {
  const value = x.v.isZero() ? "0" : x.v.toString();
  return x.c === null ? { kind: "number", value } : { kind: "money", value, currency: x.c };
}

/** Evaluates a program. Never throws; see the module comment. */
export function evaluate(source: string, options: EvaluateOptions = {}): EvalResult {
  const started = typeof performance !== "undefined" ? performance.now() : Date.now();
  if (typeof source !== "string") return failure("", "invalid_option", "The expression must be text", 0);
  const precision = options.precision ?? LIMITS.defaultPrecision;
  if (!Number.isInteger(precision) || precision < LIMITS.minPrecision || precision > LIMITS.maxPrecision) {
    return failure(
      source,
      "invalid_option",
      `Precision must be a whole number from ${LIMITS.minPrecision} to ${LIMITS.maxPrecision}`,
      0,
    );
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
    const D = decimalFor(precision, rounding);
    const vars = new Map<string, Val>();
    let ans: Val | undefined;
    try {
      for (const [name, v] of Object.entries(options.variables ?? {}))
        vars.set(name, toVal(D, v, `Variable ${name}`));
      ans = options.ans ? toVal(D, options.ans, "ans") : undefined;
    } catch (err) {
      return failure(source, "invalid_option", err instanceof Error ? err.message : "Invalid variables", 0);
    }
    const limit = options.timeLimitMs ?? LIMITS.timeLimitMs;
    const evaluator = new Evaluator({
      D,
      precision,
      rounding,
      roundingCode: toDecimalRounding(rounding),
      rates: options.rates ?? null,
      vars,
      ans,
      deadline: started + (Number.isFinite(limit) && limit > 0 ? limit : LIMITS.timeLimitMs),
    });
    const last = evaluator.run(statements) as Val;
    const result: Val = { v: last.v.toSD(precision, toDecimalRounding(rounding)), c: last.c };
    const variables: Record<string, Value> = {};
    for (const [name, v] of vars) variables[name] = fromVal(v);
    return { ok: true, ...present(result, notation, rounding), variables };
  } catch (err) {
    if (err instanceof EngineError) return failure(source, err.code, err.message, err.offset, err.length);
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

function present(
  x: Val,
  notation: Notation,
  rounding: RoundingMode,
): Pick<EvalSuccess, "value" | "display" | "exact" | "money"> {
  const exact = formatDecimal(x.v, notation);
  // a plain-notation string is already an exact decimal: reuse it as the value
  const value: Value =
    notation === "plain" && exact.length < 2_000
      ? x.c === null
        ? { kind: "number", value: exact }
        : { kind: "money", value: exact, currency: x.c }
      : fromVal(x);
  if (x.c === null) return { value, display: exact, exact };
  const minor = getCurrency(x.c)?.minorUnits ?? 0;
  const amount = formatFixed(x.v.toDecimalPlaces(minor, toDecimalRounding(rounding)), minor);
  return { value, display: `${amount} ${x.c}`, exact, money: { amount, currency: x.c } };
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
): Pick<EvalSuccess, "display" | "exact" | "money"> | undefined {
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
    const D = decimalFor(precision, rounding);
    const x = toVal(D, value, "value");
    const { display, exact, money } = present(
      { v: x.v.toSD(precision, toDecimalRounding(rounding)), c: x.c },
      options.notation ?? "plain",
      rounding,
    );
    return money ? { display, exact, money } : { display, exact };
  } catch {
    return undefined;
  }
}
