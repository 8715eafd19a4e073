/**
 * Evaluator: walks the AST with a decimal.js clone configured for the requested precision and rounding.
 * Internal values are `{ v: Decimal, c: currency | null }`. Errors are thrown as EngineError and turned
 * into values by `evaluate()` in index.ts.
 */
import Decimal from "decimal.js";
import { crossRateFraction, type RateTable } from "../money/fx";
import { decimalFor, Exact, isDecimalError, Low, recoverDecimalState } from "./clones";
import { eDigits, piDigits } from "./constants";
import { EngineError } from "./errors";
import { FUNCTION_PRECISION_LIMITS, LIMITS } from "./limits";
import type { Node, Statement } from "./parser";
import { FUNCTIONS } from "./parser";
import type { RoundingMode } from "./rounding";

export interface Val {
  readonly v: Decimal;
  /** ISO 4217 code for an amount of money, null for a plain number. */
  readonly c: string | null;
}

const LN10_MAX_EXP = new Low(LIMITS.maxExponent).times(Low.ln(10)).plus(2);

const now: () => number =
  typeof globalThis.performance?.now === "function" ? () => globalThis.performance.now() : () => Date.now();

const MONEY_FUNCTIONS = new Set(["abs", "round", "floor", "ceil", "trunc", "min", "max"]);

function kindOf(c: string | null): string {
  return c === null ? "a number" : `an amount in ${c}`;
}

export interface EvalContext {
  readonly D: typeof Decimal;
  readonly precision: number;
  readonly rounding: RoundingMode;
  readonly roundingCode: Decimal.Rounding;
  readonly rates: RateTable | null;
  readonly vars: Map<string, Val>;
  readonly ans: Val | undefined;
  readonly deadline: number;
}

export class Evaluator {
  private ops = 0;
  private readonly D: typeof Decimal;

  constructor(private readonly ctx: EvalContext) {
    this.D = ctx.D;
  }

  run(statements: readonly Statement[]): Val | undefined {
    let last: Val | undefined;
    for (const s of statements) {
      if (s.kind === "assign") {
        const v = this.eval(s.expr);
        this.ctx.vars.set(s.name, v);
        last = v;
      } else {
        last = this.eval(s.expr);
      }
    }
    return last;
  }

  /** Range and time checks after each operation. */
  private check(x: Decimal, node: Node): Decimal {
    if (!x.isFinite()) {
      if (x.isNaN()) throw new EngineError("domain", "The result is undefined", node.pos, node.len);
      throw new EngineError("overflow", "The result is too large", node.pos, node.len);
    }
    const e = x.e;
    if (e > LIMITS.maxExponent) {
      throw new EngineError(
        "overflow",
        `The result is too large (above 10^${LIMITS.maxExponent})`,
        node.pos,
        node.len,
      );
    }
    if (e < -LIMITS.maxExponent && !x.isZero()) {
      throw new EngineError(
        "overflow",
        `The result is too small (below 10^-${LIMITS.maxExponent})`,
        node.pos,
        node.len,
      );
    }
    if ((++this.ops & 15) === 0) this.checkTime(node);
    return x;
  }

  private checkTime(node: Node): void {
    if (now() > this.ctx.deadline)
      throw new EngineError("limit", "The calculation took too long", node.pos, node.len);
  }

  eval(node: Node): Val {
    switch (node.kind) {
      case "num":
        return { v: this.check(new this.D(node.text), node), c: null };
      case "var":
        return this.variable(node);
      case "percent": {
        const x = this.eval(node.operand);
        return { v: this.check(x.v.div(100), node), c: x.c };
      }
      case "unary": {
        const x = this.eval(node.operand);
        return node.op === "-" ? { v: x.v.neg(), c: x.c } : x;
      }
      case "money": {
        const x = this.eval(node.amount);
        if (x.c !== null) {
          throw new EngineError("type", `The amount already has a currency (${x.c})`, node.pos, node.len);
        }
        return { v: x.v, c: node.currency };
      }
      case "convert":
        return this.convert(this.eval(node.operand), node.currency, node);
      case "binary":
        return this.binaryChain(node);
      case "call":
        return this.call(node);
    }
  }

  private variable(node: Node & { kind: "var" }): Val {
    const name = node.name;
    if (name === "pi")
      return { v: new this.D(piDigits()).toSD(this.ctx.precision, this.ctx.roundingCode), c: null };
    if (name === "e")
      return { v: new this.D(eDigits()).toSD(this.ctx.precision, this.ctx.roundingCode), c: null };
    if (name === "ans") {
      if (!this.ctx.ans)
        throw new EngineError("unknown_variable", "There is no previous result for ans", node.pos, node.len);
      return this.ctx.ans;
    }
    const v = this.ctx.vars.get(name);
    if (!v) throw new EngineError("unknown_variable", `Unknown variable ${name}`, node.pos, node.len);
    return v;
  }

  /** Evaluates a left-leaning chain of binary operators iteratively (1+1+…+1 needs no deep recursion). */
  private binaryChain(node: Node & { kind: "binary" }): Val {
    const spine: (Node & { kind: "binary" })[] = [];
    let n: Node = node;
    while (n.kind === "binary") {
      spine.push(n);
      n = n.left;
    }
    let acc = this.eval(n);
    for (let i = spine.length - 1; i >= 0; i--) {
      const b = spine[i] as Node & { kind: "binary" };
      acc = this.binary(b, acc, this.eval(b.right));
    }
    return acc;
  }

  private binary(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    switch (node.op) {
      case "+":
      case "-": {
        if ((a.c === null) !== (b.c === null)) {
          const verb = node.op === "+" ? "add" : "subtract";
          throw new EngineError(
            "type",
            `Cannot ${verb} ${kindOf(a.c)} and ${kindOf(b.c)}`,
            node.pos,
            node.len,
          );
        }
        const rb = a.c !== null && b.c !== a.c ? this.convert(b, a.c, node) : b;
        return { v: this.check(node.op === "+" ? a.v.plus(rb.v) : a.v.minus(rb.v), node), c: a.c };
      }
      case "*":
        if (a.c !== null && b.c !== null)
          throw new EngineError("type", "Cannot multiply two amounts of money", node.pos, node.len);
        return { v: this.check(a.v.times(b.v), node), c: a.c ?? b.c };
      case "/":
      case "%": {
        if (a.c === null && b.c !== null) {
          throw new EngineError("type", `Cannot divide a number by an amount in ${b.c}`, node.pos, node.len);
        }
        const rb = a.c !== null && b.c !== null && b.c !== a.c ? this.convert(b, a.c, node) : b;
        if (rb.v.isZero()) throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        if (node.op === "/") {
          // money / money is a plain ratio
          return { v: this.check(a.v.div(rb.v), node), c: a.c !== null && b.c !== null ? null : a.c };
        }
        return { v: this.check(a.v.mod(rb.v), node), c: a.c };
      }
      case "^":
        if (a.c !== null || b.c !== null) {
          throw new EngineError(
            "type",
            "Powers need plain numbers, not amounts of money",
            node.pos,
            node.len,
          );
        }
        return { v: this.power(a.v, b.v, node, "^"), c: null };
    }
  }

  private limit(name: string, node: Node): void {
    const max = FUNCTION_PRECISION_LIMITS[name];
    if (max !== undefined && this.ctx.precision > max) {
      const what = name === "pow" ? "A power with a fractional exponent" : `${name}()`;
      throw new EngineError(
        "limit",
        `${what} is limited to ${max} significant digits; lower the precision`,
        node.pos,
        node.len,
      );
    }
  }

  private power(x: Decimal, y: Decimal, node: Node, how: string): Decimal {
    const D = this.D;
    if (x.isZero()) {
      if (y.isNeg()) throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
      return y.isZero() ? new D(1) : new D(0);
    }
    const integer = y.isInteger();
    if (!integer && x.isNeg()) {
      throw new EngineError(
        "domain",
        `A negative number to a fractional power is undefined${how === "^" ? "" : ` in ${how}()`}`,
        node.pos,
        node.len,
      );
    }
    if (y.isZero()) return new D(1);
    // |log10 |x^y|| < |y| × (|x.e| + 1): when that is small the result is in range; otherwise estimate
    // log10 |x^y| = y × log10 |x| at low precision before computing
    if (y.e > 6 || Math.abs(y.toNumber()) * (Math.abs(x.e) + 1) > LIMITS.maxExponent) {
      const est = new Low(y).times(Low.log10(new Low(x).abs()));
      if (est.gt(LIMITS.maxExponent + 1)) {
        throw new EngineError(
          "overflow",
          `The result is too large (above 10^${LIMITS.maxExponent})`,
          node.pos,
          node.len,
        );
      }
      if (est.lt(-LIMITS.maxExponent - 1)) {
        throw new EngineError(
          "overflow",
          `The result is too small (below 10^-${LIMITS.maxExponent})`,
          node.pos,
          node.len,
        );
      }
    }
    if (!integer || y.abs().gt(Number.MAX_SAFE_INTEGER)) this.limit("pow", node);
    return this.check(x.pow(y), node);
  }

  private convert(x: Val, to: string, node: Node): Val {
    if (x.c === null) {
      throw new EngineError(
        "type",
        `Cannot convert a plain number to ${to}; give it a currency, e.g. 5 USD in ${to}`,
        node.pos,
        node.len,
      );
    }
    if (x.c === to) return x;
    const rates = this.ctx.rates;
    if (!rates)
      throw new EngineError(
        "no_rate",
        `No exchange rates are available to convert ${x.c} to ${to}`,
        node.pos,
        node.len,
      );
    const f = crossRateFraction(rates, x.c, to);
    if (!f.ok) throw new EngineError("no_rate", f.error.message, node.pos, node.len);
    // one rounding: the exact product, then the division at the working precision
    const product = new Exact(x.v).times(f.value.num);
    return { v: this.check(new this.D(product).div(f.value.den), node), c: to };
  }

  private call(node: Node & { kind: "call" }): Val {
    const name = node.name;
    const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!spec) throw new EngineError("unknown_function", `Unknown function ${name}`, node.pos, node.len);
    const n = node.args.length;
    if (n < spec.min || n > spec.max) {
      const want =
        spec.min === spec.max
          ? `${spec.min} argument${spec.min === 1 ? "" : "s"}`
          : spec.max >= LIMITS.maxArgs
            ? `at least ${spec.min} argument${spec.min === 1 ? "" : "s"}`
            : `${spec.min} or ${spec.max} arguments`;
      throw new EngineError("arity", `${name}() takes ${want}, not ${n}`, node.pos, node.len);
    }
    const args = node.args.map((a) => this.eval(a));
    const money = args[0]?.c ?? null;
    if (!MONEY_FUNCTIONS.has(name)) {
      const m = args.find((a) => a.c !== null);
      if (m)
        throw new EngineError(
          "type",
          `${name}() needs a number, not an amount in ${m.c}`,
          node.pos,
          node.len,
        );
    }
    const x = (args[0] as Val).v;
    this.checkTime(node); // functions can be slow: check the budget before each call
    try {
      return {
        v: this.check(this.apply(name, x, args, node), node),
        c: MONEY_FUNCTIONS.has(name) ? money : null,
      };
    } catch (err) {
      if (err instanceof EngineError) throw err;
      if (isDecimalError(err)) {
        recoverDecimalState();
        throw new EngineError(
          "limit",
          `${name}() cannot be computed for this argument at this precision`,
          node.pos,
          node.len,
        );
      }
      throw err;
    }
  }

  private domain(message: string, node: Node): never {
    throw new EngineError("domain", message, node.pos, node.len);
  }

  private apply(name: string, x: Decimal, args: readonly Val[], node: Node): Decimal {
    const D = this.D;
    this.limit(name, node);
    switch (name) {
      case "abs":
        return x.abs();
      case "sqrt":
        if (x.isNeg() && !x.isZero()) this.domain("sqrt() of a negative number is undefined", node);
        return x.sqrt();
      case "cbrt":
        return x.cbrt();
      case "exp":
        this.expRange(x, node, "exp");
        return x.exp();
      case "ln":
      case "log10":
      case "log2": {
        if (x.lte(0)) this.domain(`${name}() of zero or a negative number is undefined`, node);
        return name === "ln" ? x.ln() : name === "log10" ? x.log(10) : this.logBase(x, new D(2));
      }
      case "log": {
        if (x.lte(0)) this.domain("log() of zero or a negative number is undefined", node);
        const base = args[1]?.v ?? new D(10);
        if (base.lte(0) || base.eq(1)) this.domain("log() needs a positive base other than 1", node);
        return base.eq(10) ? x.log(10) : this.logBase(x, base);
      }
      case "pow":
        return this.power(x, (args[1] as Val).v, node, "pow");
      case "round": {
        const dpv = args[1]?.v ?? new D(0);
        if (!dpv.isInteger() || dpv.isNeg() || dpv.gt(LIMITS.maxPrecision)) {
          this.domain(`round() decimal places must be a whole number from 0 to ${LIMITS.maxPrecision}`, node);
        }
        return x.toDecimalPlaces(dpv.toNumber(), this.ctx.roundingCode);
      }
      case "floor":
        return x.floor();
      case "ceil":
        return x.ceil();
      case "trunc":
        return x.trunc();
      case "min":
      case "max":
        return this.minMax(name, args, node);
      case "sin":
        return x.sin();
      case "cos":
        return x.cos();
      case "tan":
        return x.tan();
      case "asin":
      case "acos":
        if (x.abs().gt(1)) this.domain(`${name}() needs a number from -1 to 1`, node);
        return name === "asin" ? x.asin() : x.acos();
      case "atan":
        return x.atan();
      case "atan2": {
        const xx = (args[1] as Val).v;
        if (x.isZero() && xx.isZero()) this.domain("atan2(0, 0) is undefined", node);
        return D.atan2(x, xx);
      }
      case "sinh":
      case "cosh":
        this.expRange(x.abs(), node, name);
        return this.hyperbolic(name, x);
      case "tanh":
        return this.tanh(x);
      case "asinh":
        return this.inverseHyperbolic("asinh", x);
      case "acosh":
        if (x.lt(1)) this.domain("acosh() needs a number of at least 1", node);
        return this.inverseHyperbolic("acosh", x);
      case "atanh":
        if (x.abs().gte(1)) this.domain("atanh() needs a number between -1 and 1", node);
        return x.atanh();
      default:
        throw new EngineError("unknown_function", `Unknown function ${name}`, node.pos, node.len);
    }
  }

  private expRange(x: Decimal, node: Node, name: string): void {
    if (x.gt(LN10_MAX_EXP)) {
      throw new EngineError(
        "overflow",
        `${name}() result is too large (above 10^${LIMITS.maxExponent})`,
        node.pos,
        node.len,
      );
    }
    if (x.lt(LN10_MAX_EXP.neg())) {
      throw new EngineError(
        "overflow",
        `${name}() result is too small (below 10^-${LIMITS.maxExponent})`,
        node.pos,
        node.len,
      );
    }
  }

  /** tanh, with the far tails (|x| beyond the precision) rounded directly instead of summing series. */
  private tanh(x: Decimal): Decimal {
    const D = this.D;
    const p = this.ctx.precision;
    // 1 - |tanh x| < 2e^(-2|x|) < 10^-(p+2) when |x| > (p + 3) × ln(10) / 2
    if (x.abs().gt(new Low(p + 3).times(1.1513))) {
      const s = x.isNeg() ? -1 : 1;
      const away = new D(s);
      const toward = new D(s).times(new D(1).minus(new D(10).pow(-p)));
      switch (this.ctx.rounding) {
        case "down":
          return toward;
        case "ceil":
          return s > 0 ? away : toward;
        case "floor":
          return s > 0 ? toward : away;
        default:
          return away;
      }
    }
    return this.hyperbolic("tanh", x);
  }

  /**
   * sinh, cosh, tanh. decimal.js's own series slow down badly for large arguments (sinh(2e6) takes
   * minutes) and at high precision, so they are computed from one exp() with guard digits (more for small
   * arguments, where e^x - e^-x cancels) and rounded once. Arguments so small that the first correction
   * term is far below the precision are rounded directly (sinh x is just above x, tanh x just below).
   */
  private hyperbolic(name: "sinh" | "cosh" | "tanh", x: Decimal): Decimal {
    const p = this.ctx.precision;
    if (x.isZero()) return name === "cosh" ? new this.D(1) : x;
    if (x.e < -(p / 2 + 6)) {
      if (name === "cosh") return this.nudged(new this.D(1), true);
      return this.nudged(x, name === "sinh");
    }
    const G = decimalFor(p + 10 + 2 * Math.max(0, -x.e), "half-even");
    const ax = new G(x).abs();
    const sign = x.isNeg() ? -1 : 1;
    let r: Decimal;
    if (name === "tanh") {
      const e2 = ax.times(2).exp();
      r = e2.minus(1).div(e2.plus(1)).times(sign);
    } else {
      const ex = ax.exp();
      const inv = new G(1).div(ex);
      r = name === "cosh" ? ex.plus(inv).div(2) : ex.minus(inv).div(2).times(sign);
    }
    return new this.D(r).toSD(p, this.ctx.roundingCode);
  }

  /**
   * log_b(x) = ln x / ln b at 10 guard digits, rounded once. decimal.js's own log(x, b) retries at ever
   * higher precision when the result is exact (log2(8)), which is slow; exact integer results are
   * recognised here instead by checking x^q = b^k exactly.
   */
  private logBase(x: Decimal, base: Decimal): Decimal {
    const p = this.ctx.precision;
    const G = decimalFor(p + 10, "half-even");
    const r = new G(x).ln().div(new G(base).ln());
    // an exact rational result k/q (q ≤ 12) holds exactly when x^q = b^k
    const tol = new G(10).pow(-(p + 5));
    const digits = Math.max(base.sd() + Math.max(0, -base.e), x.sd() + Math.max(0, -x.e));
    for (let q = 1; q <= 12; q++) {
      const rq = r.times(q);
      const k = rq.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN);
      if (
        rq
          .minus(k)
          .abs()
          .gte(tol.times(k.abs().plus(1)))
      )
        continue;
      const kk = k.toNumber();
      if ((Math.abs(kk) + q) * digits > 20_000) break;
      const b = new Exact(base);
      const xq = new Exact(x).pow(q);
      const exact = kk >= 0 ? b.pow(kk).eq(xq) : xq.times(b.pow(-kk)).eq(1);
      if (exact) return new this.D(kk).div(q);
      break;
    }
    return new this.D(r).toSD(p, this.ctx.roundingCode);
  }

  /** asinh and acosh, with the far tails computed from their leading terms (decimal.js is slow there). */
  private inverseHyperbolic(name: "asinh" | "acosh", x: Decimal): Decimal {
    const p = this.ctx.precision;
    if (name === "asinh" && x.isZero()) return x;
    if (name === "asinh" && x.e < -(p / 2 + 6)) return this.nudged(x, false); // asinh x = x - x³/6 + …
    if (x.e > p / 2 + 6) {
      // asinh |x| = ln 2|x| + 1/(4x²) - …, acosh x = ln 2x - 1/(4x²) - …
      const G = decimalFor(p + 10, "half-even");
      const ax = new G(x).abs();
      const tail = new G(1).div(ax.times(ax).times(4));
      const r = ax.times(2).ln()[name === "asinh" ? "plus" : "minus"](tail);
      return new this.D(x.isNeg() ? r.neg() : r).toSD(p, this.ctx.roundingCode);
    }
    return name === "asinh" ? x.asinh() : x.acosh();
  }

  /**
   * The correctly rounded value of a result that lies just beyond x (`away` from zero) or just short of
   * it, by less than 10^-(p+10) relatively: x nudged by 10^-(p+12) at a guard precision, then rounded.
   */
  private nudged(x: Decimal, away: boolean): Decimal {
    const p = this.ctx.precision;
    const G = decimalFor(p + 25, "half-even");
    const factor = new G(1)[away ? "plus" : "minus"](new G(10).pow(-(p + 12)));
    return new this.D(new G(x).times(factor)).toSD(p, this.ctx.roundingCode);
  }

  private minMax(name: "min" | "max", args: readonly Val[], node: Node): Decimal {
    const first = args[0] as Val;
    let best = first.v;
    for (let i = 1; i < args.length; i++) {
      const a = args[i] as Val;
      if ((a.c === null) !== (first.c === null)) {
        throw new EngineError(
          "type",
          `${name}() cannot mix numbers and amounts of money`,
          node.pos,
          node.len,
        );
      }
      const v = first.c !== null && a.c !== first.c ? this.convert(a, first.c, node).v : a.v;
      if (name === "min" ? v.lt(best) : v.gt(best)) best = v;
    }
    return best;
  }
}
