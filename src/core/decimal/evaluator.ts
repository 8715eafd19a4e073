/**
 * Evaluator: walks the AST computing exact values. Internal values are `{ v: Num, c: currency | null }`
 * where a Num is an exact rational or a real with error bounds (num.ts); nothing is rounded here except
 * where the expression asks for it (round, floor, ceil, trunc). The final rounding happens once, in
 * index.ts. Errors are thrown as EngineError and turned into values by `evaluate()`.
 */
import { crossRateFraction, type RateTable } from "../money/fx";
import { type Allowance, overruns } from "./cost";
import { formatTerms, MAX_UNIT_EXPONENT, mergeTerms, type Term, type Unit } from "./dimensions";
import { EngineError } from "./errors";
import { FUNCTION_PRECISION_LIMITS, LIMITS } from "./limits";
import * as N from "./num";
import type { Node, Statement } from "./parser";
import { FUNCTIONS } from "./parser";
import * as R from "./rational";
import { calendar, dimensionNamed as dimensionName, unitNamed } from "./registry";
import type { RoundingMode } from "./rounding";

export interface Val {
  readonly v: N.Num;
  /** ISO 4217 code for an amount of money, null for a plain number. */
  readonly c: string | null;
  /** Shown rounded to the currency's cash increment (`in CHF cash`); any further operation drops it. */
  readonly cash?: true;
  /**
   * A quantity: `v` is in the dimension's base unit (m, s, B…; a temperature in kelvin, its scale's
   * offset included), shown in this unit.
   */
  readonly u?: Unit;
  /** A rate (with `c`): `v` is money per one base unit of this unit's dimension, shown per this unit. */
  readonly per?: Unit;
  /** A calendar date: `v` is whole days since 1970-01-01 (registry.ts). */
  readonly date?: true;
  /** A date shown as its weekday (`weekday 2026-12-25`); any further operation drops it. */
  readonly weekday?: true;
}

/** A value that is neither a plain number nor an amount of money. */
function isSpecial(x: Val): boolean {
  return x.u !== undefined || x.per !== undefined || x.date !== undefined;
}

/** per ÷ other has no negative exponent: money per it is still money per something. */
function perSomething(per: Unit, other: Unit): boolean {
  const p = per.exps ?? [];
  return (other.exps ?? []).every((e, i) => (p[i] ?? 0) - e >= 0);
}

/** A temperature on a scale (not a difference of temperatures). */
function isPoint(x: Val): boolean {
  return x.u?.dim === "temperature";
}

const DAY_SECONDS = R.fromBigInt(86_400n);

/** A date's day number (dates are whole days). */
export function dayNumber(v: N.Num): number {
  return N.isQ(v) ? Number(R.roundToDp(v, 0, "floor")?.q ?? 0n) : 0;
}

/** A rate's unit after the slash, a compound one in parentheses: USD/(km/h). */
export function perName(per: Unit): string {
  return /[/·]/.test(per.name) ? `(${per.name})` : per.name;
}

/** What a value is, for an error: "a duration (h)", "an amount in USD", "a number". */
function whatIs(x: Val): string {
  if (x.date) return "a date";
  if (x.per) return `a rate (${x.c}/${perName(x.per)})`;
  return x.u ? `${dimensionName(x.u.dim)} (${x.u.name})` : kindOf(x.c);
}

/** The kelvins of a temperature point, or the base value of anything else, in base units from 0. */
function zeroed(x: Val): N.Num {
  return x.u?.offset ? N.sub(x.v, x.u.offset) : x.v;
}

/** A function's precision cap (the constant e has exp's). */
function capOf(name: string): number | undefined {
  return FUNCTION_PRECISION_LIMITS[name === "e" ? "exp" : name];
}

/** The lowest of the caps: at or below it no value needs checking. */
const LOWEST_CAP = Math.min(...Object.values(FUNCTION_PRECISION_LIMITS));

const MONEY_FUNCTIONS = new Set(["abs", "round", "floor", "ceil", "trunc", "min", "max"]);

function kindOf(c: string | null): string {
  return c === null ? "a number" : `an amount in ${c}`;
}

export interface EvalContext {
  readonly precision: number;
  readonly rounding: RoundingMode;
  readonly rates: RateTable | null;
  readonly vars: Map<string, Val>;
  readonly ans: Val | undefined;
  /** The time budget, and the meter of operations and estimated cost it is kept by. */
  readonly allowance: Allowance;
}

/**
 * Exact cross rates already made into rationals, per rate table object (new rates come as a new
 * object, whose entry starts empty; a dropped table's entry goes with it).
 */
const RATE_CACHE = new WeakMap<RateTable, Map<string, R.Q>>();

/** The exact rate from one currency to another as a rational; throws the engine's no_rate error. */
function rateBetween(rates: RateTable, from: string, to: string, node: Node): R.Q {
  let cache = RATE_CACHE.get(rates);
  if (!cache) {
    cache = new Map();
    RATE_CACHE.set(rates, cache);
  }
  // the rates' texts are part of the key, so a table changed in place cannot answer with an old rate
  const key = `${from}>${to}|${rates.base}|${rates.rates[from] ?? ""}|${rates.rates[to] ?? ""}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const f = crossRateFraction(rates, from, to);
  if (!f.ok) throw new EngineError("no_rate", f.error.message, node.pos, node.len);
  const rate = R.make(BigInt(f.value.num), BigInt(f.value.den), 0) ?? R.ONE;
  cache.set(key, rate);
  return rate;
}

export class Evaluator {
  constructor(private readonly ctx: EvalContext) {}

  /** The operations' context for a node (where a time-out or an undecidable sign is reported). */
  ops(node: { pos: number; len: number }): N.Ops {
    const a = this.ctx.allowance;
    return {
      ziv: {
        limitMs: a.limitMs,
        deadline: a.deadline,
        now: a.now,
        meter: a.meter,
        pos: node.pos,
        len: node.len,
        // (no check to make at or below the lowest cap: no closure either)
        admit: this.ctx.precision > LOWEST_CAP ? (x, where) => this.admit(x, where) : undefined,
      },
      precision: this.ctx.precision,
      limit: (name) => this.limit(name, node),
    };
  }

  /**
   * The precision caps of values that stayed symbolic (num.ts: q·e^r, q·ln r): a call such as exp(2) is
   * not refused when it is made, since ln(exp(2)) = 2 needs no digits of it, but once such a value has
   * to be computed (Ziv's loop calls this first), a precision above its function's cap is refused with
   * the same message as the call would have had. Cheap: nothing to do at or below the lowest cap.
   */
  admit(x: N.Real, where: { pos: number; len: number }): void {
    if (this.ctx.precision <= LOWEST_CAP) return;
    const seen = new Set<N.Real>();
    const stack: N.Real[] = [x];
    while (stack.length > 0) {
      const r = stack.pop() as N.Real;
      if (seen.has(r)) continue;
      seen.add(r);
      if (r instanceof N.SymReal && (r.kind === "exp" || r.kind === "ln")) {
        const o = r.origin;
        const name = o && capOf(o.name) !== undefined ? o.name : r.kind;
        this.limit(name, o ?? where);
      }
      for (const c of r.operands()) stack.push(c);
    }
  }

  run(statements: readonly Statement[], check: (v: Val, node: Node) => void): Val | undefined {
    let last: Val | undefined;
    for (const s of statements) {
      const v = this.eval(s.expr);
      check(v, s.expr);
      if (s.kind === "assign") this.ctx.vars.set(s.name, v);
      last = v;
    }
    return last;
  }

  /** The time budget, checked before every operation (cost.ts `overruns`: the clock only after real work). */
  private checkTime(node: Node): void {
    this.ctx.allowance.meter.ops++;
    if (overruns(this.ctx.allowance, 0))
      throw new EngineError("limit", "The calculation took too long", node.pos, node.len);
  }

  eval(node: Node): Val {
    this.checkTime(node);
    switch (node.kind) {
      case "num": {
        const q = R.fromLiteral(node.text);
        if (!q) throw new EngineError("overflow", "Number is out of range", node.pos, node.len);
        return { v: q, c: null };
      }
      case "var":
        return this.variable(node);
      case "percent": {
        const x = this.eval(node.operand);
        if (isPoint(x) || x.date || x.per) this.refuse(`Cannot take a percentage of ${whatIs(x)}`, node);
        return { v: N.percent(x.v, node.pos, node.len), c: x.c, ...(x.u ? { u: x.u } : {}) };
      }
      case "unary": {
        const x = this.eval(node.operand);
        if (node.op === "+") return x;
        if (x.date) this.refuse("Cannot negate a date", node);
        // −(5 °C) is −5 °C: the point mirrored about its scale's zero
        const v = x.u?.offset ? N.sub(N.add(x.u.offset, x.u.offset), x.v) : N.neg(x.v);
        if (isPoint(x)) this.aboveAbsoluteZero(v, node);
        return { v, c: x.c, ...(x.u ? { u: x.u } : {}), ...(x.per ? { per: x.per } : {}) };
      }
      case "money": {
        const x = this.eval(node.amount);
        if (x.c !== null) {
          throw new EngineError("type", `The amount already has a currency (${x.c})`, node.pos, node.len);
        }
        if (isSpecial(x)) {
          throw new EngineError(
            "type",
            `${whatIs(x)} cannot be an amount of money`.replace(/^a/, "A"),
            node.pos,
            node.len,
          );
        }
        if (node.per === undefined) return { v: x.v, c: node.currency };
        const per = this.unitOf(node.per, node);
        this.perOk(per, node);
        return { v: N.div(x.v, per.factor, node.pos, node.len), c: node.currency, per };
      }
      case "convert": {
        const x = this.eval(node.operand);
        if (node.currency === null && x.c === null) {
          throw new EngineError(
            "type",
            "Cash rounding needs an amount of money, e.g. 100 CHF / 3 in cash",
            node.pos,
            node.len,
          );
        }
        if (node.per !== undefined) return this.convertRate(x, node.currency as string, node.per, node);
        if (x.per) {
          if (node.cash || node.currency === null)
            this.refuse(`Cash rounding needs an amount of money, not ${whatIs(x)}`, node);
          return { ...this.convert({ v: x.v, c: x.c }, node.currency, node), per: x.per };
        }
        const y = node.currency === null ? x : this.convert(x, node.currency, node);
        return node.cash ? { v: y.v, c: y.c, cash: true } : { v: y.v, c: y.c };
      }
      case "binary":
        return this.binaryChain(node);
      case "call":
        return this.call(node);
      case "unit": {
        const x = this.eval(node.amount);
        const unit = this.unitOf(node.unit, node);
        if (x.c !== null || isSpecial(x)) {
          throw new EngineError(
            "type",
            `${whatIs(x)} cannot take a unit (${node.unit})`.replace(/^a/, "A"),
            node.pos,
            node.len,
          );
        }
        const scaled = N.mul(x.v, unit.factor);
        if (unit.dim === "") return { v: scaled, c: null };
        const v = unit.offset ? N.add(scaled, unit.offset) : scaled;
        if (unit.dim === "temperature") this.aboveAbsoluteZero(v, node);
        return { v, c: null, u: unit };
      }
      case "date": {
        const day = calendar(node.pos, node.len).parse(node.text, node.pos, node.len);
        return { v: R.fromBigInt(BigInt(day)), c: null, date: true };
      }
      case "weekday": {
        const x = this.eval(node.operand);
        if (!x.date) this.refuse(`weekday needs a date, not ${whatIs(x)}`, node);
        return { v: x.v, c: null, date: true, weekday: true };
      }
      case "daysBetween": {
        const a = this.eval(node.from);
        const b = this.eval(node.to);
        if (!a.date || !b.date)
          this.refuse(`days between needs two dates, not ${whatIs(a.date ? b : a)}`, node);
        const day = unitNamed("days", node.pos, node.len) as Unit;
        return { v: N.mul(N.sub(b.v, a.v), DAY_SECONDS), c: null, u: day };
      }
      case "toUnit": {
        const x = this.eval(node.operand);
        const unit = this.unitOf(node.unit, node);
        if (!x.u || x.u.dim !== unit.dim || x.per || x.date) {
          throw new EngineError(
            "type",
            `Cannot convert ${whatIs(x)} to ${dimensionName(unit.dim)} (${unit.name})`,
            node.pos,
            node.len,
          );
        }
        return { v: x.v, c: null, u: unit };
      }
      case "percentChange": {
        const base = this.eval(node.base);
        const p = this.plainPercent(node.percent);
        if (isPoint(base) || base.date) this.refuse(`Cannot change ${whatIs(base)} by a percentage`, node);
        const factor = node.sign === 1 ? N.add(R.ONE, p) : N.sub(R.ONE, p);
        return {
          v: N.mul(base.v, factor),
          c: base.c,
          ...(base.u ? { u: base.u } : {}),
          ...(base.per ? { per: base.per } : {}),
        };
      }
      case "percentBase": {
        const value = this.eval(node.value);
        const p = this.plainPercent(node.percent);
        if (isPoint(value) || value.date || value.per)
          this.refuse(`Cannot take a percentage of ${whatIs(value)}`, node);
        const of = node.sign === 0 ? p : node.sign === 1 ? N.add(R.ONE, p) : N.sub(R.ONE, p);
        if (this.isZero(of)) {
          const why = node.sign === 0 ? "0% of any base is 0" : "100% off any base is 0";
          throw new EngineError("division_by_zero", `No base: ${why}`, node.pos, node.len);
        }
        return { v: N.div(value.v, of, node.pos, node.len), c: value.c, ...(value.u ? { u: value.u } : {}) };
      }
      case "asPercent": {
        const part = this.eval(node.part);
        const whole = this.eval(node.whole);
        if (
          (part.c === null) !== (whole.c === null) ||
          part.u?.dim !== whole.u?.dim ||
          isPoint(part) ||
          part.per ||
          whole.per ||
          part.date ||
          whole.date
        ) {
          throw new EngineError(
            "type",
            `Cannot take ${whatIs(part)} as a percentage of ${whatIs(whole)}`,
            node.pos,
            node.len,
          );
        }
        const w = part.c !== null && whole.c !== part.c ? this.convert(whole, part.c, node) : whole;
        if (this.isZero(w.v))
          throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        return { v: N.div(part.v, w.v, node.pos, node.len), c: null };
      }
    }
  }

  /** A percentage that scales something: a plain number (20% of 150 USD, not 20 USD% of it). */
  private plainPercent(node: Node): N.Num {
    const p = this.eval(node);
    if (p.c !== null || isSpecial(p)) {
      throw new EngineError(
        "type",
        `A percentage must be a plain number, not ${whatIs(p)}`,
        node.pos,
        node.len,
      );
    }
    return p.v;
  }

  private variable(node: Node & { kind: "var" }): Val {
    const name = node.name;
    if (name === "pi") return { v: N.trigConstantPi(), c: null };
    if (name === "e") {
      const v = N.exp(R.ONE, node.pos, node.len);
      if (v instanceof N.SymReal) v.origin = { name: "e", pos: node.pos, len: node.len };
      return { v, c: null };
    }
    if (name === "ans") {
      if (!this.ctx.ans)
        throw new EngineError("unknown_variable", "There is no previous result for ans", node.pos, node.len);
      return this.ctx.ans;
    }
    const v = this.ctx.vars.get(name);
    if (v) return v;
    // a unit name alone is one of it (`USD / h`), unless a variable has that name
    const unit = unitNamed(name, node.pos, node.len);
    if (unit) return { v: unit.offset ? N.add(unit.factor, unit.offset) : unit.factor, c: null, u: unit };
    throw new EngineError("unknown_variable", `Unknown variable ${name}`, node.pos, node.len);
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

  private isZero(x: N.Num): boolean {
    return N.isQ(x) && R.isZero(x);
  }

  private binary(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    this.checkTime(node);
    if (a.date || b.date) return this.dates(node, a, b);
    if (a.per || b.per) return this.rates(node, a, b);
    if (isPoint(a) || isPoint(b)) return this.temperatures(node, a, b);
    if ((node.op === "/" || node.op === "*") && a.c !== null && b.u && !a.u) {
      // money / quantity is a rate: 90 USD / 2 h = 45 USD/h
      if (node.op === "/") {
        this.perOk(b.u, node);
        if (this.isZero(b.v))
          throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        return { v: N.div(a.v, b.v, node.pos, node.len), c: a.c, per: b.u };
      }
    }
    if (a.u || b.u) return this.quantities(node, a, b);
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
        return { v: node.op === "+" ? N.add(a.v, rb.v) : N.sub(a.v, rb.v), c: a.c };
      }
      case "*":
        if (a.c !== null && b.c !== null)
          throw new EngineError("type", "Cannot multiply two amounts of money", node.pos, node.len);
        return { v: N.mul(a.v, b.v), c: a.c ?? b.c };
      case "/":
      case "%": {
        if (a.c === null && b.c !== null) {
          throw new EngineError("type", `Cannot divide a number by an amount in ${b.c}`, node.pos, node.len);
        }
        const rb = a.c !== null && b.c !== null && b.c !== a.c ? this.convert(b, a.c, node) : b;
        if (this.isZero(rb.v))
          throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        if (node.op === "/") {
          // money / money is a plain ratio
          return {
            v: N.div(a.v, rb.v, node.pos, node.len),
            c: a.c !== null && b.c !== null ? null : a.c,
          };
        }
        return { v: N.mod(a.v, rb.v, this.ops(node), node.pos, node.len), c: a.c };
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
        return { v: N.pow(a.v, b.v, this.ops(node), node.pos, node.len, "^"), c: null };
    }
  }

  /**
   * Arithmetic with quantities: `+ -` within one dimension (in the left unit); `*` and `/` combine
   * units into compound ones (`100 km / 2 h` is in km/h), `^` raises a unit to a whole power; two
   * quantities of one dimension divide into a plain number. No money (rates are money per a unit).
   */
  private quantities(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    const refuse = (verb: string, joint: string): never => {
      throw new EngineError("type", `Cannot ${verb} ${whatIs(a)} ${joint} ${whatIs(b)}`, node.pos, node.len);
    };
    const money = a.c !== null || b.c !== null;
    switch (node.op) {
      case "+":
      case "-":
        if (a.u?.dim !== b.u?.dim || money) refuse(node.op === "+" ? "add" : "subtract", "and");
        return { v: node.op === "+" ? N.add(a.v, b.v) : N.sub(a.v, b.v), c: null, u: a.u as Unit };
      case "*": {
        if (money) refuse("multiply", "by");
        const u = a.u && b.u ? this.product(a.u, b.u, 1, node) : (a.u ?? b.u);
        return this.quantity(N.mul(a.v, b.v), u);
      }
      case "/":
      case "%": {
        // the remainder: of a quantity by a number, or by a quantity of its dimension
        if (money || (node.op === "%" && (!a.u || (b.u && b.u.dim !== a.u.dim)))) refuse("divide", "by");
        if (this.isZero(b.v))
          throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        if (node.op === "%")
          return { v: N.mod(a.v, b.v, this.ops(node), node.pos, node.len), c: null, u: a.u };
        const v = N.div(a.v, b.v, node.pos, node.len);
        if (a.u && b.u && a.u.dim === b.u.dim) return { v, c: null };
        return this.quantity(v, b.u ? this.product(a.u, b.u, -1, node) : a.u);
      }
      case "^":
        if (!a.u) return refuse("raise", "to");
        return this.power(node, a, b);
    }
  }

  /** A value in base units, of a unit or (undefined) a plain number. */
  private quantity(v: N.Num, u: Unit | undefined): Val {
    return u ? { v, c: null, u } : { v, c: null };
  }

  /** A quantity to a whole power: `(3 m)^2` is 9 m², `s^-1` a frequency. */
  private power(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    const u = a.u as Unit;
    if (b.c !== null || isSpecial(b)) this.refuse(`Cannot raise ${whatIs(a)} to ${whatIs(b)}`, node);
    const whole = N.isQ(b.v) && R.isInteger(b.v) && R.cmp(R.absQ(b.v), R.fromBigInt(1000n)) < 0;
    const n = whole ? Number(R.roundToDp(b.v as R.Q, 0, "down")?.q) : Number.NaN;
    if (!(Math.abs(n) <= MAX_UNIT_EXPONENT)) {
      throw new EngineError(
        "type",
        `A quantity's power must be a whole number from -${MAX_UNIT_EXPONENT} to ${MAX_UNIT_EXPONENT} (${u.name})`,
        node.pos,
        node.len,
      );
    }
    if (n === 0) return { v: R.ONE, c: null };
    if (n < 0 && this.isZero(a.v))
      throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
    const terms = mergeTerms((u.terms ?? []).map(([t, e]): Term => [t, e * n]));
    return this.quantity(N.powInt(a.v, n, node.pos, node.len), this.compound(terms, node));
  }

  /** A unit by name, named or compound (`km/h`): the unit table's answer, or an unknown_unit error. */
  private unitOf(name: string, node: { pos: number; len: number }): Unit {
    const u = unitNamed(name, node.pos, node.len);
    if (!u) throw new EngineError("unknown_unit", `Unknown unit '${name}'`, node.pos, node.len);
    return u;
  }

  /** The unit made of these (merged) terms; undefined when they cancel into a plain number. */
  private compound(terms: readonly Term[], node: { pos: number; len: number }): Unit | undefined {
    if (terms.length === 0) return undefined;
    if (terms.some(([, e]) => Math.abs(e) > MAX_UNIT_EXPONENT)) {
      throw new EngineError(
        "limit",
        `A unit's power is limited to ${MAX_UNIT_EXPONENT} (${formatTerms(terms)})`,
        node.pos,
        node.len,
      );
    }
    const only = terms[0] as Term;
    const u = this.unitOf(terms.length === 1 && only[1] === 1 ? only[0] : formatTerms(terms), node);
    return u.dim === "" ? undefined : u;
  }

  /**
   * a × b (sign 1) or a ÷ b (sign −1) as a unit: the product of their terms, shown in the first unit
   * written that has its dimension (`120 km/h * 90 min` is in km, `1 GB / 10 MB/s` in s), else in a
   * named unit exactly equal to the product (`3 kW * 2 h` in kWh), else as the product itself
   * (`100 km / 2 h` in km/h, `2 m * 3 m` in m²). Undefined for a plain number.
   */
  private product(
    a: Unit | undefined,
    b: Unit,
    sign: 1 | -1,
    node: { pos: number; len: number },
  ): Unit | undefined {
    const terms = mergeTerms([...(a?.terms ?? []), ...(b.terms ?? []).map(([t, e]): Term => [t, sign * e])]);
    const u = this.compound(terms, node);
    if (!u || (terms.length === 1 && (terms[0] as Term)[1] === 1)) return u;
    for (const c of [a, b]) if (c && c.dim === u.dim) return c;
    for (const [t] of [...(a?.terms ?? []), ...(b.terms ?? [])]) {
      const c = this.unitOf(t, node);
      if (c.dim === u.dim) return c;
    }
    return u.named ? this.unitOf(u.named, node) : u;
  }

  /** A temperature (in kelvin) is never below absolute zero. */
  private aboveAbsoluteZero(kelvin: N.Num, node: { pos: number; len: number }): void {
    if (N.isQ(kelvin) && R.sign(kelvin) < 0) {
      throw new EngineError(
        "domain",
        "A temperature cannot be below absolute zero (0 K, -273.15 °C)",
        node.pos,
        node.len,
      );
    }
  }

  private refuse(message: string, node: { pos: number; len: number }): never {
    throw new EngineError("type", message, node.pos, node.len);
  }

  /** Money per a temperature makes no sense: a rate is per an amount of something. */
  private perOk(per: Unit, node: { pos: number; len: number }): void {
    if (per.dim === "temperature")
      this.refuse(`A rate cannot be per ${dimensionName(per.dim)} (${per.name})`, node);
  }

  /** A rate shown in another currency and per another unit: 1200 USD/month in USD/day. */
  private convertRate(x: Val, to: string, perUnit: string, node: Node): Val {
    const per = this.unitOf(perUnit, node);
    if (!x.per || x.per.dim !== per.dim) {
      this.refuse(
        `Cannot convert ${whatIs(x)} to a rate per ${dimensionName(per.dim)} (${to}/${perName(per)})`,
        node,
      );
    }
    return { ...this.convert({ v: x.v, c: x.c }, to, node), per };
  }

  /**
   * Rates: money per one of a unit. rate × quantity of its dimension = money (3 h × 45 USD/h = 135
   * USD); rate × or ÷ number = rate; money ÷ rate = quantity; rate ± rate and rate ÷ rate when both
   * are per the same dimension.
   */
  private rates(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    const refuse = (verb: string, joint: string): never =>
      this.refuse(`Cannot ${verb} ${whatIs(a)} ${joint} ${whatIs(b)}`, node);
    const plain = (x: Val) => x.c === null && !isSpecial(x);
    switch (node.op) {
      case "+":
      case "-": {
        if (!a.per || !b.per || a.per.dim !== b.per.dim)
          return refuse(node.op === "+" ? "add" : "subtract", "and");
        const rb = this.convert({ v: b.v, c: b.c }, a.c as string, node);
        return { v: node.op === "+" ? N.add(a.v, rb.v) : N.sub(a.v, rb.v), c: a.c, per: a.per };
      }
      case "*": {
        const [rate, other] = a.per ? [a, b] : [b, a];
        const per = rate.per as Unit;
        if (plain(other)) return { v: N.mul(rate.v, other.v), c: rate.c, per };
        if (!other.u || other.c !== null || other.per || isPoint(other)) return refuse("multiply", "by");
        // money per (per ÷ other): 5 EUR/kg × 300 g is money, 0.30 EUR/kWh × 2 kW money per a
        // duration; not money times a unit (45 USD/h × 3 km)
        if (!perSomething(per, other.u)) return refuse("multiply", "by");
        const left = this.product(per, other.u, -1, node);
        const v = N.mul(rate.v, other.v);
        return left ? { v, c: rate.c, per: left } : { v, c: rate.c };
      }
      case "/": {
        if (this.isZero(b.v))
          throw new EngineError("division_by_zero", "Division by zero", node.pos, node.len);
        if (a.per && plain(b)) return { v: N.div(a.v, b.v, node.pos, node.len), c: a.c, per: a.per };
        const per = b.per as Unit;
        if (b.per && a.c !== null && !isSpecial(a)) {
          // money ÷ rate: how much of the rate's unit the money buys (150 USD / 45 USD/h = 3.33… h)
          const ra = this.convert(a, b.c as string, node);
          return { v: N.div(ra.v, b.v, node.pos, node.len), c: null, u: per };
        }
        if (a.per && b.per && a.per.dim === b.per.dim) {
          const rb = this.convert({ v: b.v, c: b.c }, a.c as string, node);
          return { v: N.div(a.v, rb.v, node.pos, node.len), c: null };
        }
        if (a.per && b.u && b.c === null && !b.per && !isPoint(b)) {
          // a rate per a further unit: 0.50 EUR/h / 2 km is EUR per h·km
          const left = this.product(a.per, b.u, 1, node);
          const v = N.div(a.v, b.v, node.pos, node.len);
          return left ? { v, c: a.c, per: left } : { v, c: a.c };
        }
        return refuse("divide", "by");
      }
      default:
        return refuse(node.op === "^" ? "raise" : "take the remainder of", node.op === "^" ? "to" : "by");
    }
  }

  /**
   * Temperatures on a scale: point + point reads the right one as that many degrees (20 °C + 5 °C =
   * 25 °C); point − point is a difference (30 °C − 20 °C = 10 Δ°C, in 18 Δ°F); point ± difference is a
   * point. A point cannot be multiplied, divided or scaled.
   */
  private temperatures(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    const refuse = (verb: string, joint: string): never =>
      this.refuse(`Cannot ${verb} ${whatIs(a)} ${joint} ${whatIs(b)}`, node);
    const degrees = (x: Val) => x.u?.dim === "temperature" || x.u?.dim === "temperature difference";
    if ((node.op !== "+" && node.op !== "-") || !degrees(a) || !degrees(b) || a.c !== null || b.c !== null) {
      const verb = {
        "+": "add",
        "-": "subtract",
        "*": "multiply",
        "/": "divide",
        "%": "divide",
        "^": "raise",
      }[node.op];
      return refuse(verb, node.op === "+" || node.op === "-" ? "and" : node.op === "^" ? "to" : "by");
    }
    if (node.op === "-" && isPoint(a) && isPoint(b)) {
      const diff = unitNamed((a.u as Unit).difference ?? "ΔK", node.pos, node.len) as Unit;
      return { v: N.sub(a.v, b.v), c: null, u: diff };
    }
    if (!isPoint(a)) {
      if (node.op === "-") this.refuse(`Cannot subtract ${whatIs(b)} from ${whatIs(a)}`, node);
      const v = N.add(b.v, a.v);
      this.aboveAbsoluteZero(v, node);
      return { v, c: null, u: b.u as Unit };
    }
    const step = zeroed(b);
    const v = node.op === "+" ? N.add(a.v, step) : N.sub(a.v, step);
    this.aboveAbsoluteZero(v, node);
    return { v, c: null, u: a.u as Unit };
  }

  /**
   * Dates: date ± duration = date (whole days, or whole months and years with a month-end kept in a
   * shorter month), date − date = days. Nothing else.
   */
  private dates(node: Node & { kind: "binary" }, a: Val, b: Val): Val {
    const cal = calendar(node.pos, node.len);
    const refuse = (verb: string, joint: string): never =>
      this.refuse(`Cannot ${verb} ${whatIs(a)} ${joint} ${whatIs(b)}`, node);
    if (node.op === "-" && a.date && b.date) {
      const day = unitNamed("days", node.pos, node.len) as Unit;
      return { v: N.mul(N.sub(a.v, b.v), DAY_SECONDS), c: null, u: day };
    }
    const [date, span] = a.date ? [a, b] : [b, a];
    const ok = (node.op === "+" || (node.op === "-" && a.date)) && span.u?.dim === "time" && !span.date;
    if (!ok) {
      const verb = {
        "+": "add",
        "-": "subtract",
        "*": "multiply",
        "/": "divide",
        "%": "divide",
        "^": "raise",
      }[node.op];
      return refuse(verb, node.op === "+" || node.op === "-" ? "and" : node.op === "^" ? "to" : "by");
    }
    const unit = span.u as Unit;
    const sign = node.op === "-" ? -1 : 1;
    const day = dayNumber(date.v);
    const whole = (x: N.Num, what: string): number => {
      if (!N.isQ(x) || !R.isInteger(x) || R.cmp(R.absQ(x), R.fromBigInt(10_000_000n)) > 0) {
        this.refuse(`Dates have no time of day: add whole ${what} to a date, not ${whatIs(span)}`, node);
      }
      const r = R.roundToDp(x as R.Q, 0, "down");
      return Number(r?.q ?? 0n);
    };
    let result: number;
    if (unit.months) {
      const count = whole(
        N.div(span.v, unit.factor, node.pos, node.len),
        unit.months === 12 ? "years" : "months",
      );
      const months = sign * count * unit.months;
      if (Math.abs(months) > 12 * 10_000) this.outOfRange(cal, node);
      result = this.monthsFrom(cal, day, months, node);
    } else {
      result = day + sign * whole(N.div(span.v, DAY_SECONDS, node.pos, node.len), "days");
    }
    if (result < cal.first || result > cal.last) this.outOfRange(cal, node);
    return { v: R.fromBigInt(BigInt(result)), c: null, date: true };
  }

  private monthsFrom(cal: ReturnType<typeof calendar>, day: number, months: number, node: Node): number {
    try {
      return cal.addMonths(day, months);
    } catch {
      return this.outOfRange(cal, node);
    }
  }

  private outOfRange(cal: ReturnType<typeof calendar>, node: { pos: number; len: number }): never {
    throw new EngineError(
      "overflow",
      `Dates run from ${cal.format(cal.first)} to ${cal.format(cal.last)}`,
      node.pos,
      node.len,
    );
  }

  private limit(name: string, node: { pos: number; len: number }): void {
    const max = capOf(name);
    if (max !== undefined && this.ctx.precision > max) {
      const what =
        name === "pow" ? "A power with a fractional exponent" : name === "e" ? "The constant e" : `${name}()`;
      throw new EngineError(
        "limit",
        `${what} is limited to ${max} significant digits; lower the precision`,
        node.pos,
        node.len,
      );
    }
  }

  private convert(x: Val, to: string, node: Node): Val {
    if (isSpecial(x))
      throw new EngineError("type", `Cannot convert ${whatIs(x)} to ${to}`, node.pos, node.len);
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
    const rate = rateBetween(rates, x.c, to, node);
    // exact: the amount times the rate fraction, rounded only at the end
    return { v: N.mul(x.v, rate), c: to };
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
    const quantity = args.find((a) => isSpecial(a));
    if (quantity) {
      throw new EngineError("type", `${name}() needs a number, not ${whatIs(quantity)}`, node.pos, node.len);
    }
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
    this.checkTime(node);
    const v = this.apply(name, (args[0] as Val).v, args, node);
    // slow functions keep their precision caps when the result is not one of the exact forms; a
    // symbolic one is checked when it has to be computed (admit)
    if (v instanceof N.SymReal) {
      if (v.origin === undefined) v.origin = { name, pos: node.pos, len: node.len };
    } else if (!N.isQ(v) && name !== "pow") this.limit(name, node);
    return { v, c: MONEY_FUNCTIONS.has(name) ? money : null };
  }

  private domain(message: string, node: Node): never {
    throw new EngineError("domain", message, node.pos, node.len);
  }

  private positive(x: N.Num, name: string, node: Node): void {
    const s = N.sign(x, this.ops(node));
    if (s === undefined)
      throw new EngineError(
        "domain",
        `${name}() of a number that cannot be told from zero`,
        node.pos,
        node.len,
      );
    if (s <= 0) this.domain(`${name}() of zero or a negative number is undefined`, node);
  }

  private apply(name: string, x: N.Num, args: readonly Val[], node: Node & { kind: "call" }): N.Num {
    const { pos, len } = node;
    const ops = this.ops(node);
    switch (name) {
      case "abs":
        return N.abs(x, ops);
      case "sqrt":
        return N.sqrt(x, pos, len);
      case "cbrt":
        return N.cbrt(x, pos, len);
      case "exp":
        return N.exp(x, pos, len);
      case "ln":
        this.positive(x, name, node);
        return N.ln(x, ops, pos, len);
      case "log10":
      case "log2":
        this.positive(x, name, node);
        return N.log(x, name === "log10" ? R.fromBigInt(10n) : R.fromBigInt(2n), ops, pos, len);
      case "log": {
        this.positive(x, name, node);
        const base = args[1]?.v ?? R.fromBigInt(10n);
        const bs = N.sign(base, ops);
        if (bs !== 1 || N.compare(base, R.ONE, ops) === 0)
          this.domain("log() needs a positive base other than 1", node);
        return N.log(x, base, ops, pos, len);
      }
      case "pow":
        return N.pow(x, (args[1] as Val).v, ops, pos, len, "pow");
      case "round": {
        const dpv = args[1]?.v ?? R.ZERO;
        if (
          !N.isQ(dpv) ||
          !R.isInteger(dpv) ||
          R.sign(dpv) < 0 ||
          R.cmp(dpv, R.fromBigInt(BigInt(LIMITS.maxPrecision))) > 0
        ) {
          this.domain(`round() decimal places must be a whole number from 0 to ${LIMITS.maxPrecision}`, node);
        }
        const dp = Number(R.roundToDp(dpv, 0, "down")?.q ?? 0n);
        return N.roundDp(x, dp, this.ctx.rounding, ops);
      }
      case "floor":
        return N.roundDp(x, 0, "floor", ops);
      case "ceil":
        return N.roundDp(x, 0, "ceil", ops);
      case "trunc":
        return N.roundDp(x, 0, "down", ops);
      case "min":
      case "max":
        return this.minMax(name, args, node);
      case "sin":
      case "cos":
      case "tan":
        return N.trig(name, x, pos, len);
      case "asin":
      case "acos":
      case "atan":
        return N.inverseTrig(name, x, pos, len);
      case "atan2":
        return N.atan2(x, (args[1] as Val).v, ops, pos, len);
      case "sinh":
      case "cosh":
      case "tanh":
      case "asinh":
      case "acosh":
      case "atanh":
        return N.hyperbolic(name, x, ops, pos, len);
      default:
        throw new EngineError("unknown_function", `Unknown function ${name}`, node.pos, node.len);
    }
  }

  private minMax(name: "min" | "max", args: readonly Val[], node: Node): N.Num {
    const first = args[0] as Val;
    const ops = this.ops(node);
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
      const c = N.compare(v, best, ops);
      if (name === "min" ? c < 0 : c > 0) best = v;
    }
    return best;
  }
}
