/**
 * The engine's numbers: an exact rational (rational.ts) or a real with error bounds (real.ts). Real
 * values of a few recognised shapes carry a symbolic form, so that identities come out exact:
 *
 *   q·π          sin/cos/tan at rational multiples of π/6 and π/4, asin/acos/atan of their values
 *   q·√r         √2·√8 = 4, (2^0.5)^2 = 2, √r / √r = 1
 *   q·e^r        exp(a)·exp(b) = exp(a+b), ln(e^r) = r, e = e^1
 *   q·ln r       exp(k·ln r) = r^k, ln a / ln b = log_b a when rational, q ln a + q ln b = q ln ab
 *
 * Anything else is an ordinary Real tree, correctly rounded at the end by Ziv's loop.
 */
import { EngineError } from "./errors";
import * as R from "./rational";
import {
  Atan2,
  type Ball,
  Div,
  Fn,
  type FnName,
  firstWorkingPrecision,
  Mul,
  Neg,
  PI,
  PowInt,
  QReal,
  Real,
  roundingDecider,
  roundUndecided,
  Sum,
  settled,
  signOf,
  type ZivContext,
  ziv,
} from "./real";

export type Num = R.Q | Real;

export function isQ(x: Num): x is R.Q {
  return !(x instanceof Real);
}

type SymKind = "pi" | "sqrt" | "exp" | "ln";

/** The function call a symbolic value came from, for its precision cap (evaluator.ts). */
export interface Origin {
  readonly name: string;
  readonly pos: number;
  readonly len: number;
}

/** q × (π | √r | e^r | ln r), evaluated through an ordinary tree. */
export class SymReal extends Real {
  constructor(
    readonly kind: SymKind,
    readonly q: R.Q,
    readonly r: R.Q,
    readonly inner: Real,
    /** Set by the evaluator on the value of a call (and kept by values derived from it). */
    public origin?: Origin,
  ) {
    super();
  }
  protected compute(ax: Parameters<Real["ball"]>[0]): Ball {
    return this.inner.ball(ax);
  }
  protected ownCost(): number {
    return 0;
  }
  protected children(): readonly Real[] {
    return [this.inner];
  }
}

/** |x| of a real. */
class Abs extends Real {
  constructor(readonly a: Real) {
    super();
  }
  protected compute(ax: Parameters<Real["ball"]>[0]): Ball {
    const b = this.a.ball(ax);
    return { c: b.c.abs(), r: b.r };
  }
  protected ownCost(): number {
    return 0;
  }
  protected children(): readonly Real[] {
    return [this.a];
  }
}

const TWO: R.Q = { n: 2n, d: 1n, e: 0 };
const HALF: R.Q = { n: 1n, d: 2n, e: 0 };
const HUNDRED: R.Q = { n: 1n, d: 1n, e: 2 };

function q(n: bigint, d = 1n): R.Q {
  return R.make(n, d, 0) ?? R.ZERO;
}

function eqQ(a: R.Q, b: R.Q): boolean {
  return R.cmp(a, b) === 0;
}

/** Builds q·form, with q = 0 giving 0 and q·√r simplified when r is a square. */
function sym(kind: SymKind, k: R.Q, r: R.Q, origin?: Origin): Num {
  if (R.isZero(k)) return R.ZERO;
  if (kind === "sqrt") {
    const root = R.exactRoot(r, 2);
    if (root) return R.mul(k, root) ?? new Mul(new QReal(k), new QReal(root));
  }
  if (kind === "exp" && R.isZero(r)) return k;
  if (kind === "ln" && eqQ(r, R.ONE)) return R.ZERO;
  const base =
    kind === "pi" ? PI : new Fn(kind === "sqrt" ? "sqrt" : kind === "exp" ? "exp" : "ln", new QReal(r), 0, 1);
  const one = eqQ(k, R.ONE);
  const inner = one ? base : eqQ(k, R.neg(R.ONE)) ? new Neg(base) : new Mul(new QReal(k), base);
  return new SymReal(kind, k, kind === "pi" ? R.ONE : r, inner, origin);
}

export function toReal(x: Num): Real {
  return isQ(x) ? new QReal(x) : x;
}

function scale(x: SymReal, k: R.Q): Num | undefined {
  const n = R.mul(x.q, k);
  return n ? sym(x.kind, n, x.r, x.origin) : undefined;
}

export function neg(x: Num): Num {
  if (isQ(x)) return R.neg(x);
  if (x instanceof SymReal) return sym(x.kind, R.neg(x.q), x.r, x.origin);
  if (x instanceof Neg) return x.a;
  return new Neg(x);
}

export function add(a: Num, b: Num): Num {
  if (isQ(a) && isQ(b)) return R.add(a, b) ?? new Sum(new QReal(a), new QReal(b), 1);
  if (isQ(a) && R.isZero(a)) return b;
  if (isQ(b) && R.isZero(b)) return a;
  if (a instanceof SymReal && b instanceof SymReal && a.kind === b.kind) {
    if (a.kind === "pi" || eqQ(a.r, b.r)) {
      const k = R.add(a.q, b.q);
      if (k) return sym(a.kind, k, a.r, a.origin ?? b.origin);
    } else if (a.kind === "ln" && eqQ(a.q, b.q)) {
      const r = R.mul(a.r, b.r);
      if (r) return sym("ln", a.q, r, a.origin ?? b.origin);
    } else if (a.kind === "ln" && eqQ(a.q, R.neg(b.q))) {
      const r = R.div(a.r, b.r);
      if (r) return sym("ln", a.q, r, a.origin ?? b.origin);
    }
  }
  return new Sum(toReal(a), toReal(b), 1);
}

export function sub(a: Num, b: Num): Num {
  return add(a, neg(b));
}

export function mul(a: Num, b: Num): Num {
  if (isQ(a) && isQ(b)) return R.mul(a, b) ?? new Mul(new QReal(a), new QReal(b));
  if (isQ(a) && R.isZero(a)) return a;
  if (isQ(b) && R.isZero(b)) return b;
  if (isQ(a) && b instanceof SymReal) return scale(b, a) ?? new Mul(new QReal(a), b);
  if (isQ(b) && a instanceof SymReal) return scale(a, b) ?? new Mul(a, new QReal(b));
  if (a instanceof SymReal && b instanceof SymReal && a.kind === b.kind) {
    const k = R.mul(a.q, b.q);
    if (k && a.kind === "sqrt") {
      const r = R.mul(a.r, b.r);
      if (r) return sym("sqrt", k, r, a.origin ?? b.origin);
    }
    if (k && a.kind === "exp") {
      const r = R.add(a.r, b.r);
      if (r) return sym("exp", k, r, a.origin ?? b.origin);
    }
  }
  return new Mul(toReal(a), toReal(b));
}

/** a / b for b ≠ 0 (the caller reports a zero divisor). */
export function div(a: Num, b: Num, pos: number, len: number): Num {
  if (isQ(a) && isQ(b)) return R.div(a, b) ?? new Div(new QReal(a), new QReal(b), pos, len);
  if (isQ(a) && R.isZero(a)) return a;
  if (isQ(b)) {
    if (a instanceof SymReal) {
      const k = R.inv(b);
      if (k) return scale(a, k) ?? new Div(a, new QReal(b), pos, len);
    }
    return new Div(toReal(a), new QReal(b), pos, len);
  }
  if (b instanceof SymReal) {
    if (isQ(a)) {
      if (b.kind === "sqrt") {
        // a / (q√r) = a / (q r) × √r
        const k = R.mul(b.q, b.r);
        const f = k && R.div(a, k);
        if (f) return sym("sqrt", f, b.r, b.origin);
      }
      if (b.kind === "exp") {
        const f = R.div(a, b.q);
        if (f) return sym("exp", f, R.neg(b.r), b.origin);
      }
    } else if (a instanceof SymReal && a.kind === b.kind) {
      const k = R.div(a.q, b.q);
      if (k) {
        if (a.kind === "pi") return k;
        if (a.kind === "sqrt") {
          // q1√r1 / (q2√r2) = q1 / (q2 r2) × √(r1 r2)
          const f = R.div(k, b.r);
          const r = R.mul(a.r, b.r);
          if (f && r) return sym("sqrt", f, r, a.origin ?? b.origin);
        }
        if (a.kind === "exp") {
          const r = R.sub(a.r, b.r);
          if (r) return sym("exp", k, r, a.origin ?? b.origin);
        }
        if (a.kind === "ln") {
          if (eqQ(a.r, b.r)) return k;
          const l = logRational(a.r, b.r);
          if (l) return R.mul(k, l) ?? new Div(a, b, pos, len);
        }
      }
    }
  }
  return new Div(toReal(a), toReal(b), pos, len);
}

/** log10 |x| as a Number, to about 15 digits. */
function log10Q(x: R.Q): number {
  const lead = (v: bigint) => {
    const s = (v < 0n ? -v : v).toString();
    return Math.log10(Number(`0.${s.slice(0, 17)}`)) + s.length;
  };
  return lead(x.n) - lead(x.d) + x.e;
}

/**
 * log_b(x) when it is a rational k/m with m ≤ 12, checked exactly (x^m = b^k); undefined otherwise.
 * x, b > 0, b ≠ 1.
 */
export function logRational(x: R.Q, b: R.Q): R.Q | undefined {
  const lb = log10Q(b);
  if (lb === 0) return undefined;
  const ratio = log10Q(x) / lb;
  if (!Number.isFinite(ratio)) return undefined;
  for (let m = 1; m <= 12; m++) {
    const k = Math.round(ratio * m);
    if (Math.abs(ratio * m - k) > 1e-9 * (Math.abs(k) + 1)) continue;
    const xm = R.powInt(x, m);
    const bk = R.powInt(b, k);
    if (!xm || !bk) return undefined;
    return eqQ(xm, bk) ? q(BigInt(k), BigInt(m)) : undefined;
  }
  return undefined;
}

function overflowCheck(logMag: number, pos: number, len: number): void {
  if (logMag > 1e9) throw new EngineError("overflow", "The result is too large (above 10^1000000)", pos, len);
}

/** x^k for an integer k (x ≠ 0 when k < 0). */
export function powInt(x: Num, k: number, pos: number, len: number): Num {
  if (k === 0) return R.ONE;
  if (k === 1) return x;
  if (isQ(x)) {
    const exact = R.powInt(x, k);
    if (exact) return exact;
    overflowCheck(Math.abs(k * log10Q(x)), pos, len);
  }
  if (x instanceof SymReal && (x.kind === "sqrt" || x.kind === "exp")) {
    const qk = R.powInt(x.q, k);
    if (qk && x.kind === "exp") {
      const r = R.mul(x.r, q(BigInt(k)));
      if (r) return sym("exp", qk, r, x.origin);
    }
    if (qk && x.kind === "sqrt") {
      const half = R.powInt(x.r, Math.floor(k / 2)); // (√r)^k = r^⌊k/2⌋ × √r for odd k
      if (half) {
        const base = R.mul(qk, half);
        if (base) return k % 2 === 0 ? base : sym("sqrt", base, x.r, x.origin);
      }
    }
  }
  const m = Math.abs(k);
  const p = m === 1 ? toReal(x) : new PowInt(toReal(x), m);
  return k < 0 ? new Div(new QReal(R.ONE), p, pos, len) : p;
}

/** The exact value of y when it is a whole number that fits a double exactly. */
function smallInteger(y: Num): number | undefined {
  if (!isQ(y) || !R.isInteger(y)) return undefined;
  if (y.e > 16) return undefined;
  const v = y.e >= 0 ? y.n * R.pow10(y.e) : y.n / R.pow10(-y.e);
  return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : undefined;
}

export interface Ops {
  readonly ziv: ZivContext;
  readonly precision: number;
  /** Throws the engine's limit error when a slow function is used above its precision cap. */
  readonly limit: (name: string) => void;
}

export function sign(x: Num, ops: Ops): -1 | 0 | 1 | undefined {
  if (isQ(x)) return R.sign(x);
  if (x instanceof SymReal) {
    // π, √r (r > 0) and e^r are positive; ln r (r > 0, r ≠ 1: sym() makes ln 1 zero) has the sign of r - 1
    const s = R.sign(x.q);
    return x.kind === "ln" ? ((s * R.cmp(x.r, R.ONE)) as -1 | 0 | 1) : s;
  }
  return signOf(x, ops.precision, ops.ziv);
}

function domain(message: string, pos: number, len: number): never {
  throw new EngineError("domain", message, pos, len);
}

/** x^y. */
export function pow(x: Num, y: Num, ops: Ops, pos: number, len: number, how: string): Num {
  const k = smallInteger(y);
  const xs = isQ(x) ? R.sign(x) : undefined;
  if (xs === 0) {
    const ys = sign(y, ops);
    if (ys === 0) return R.ONE;
    if (ys === -1) throw new EngineError("division_by_zero", "Division by zero", pos, len);
    return R.ZERO;
  }
  if (k !== undefined) return powInt(x, k, pos, len);
  if (isQ(y) && R.isInteger(y)) {
    // a whole exponent beyond 2^53: only ±1 and values whose powers overflow or vanish
    if (isQ(x) && R.cmp(R.absQ(x), R.ONE) === 0) {
      const odd = y.e === 0 && (y.n & 1n) === 1n;
      return x.n < 0n && odd ? x : R.ONE;
    }
    const big = log10Q(y) + Math.log10(Math.abs(isQ(x) ? log10Q(x) : 1) || 1e-300);
    if (big > 9) {
      const grows = isQ(x) ? log10Q(x) > 0 === R.sign(y) > 0 : true;
      throw new EngineError(
        "overflow",
        grows ? "The result is too large (above 10^1000000)" : "The result is too small (below 10^-1000000)",
        pos,
        len,
      );
    }
  }
  const negative = xs === -1 || (xs === undefined && sign(x, ops) === -1);
  if (negative) {
    domain(
      `A negative number to a fractional power is undefined${how === "^" ? "" : ` in ${how}()`}`,
      pos,
      len,
    );
  }
  if (isQ(x) && isQ(y)) {
    // y = a / b: x^(a/b) is rational when x is a b-th power
    const yy = R.make(y.e >= 0 ? y.n * R.pow10(y.e) : y.n, y.e >= 0 ? y.d : y.d * R.pow10(-y.e), 0);
    if (yy && yy.d <= 64n) {
      const b = Number(yy.d);
      const a = Number(yy.n);
      if (Number.isSafeInteger(a)) {
        const root = R.exactRoot(x, b);
        if (root) return powInt(root, a, pos, len);
        if (b === 2) return powInt(sym("sqrt", R.ONE, x), a, pos, len);
      }
    }
  }
  if (x instanceof SymReal && x.kind === "exp" && eqQ(x.q, R.ONE) && isQ(y)) {
    const r = R.mul(x.r, y);
    if (r) return sym("exp", R.ONE, r, x.origin);
  }
  ops.limit("pow");
  return exp(mul(y, ln(x, ops, pos, len)), pos, len);
}

export function exp(x: Num, pos: number, len: number): Num {
  if (isQ(x)) return sym("exp", R.ONE, x);
  if (x instanceof SymReal && x.kind === "ln") {
    const k = smallInteger(x.q);
    if (k !== undefined && Math.abs(k) <= 10_000) return powInt(x.r, k, pos, len);
  }
  return new Fn("exp", x, pos, len);
}

export function ln(x: Num, ops: Ops, pos: number, len: number): Num {
  if (isQ(x)) {
    if (R.sign(x) <= 0) domain("ln() of zero or a negative number is undefined", pos, len);
    return sym("ln", R.ONE, x);
  }
  if (x instanceof SymReal && x.kind === "exp" && R.sign(x.q) > 0) {
    return add(eqQ(x.q, R.ONE) ? R.ZERO : sym("ln", R.ONE, x.q), x.r);
  }
  if (x instanceof SymReal && x.kind === "sqrt" && R.sign(x.q) > 0) {
    // ln(q√r) = ln q + ln(r) / 2
    const l = sym("ln", HALF, x.r);
    return eqQ(x.q, R.ONE) ? l : add(sym("ln", R.ONE, x.q), l);
  }
  void ops;
  return new Fn("ln", x, pos, len);
}

/** log_b x for x > 0, b > 0, b ≠ 1 (checked by the caller for rationals). */
export function log(x: Num, b: Num, ops: Ops, pos: number, len: number): Num {
  if (isQ(x) && isQ(b)) {
    const exact = logRational(x, b);
    if (exact) return exact;
  }
  return div(ln(x, ops, pos, len), ln(b, ops, pos, len), pos, len);
}

export function sqrt(x: Num, pos: number, len: number): Num {
  if (isQ(x)) {
    if (R.sign(x) < 0) domain("sqrt() of a negative number is undefined", pos, len);
    return sym("sqrt", R.ONE, x);
  }
  if (x instanceof SymReal && x.kind === "exp" && R.sign(x.q) > 0) {
    const root = R.exactRoot(x.q, 2);
    const half = R.mul(x.r, HALF);
    if (root && half) return sym("exp", root, half, x.origin);
  }
  return new Fn("sqrt", x, pos, len);
}

export function cbrt(x: Num, pos: number, len: number): Num {
  if (isQ(x)) {
    const root = R.exactRoot(R.absQ(x), 3);
    if (root) return R.sign(x) < 0 ? R.neg(root) : root;
    const r = new Fn("cbrt", new QReal(R.absQ(x)), pos, len);
    return R.sign(x) < 0 ? new Neg(r) : r;
  }
  return new Fn("cbrt", x, pos, len);
}

export function abs(x: Num, ops: Ops): Num {
  if (isQ(x)) return R.absQ(x);
  if (x instanceof SymReal) return sym(x.kind, R.absQ(x.q), x.r, x.origin);
  const s = sign(x, ops);
  if (s === 1) return x;
  if (s === -1) return neg(x);
  return new Abs(x);
}

/** Exact values of sin(tπ) for rational t with 12t whole, where they have the form q or q·√r. */
function sinPi(t: R.Q): Num | undefined {
  const twelve = R.mul(t, q(12n));
  if (!twelve || !R.isInteger(twelve)) return undefined;
  const whole = twelve.e >= 0 ? twelve.n * R.pow10(twelve.e) : twelve.n / R.pow10(-twelve.e);
  const k = Number(((whole % 24n) + 24n) % 24n);
  const table: Record<number, Num> = {
    0: R.ZERO,
    2: HALF,
    3: sym("sqrt", HALF, TWO),
    4: sym("sqrt", HALF, q(3n)),
    6: R.ONE,
    8: sym("sqrt", HALF, q(3n)),
    9: sym("sqrt", HALF, TWO),
    10: HALF,
  };
  const v = table[k % 12];
  if (v === undefined) return undefined;
  return k >= 12 ? neg(v) : v;
}

function piMultiple(x: Num): R.Q | undefined {
  if (isQ(x) && R.isZero(x)) return R.ZERO;
  return x instanceof SymReal && x.kind === "pi" ? x.q : undefined;
}

export function trig(name: "sin" | "cos" | "tan", x: Num, pos: number, len: number): Num {
  const t = piMultiple(x);
  if (t) {
    const s = sinPi(t);
    const shifted = R.add(t, HALF);
    const c = shifted ? sinPi(shifted) : undefined;
    if (name === "sin" && s !== undefined) return s;
    if (name === "cos" && c !== undefined) return c;
    if (name === "tan" && s !== undefined && c !== undefined) {
      if (isQ(c) && R.isZero(c)) domain("tan() is undefined at odd multiples of pi/2", pos, len);
      return div(s, c, pos, len);
    }
  }
  if (name === "tan") return div(trig("sin", x, pos, len), trig("cos", x, pos, len), pos, len);
  return new Fn(name, toReal(x), pos, len);
}

function isSqrt(x: Num, k: R.Q, r: R.Q): boolean {
  return x instanceof SymReal && x.kind === "sqrt" && eqQ(x.q, k) && eqQ(x.r, r);
}

function piTimes(n: bigint, d: bigint): Num {
  return sym("pi", q(n, d), R.ONE);
}

export function inverseTrig(name: "asin" | "acos" | "atan", x: Num, pos: number, len: number): Num {
  if (name !== "atan" && isQ(x) && R.cmp(R.absQ(x), R.ONE) > 0) {
    domain(`${name}() needs a number from -1 to 1`, pos, len);
  }
  if (name === "acos") {
    const a = inverseTrig("asin", x, pos, len);
    if (isQ(a) || a instanceof SymReal) return sub(piTimes(1n, 2n), a);
    return new Fn("acos", toReal(x), pos, len);
  }
  const negative = isQ(x) ? R.sign(x) < 0 : x instanceof SymReal && R.sign(x.q) < 0;
  const ax = negative ? neg(x) : x;
  let v: Num | undefined;
  if (isQ(ax) && R.isZero(ax)) v = R.ZERO;
  else if (name === "asin") {
    if (isQ(ax) && eqQ(ax, R.ONE)) v = piTimes(1n, 2n);
    else if (isQ(ax) && eqQ(ax, HALF)) v = piTimes(1n, 6n);
    else if (isSqrt(ax, HALF, TWO)) v = piTimes(1n, 4n);
    else if (isSqrt(ax, HALF, q(3n))) v = piTimes(1n, 3n);
  } else {
    if (isQ(ax) && eqQ(ax, R.ONE)) v = piTimes(1n, 4n);
    else if (isSqrt(ax, R.ONE, q(3n))) v = piTimes(1n, 3n);
    else if (isSqrt(ax, q(1n, 3n), q(3n))) v = piTimes(1n, 6n);
  }
  if (v !== undefined) return negative ? neg(v) : v;
  return new Fn(name, toReal(x), pos, len);
}

export function atan2(y: Num, x: Num, ops: Ops, pos: number, len: number): Num {
  const ys = sign(y, ops);
  const xs = sign(x, ops);
  if (ys === 0 && xs === 0) domain("atan2(0, 0) is undefined", pos, len);
  if (ys === 0 && xs !== undefined) return xs > 0 ? R.ZERO : piTimes(1n, 1n);
  if (xs === 0 && ys !== undefined) return piTimes(ys > 0 ? 1n : -1n, 2n);
  if (isQ(y) && isQ(x) && eqQ(R.absQ(y), R.absQ(x)) && xs !== undefined && ys !== undefined) {
    return piTimes(BigInt(ys * (xs > 0 ? 1 : 3)), 4n);
  }
  return new Atan2(toReal(y), toReal(x));
}

export function hyperbolic(
  name: "sinh" | "cosh" | "tanh" | "asinh" | "acosh" | "atanh",
  x: Num,
  ops: Ops,
  pos: number,
  len: number,
): Num {
  if (isQ(x) && R.isZero(x) && name !== "acosh") return name === "cosh" ? R.ONE : R.ZERO;
  switch (name) {
    case "sinh":
    case "cosh": {
      const e = exp(x, pos, len);
      const inv = div(R.ONE, e, pos, len);
      return div(name === "sinh" ? sub(e, inv) : add(e, inv), TWO, pos, len);
    }
    case "tanh": {
      const e2 = exp(mul(x, TWO), pos, len);
      return div(sub(e2, R.ONE), add(e2, R.ONE), pos, len);
    }
    case "asinh": {
      // asinh(-x) = -asinh(x): keeps the sum away from cancellation
      const s = sign(x, ops);
      const ax = s === -1 ? neg(x) : x;
      const v = ln(add(ax, sqrt(add(mul(ax, ax), R.ONE), pos, len)), ops, pos, len);
      return s === -1 ? neg(v) : v;
    }
    case "acosh": {
      if (isQ(x) && R.cmp(x, R.ONE) < 0) domain("acosh() needs a number of at least 1", pos, len);
      return ln(add(x, sqrt(sub(mul(x, x), R.ONE), pos, len)), ops, pos, len);
    }
    case "atanh": {
      if (isQ(x) && R.cmp(R.absQ(x), R.ONE) >= 0) domain("atanh() needs a number between -1 and 1", pos, len);
      return div(ln(div(add(R.ONE, x), sub(R.ONE, x), pos, len), ops, pos, len), TWO, pos, len);
    }
  }
}

/**
 * Rounds to a multiple of 10^-dp with the mode: exact for rationals, by Ziv's loop for reals. A real
 * that stays on a rounding boundary (real.ts `settled`) is taken to be on it, and the result is then
 * kept as an approximation (shown as Rounded), not as an exact rational: floor(x) of an x that is not
 * told apart from 5 is 5, Rounded.
 */
export function roundDp(x: Num, dp: number, mode: Parameters<typeof R.roundToDp>[2], ops: Ops): Num {
  if (isQ(x)) {
    const r = R.roundToDp(x, dp, mode);
    if (!r)
      throw new EngineError("limit", "The number is too large to round exactly", ops.ziv.pos, ops.ziv.len);
    return R.make(r.q, 1n, -dp) ?? R.ZERO;
  }
  const soft = Math.max(4 * ops.precision + 100, 400);
  const out = ziv(x, firstWorkingPrecision(ops.precision), soft, ops.ziv, roundingDecider({ dp }, mode), {
    settle: settled,
  });
  if (out.kind === "undecided" && !settled(out.ball, out.wp)) {
    // still wide at 2,000 digits (operands that cancelled): no boundary to take it to be on
    throw new EngineError(
      "limit",
      "The calculation cannot be done at this precision",
      ops.ziv.pos,
      ops.ziv.len,
    );
  }
  const d = out.kind === "decided" ? out.value : roundUndecided(out.ball, { dp }, mode);
  const q = R.fromString(d.toFixed());
  if (!q)
    throw new EngineError("limit", "The number is too large to round exactly", ops.ziv.pos, ops.ziv.len);
  return out.kind === "decided" ? q : new QReal(q);
}

/** -1, 0 or 1; reals that cannot be told apart count as equal. */
export function compare(a: Num, b: Num, ops: Ops): -1 | 0 | 1 {
  if (isQ(a) && isQ(b)) return R.cmp(a, b);
  return sign(sub(a, b), ops) ?? 0;
}

/** The remainder of a / b with the sign of a (b ≠ 0); no quotient for rationals. */
export function mod(a: Num, b: Num, ops: Ops, pos: number, len: number): Num {
  if (isQ(a) && isQ(b)) {
    const r = R.mod(a, b);
    if (r) return r;
  }
  const t = roundDp(div(a, b, pos, len), 0, "down", ops);
  return sub(a, mul(b, t));
}

export function percent(x: Num, pos: number, len: number): Num {
  return div(x, HUNDRED, pos, len);
}

export { type FnName, Real };

/** π as a symbolic value (1·π). */
export function trigConstantPi(): Num {
  return sym("pi", R.ONE, R.ONE);
}
