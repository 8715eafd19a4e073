/**
 * Exact rationals for the expression engine: n / d × 10^e with bigint n and d (d > 0) and a number e.
 * The separate power of ten keeps `1e999999` or `10^1000000` as small as `1`, so that `%` of huge
 * operands needs no quotient (10^k mod m by modular exponentiation) and literals cost nothing.
 *
 * Why not fraction.js: it has no exponent (1e999999 would be a million-digit bigint) and reduces by a
 * gcd after every operation, which is quadratic in the size of the operands; here a gcd runs only
 * while operands are small (REDUCE_BITS), and every operation's size is estimated before it runs
 * (MAX_EXACT_BITS): an operation whose exact result would be bigger returns undefined and the engine
 * continues with a correctly bounded approximation instead (see real.ts).
 */
import { pow10, roundDiv } from "../bigint";
import type { RoundingMode } from "../rounding";

// powers of ten and the rounding of a quotient are shared with core/money (core/bigint.ts)
export { pow10, roundDiv };

export interface Q {
  readonly n: bigint;
  /** Always > 0. */
  readonly d: bigint;
  readonly e: number;
}

/** Largest numerator or denominator kept exact, in bits (about 4,900 decimal digits). */
export const MAX_EXACT_BITS = 16_384;
/** Fractions are reduced by their gcd only while both parts are at most this many bits (a gcd is quadratic). */
const REDUCE_BITS = 4_096;
/** Largest |exponent| of an exact value; beyond it, arithmetic is refused as an overflow. */
export const MAX_Q_EXPONENT = 1e15;

export const ZERO: Q = { n: 0n, d: 1n, e: 0 };
export const ONE: Q = { n: 1n, d: 1n, e: 0 };

const SMALL = 1n << 52n;

/** Bit length of |x| (0 for 0); exact for small values, from the hex length for large ones. */
export function bitLength(x: bigint): number {
  const a = x < 0n ? -x : x;
  if (a < SMALL) return a === 0n ? 0 : Math.floor(Math.log2(Number(a))) + 1;
  return a.toString(16).length * 4;
}

/** 10^0 … 10^22 as doubles (exact). */
const POW10_NUMBER = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Decimal digits of |x| (1 for 0); without a string for values below 2^52. */
export function digitCount(x: bigint): number {
  const a = x < 0n ? -x : x;
  if (a < SMALL) {
    const v = Number(a);
    let k = 1;
    while (k < 16 && v >= (POW10_NUMBER[k] as number)) k++;
    return k;
  }
  return a.toString().length;
}

/** gcd(|a|, |b|) by Euclid's algorithm, on doubles (exact below 2^52) once both values are that small. */
function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    if (a < SMALL && b < SMALL) return BigInt(gcdNumber(Number(a), Number(b)));
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Builds a normalised value (d > 0, reduced while small); undefined if too big to keep exact. */
export function make(n: bigint, d: bigint, e: number): Q | undefined {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (n === 0n) return ZERO;
  if (d !== 1n && n !== 1n && n !== -1n) {
    const bn = bitLength(n);
    const bd = bitLength(d);
    if (bn <= REDUCE_BITS && bd <= REDUCE_BITS) {
      const g = gcd(n, d);
      if (g !== 1n) {
        n /= g;
        d /= g;
      }
    } else if (bn > MAX_EXACT_BITS || bd > MAX_EXACT_BITS) return undefined;
  } else if (d !== 1n) {
    if (d >= SMALL && bitLength(d) > MAX_EXACT_BITS) return undefined;
  } else if (n >= SMALL || n <= -SMALL) {
    if (bitLength(n) > MAX_EXACT_BITS) return undefined;
  }
  if (Math.abs(e) > MAX_Q_EXPONENT) return undefined;
  return { n, d, e };
}

/** A literal as the lexer gives it: digits, an optional point and an optional exponent (no sign). */
export function fromLiteral(text: string): Q | undefined {
  // one pass over the characters (no regular expression, no bigint division): the first and last
  // nonzero digits give the integer's digits, the point and the exponent give the power of ten
  const len = text.length;
  let i = 0;
  let point = -1;
  let first = -1;
  let last = -1;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (point >= 0) return undefined;
      point = i;
    } else if (c >= 48 && c <= 57) {
      if (c !== 48) {
        if (first < 0) first = i;
        last = i;
      }
    } else if (c === 101 || c === 69) break;
    else return undefined;
  }
  const mantissaEnd = i;
  let exp = 0;
  if (i < len) {
    const t = text.slice(i + 1);
    if (!/^[+-]?\d+$/.test(t)) return undefined;
    exp = Number.parseInt(t, 10);
  }
  if (first < 0) return ZERO;
  // value = digits[first..last] × 10^(exp + number of digits after `last` before the point, or minus
  // the fraction digits up to `last`)
  const pointAt = point < 0 ? mantissaEnd : point;
  const digits =
    point > first && point < last
      ? text.slice(first, point) + text.slice(point + 1, last + 1)
      : text.slice(first, last + 1);
  const e = exp + (last < pointAt ? pointAt - last - 1 : pointAt - last);
  if (digits.length <= 15 && Math.abs(e) <= MAX_Q_EXPONENT) return { n: BigInt(Number(digits)), d: 1n, e };
  return make(BigInt(digits), 1n, e);
}

/** A decimal string with an optional sign ("-12.5", "1e-7") or a fraction "n/d". */
export function fromString(text: string): Q | undefined {
  const f = /^([+-]?\d{1,4000})\/(\d{1,4000})$/.exec(text);
  if (f) {
    const d = BigInt(f[2] as string);
    return d === 0n ? undefined : make(BigInt(f[1] as string), d, 0);
  }
  const m = /^([+-])?(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d{1,16}))?$/.exec(text);
  if (!m) return undefined;
  const q = fromLiteral(`${m[2]}${m[3] !== undefined ? `e${m[3]}` : ""}`);
  return q && m[1] === "-" ? neg(q) : q;
}

export function fromBigInt(n: bigint): Q {
  return make(n, 1n, 0) ?? ZERO;
}

export function sign(a: Q): -1 | 0 | 1 {
  return a.n === 0n ? 0 : a.n < 0n ? -1 : 1;
}

export function isZero(a: Q): boolean {
  return a.n === 0n;
}

export function neg(a: Q): Q {
  return a.n === 0n ? a : { n: -a.n, d: a.d, e: a.e };
}

export function absQ(a: Q): Q {
  return a.n < 0n ? { n: -a.n, d: a.d, e: a.e } : a;
}

/** Whether the value is a whole number. */
export function isInteger(a: Q): boolean {
  if (a.n === 0n) return true;
  if (a.e >= 0) {
    if (a.d === 1n) return true;
    // with more factors of ten than d has bits, every 2 and 5 of d divides 10^e
    if (a.e > bitLength(a.d)) return dividesPow10(a);
    return (a.n * pow10(a.e)) % a.d === 0n;
  }
  // n / (d × 10^-e): a nonzero n with fewer digits than 10^-e has cannot be a multiple of it
  if (-a.e > digitCount(a.n)) return false;
  return a.n % (a.d * pow10(-a.e)) === 0n;
}

function dividesPow10(a: Q): boolean {
  let d = a.d;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  return a.n % d === 0n;
}

/** Upper and lower bounds of log10 |a| (a ≠ 0): floor(log10|a|) is lo or lo + 1. */
export function magnitude(a: Q): number {
  return digitCount(a.n) - digitCount(a.d) + a.e;
}

/** floor(log10 |a|) for a ≠ 0, exactly. */
export function exponentOf(a: Q): number {
  if (a.d === 1n) return digitCount(a.n) - 1 + a.e;
  const guess = magnitude(a); // |a| < 10^guess × 10, |a| > 10^(guess-2)
  // |a| ≥ 10^guess ⇔ |n| × 10^e ≥ d × 10^guess
  return geqPow10(a, guess) ? guess : geqPow10(a, guess - 1) ? guess - 1 : guess - 2;
}

function geqPow10(a: Q, k: number): boolean {
  const s = a.e - k; // |n| × 10^s ≥ d
  const n = abs(a.n);
  return s >= 0 ? n * pow10(s) >= a.d : n >= a.d * pow10(-s);
}

function align(a: Q, b: Q): [bigint, bigint, number] | undefined {
  // returns a.n·X and b.n·Y over a common 10^e (numerators only; denominators handled by caller)
  if (a.e === b.e) return [a.n, b.n, a.e];
  const k = Math.abs(a.e - b.e);
  const big = a.e > b.e ? a : b;
  if (bitLength(big.n) + k * 3.33 > MAX_EXACT_BITS) return undefined;
  return a.e > b.e ? [a.n * pow10(k), b.n, b.e] : [a.n, b.n * pow10(k), a.e];
}

export function add(a: Q, b: Q): Q | undefined {
  if (a.n === 0n) return b;
  if (b.n === 0n) return a;
  const al = align(a, b);
  if (!al) return undefined;
  const [x, y, e] = al;
  if (a.d === 1n && b.d === 1n) return make(x + y, 1n, e);
  if (a.d === b.d) return make(x + y, a.d, e);
  return make(x * b.d + y * a.d, a.d * b.d, e);
}

export function sub(a: Q, b: Q): Q | undefined {
  return add(a, neg(b));
}

export function mul(a: Q, b: Q): Q | undefined {
  if (a.n === 0n || b.n === 0n) return ZERO;
  if (a.d === 1n && b.d === 1n) return make(a.n * b.n, 1n, a.e + b.e);
  return make(a.n * b.n, a.d * b.d, a.e + b.e);
}

/** a / b; b must not be zero. */
export function div(a: Q, b: Q): Q | undefined {
  if (a.n === 0n) return ZERO;
  return make(a.n * b.d, a.d * b.n, a.e - b.e);
}

export function inv(a: Q): Q | undefined {
  return make(a.d, a.n, -a.e);
}

/** a^k for an integer k (a ≠ 0 when k < 0); undefined when the exact result would be too big. */
export function powInt(a: Q, k: number): Q | undefined {
  if (k === 0) return ONE;
  if (a.n === 0n) return ZERO;
  const m = Math.abs(k);
  const bits = Math.max(bitLength(a.n), bitLength(a.d));
  const unit = (a.n === 1n || a.n === -1n) && a.d === 1n;
  if (!unit && (bits - 1) * m > MAX_EXACT_BITS) return undefined;
  if (Math.abs(a.e * m) > MAX_Q_EXPONENT) return undefined;
  const big = BigInt(m);
  const r = { n: a.n ** big, d: a.d ** big, e: a.e * m };
  return k < 0 ? make(r.d, r.n, -r.e) : r;
}

export function cmp(a: Q, b: Q): -1 | 0 | 1 {
  const sa = sign(a);
  const sb = sign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const ma = magnitude(a);
  const mb = magnitude(b);
  if (Math.abs(ma - mb) > 2) return (ma > mb ? sa : -sa) as -1 | 1;
  // a.n·b.d·10^a.e vs b.n·a.d·10^b.e (exponents differ by a few digits at most after the test above
  // only when the mantissas are of similar size, so the shift stays small relative to them)
  let x = a.n * b.d;
  let y = b.n * a.d;
  const k = a.e - b.e;
  if (k > 0) x *= pow10(k);
  else if (k < 0) y *= pow10(-k);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Modular exponentiation base^exp mod m (exp ≥ 0, m > 0). */
function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  if (m === 1n) return 0n;
  let result = 1n;
  let b = base % m;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    e >>= 1n;
    if (e > 0n) b = (b * b) % m;
  }
  return result;
}

/**
 * The remainder of a / b truncated towards zero (the sign of a), b ≠ 0, computed without the quotient:
 * over a common denominator D and a common factor 10^g, a = X·10^g / D and b = Y·10^g / D, and
 * X mod Y = ((X / 10^k) mod Y) × (10^k mod Y) mod Y where 10^k is the power of ten X carries.
 */
export function mod(a: Q, b: Q): Q | undefined {
  if (a.n === 0n) return ZERO;
  const g = Math.min(a.e, b.e);
  const D = a.d * b.d;
  if (bitLength(D) > MAX_EXACT_BITS) return undefined;
  const xa = abs(a.n) * b.d; // X = xa × 10^(a.e - g)
  const yb = abs(b.n) * a.d;
  const kb = b.e - g;
  if (bitLength(yb) + kb * 3.33 > MAX_EXACT_BITS) {
    // |b| is far larger than |a| in this representation only if |a| < |b|: then a mod b = a
    if (cmp(absQ(a), absQ(b)) < 0) return a;
    return undefined;
  }
  const Y = yb * pow10(kb);
  const ka = a.e - g;
  const r = ((xa % Y) * modPow(10n, BigInt(ka), Y)) % Y;
  return make(a.n < 0n ? -r : r, D, g);
}

/** Rounds to an integer multiple of 10^-dp with the mode; undefined when that needs too many digits. */
export function roundToDp(a: Q, dp: number, mode: RoundingMode): { q: bigint; exact: boolean } | undefined {
  // value × 10^dp = n × 10^(e+dp) / d
  const s = a.e + dp;
  let num: bigint;
  let den: bigint;
  if (s >= 0) {
    if (bitLength(a.n) + s * 3.33 > 4 * MAX_EXACT_BITS) return undefined;
    num = a.n * pow10(s);
    den = a.d;
  } else {
    if (-s > 64 && digitCount(a.n) + 1 < -s) {
      // |value × 10^dp| < 0.1: the quotient is 0 with a nonzero remainder
      return { q: roundTiny(a.n, mode), exact: false };
    }
    num = a.n;
    den = a.d * pow10(-s);
  }
  const q = roundDiv(num, den, mode);
  return { q, exact: num % den === 0n };
}

function roundTiny(n: bigint, mode: RoundingMode): bigint {
  if (n === 0n) return 0n;
  const pos = n > 0n;
  if (mode === "up") return pos ? 1n : -1n;
  if (mode === "ceil") return pos ? 1n : 0n;
  if (mode === "floor") return pos ? 0n : -1n;
  return 0n;
}

/**
 * Rounds to `p` significant digits: the result is q × 10^exp with q of p digits (or 10^p after
 * rounding up), and whether the rounding was exact.
 */
export function roundToSd(
  a: Q,
  p: number,
  mode: RoundingMode,
): { q: bigint; exp: number; exact: boolean } | undefined {
  if (a.n === 0n) return { q: 0n, exp: 0, exact: true };
  const E = exponentOf(a);
  const r = roundToDp(a, p - 1 - E, mode);
  if (!r) return undefined;
  return { q: r.q, exp: E - p + 1, exact: r.exact };
}

/** Integer k-th root of x ≥ 0 (floor), by Newton's method. */
export function iroot(x: bigint, k: number): bigint {
  if (x < 2n) return x;
  const K = BigInt(k);
  const bits = bitLength(x);
  let r = 1n << BigInt(Math.ceil(bits / k) + 1);
  for (;;) {
    const next = ((K - 1n) * r + x / r ** (K - 1n)) / K;
    if (next >= r) break;
    r = next;
  }
  while (r ** K > x) r--;
  while ((r + 1n) ** K <= x) r++;
  return r;
}

/** The exact k-th root of a ≥ 0 (k ≤ 64) when it is rational; undefined otherwise. */
export function exactRoot(a: Q, k: number): Q | undefined {
  if (a.n === 0n) return ZERO;
  if (a.n < 0n || k < 1 || k > 64) return undefined;
  if (k === 1) return a;
  // make the exponent a multiple of k: n × 10^r × 10^(e - r)
  const r = ((a.e % k) + k) % k;
  if (bitLength(a.n) + r * 3.33 > MAX_EXACT_BITS) return undefined;
  const n = a.n * pow10(r);
  const rn = iroot(n, k);
  const K = BigInt(k);
  if (rn ** K !== n) return undefined;
  const rd = iroot(a.d, k);
  if (rd ** K !== a.d) return undefined;
  return make(rn, rd, (a.e - r) / k);
}

/** A plain decimal string of q × 10^exp (q an integer), e.g. for decimal.js. */
export function scaledString(q: bigint, exp: number): string {
  return exp === 0 ? q.toString() : `${q}e${exp}`;
}

/** Whether the value has a finite decimal expansion (its reduced denominator has only 2s and 5s). */
export function isFiniteDecimal(a: Q): boolean {
  let d = a.d;
  if (bitLength(d) > REDUCE_BITS) return false;
  const g = gcd(a.n, d);
  d /= g;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  return d === 1n;
}

/**
 * The repeating part of the decimal expansion of a (a value whose reduced denominator has a prime factor
 * other than 2 and 5): the digits after the point before the cycle and the cycle itself, when the
 * cycle is at most `maxPeriod` digits. Undefined otherwise.
 */
export function repetend(
  a: Q,
  maxPeriod = 60,
): { sign: string; int: string; pre: string; cycle: string } | undefined {
  if (a.d === 1n || a.e > 20 || a.e < -20) return undefined;
  let n = abs(a.n);
  let d = a.d;
  if (a.e >= 0) n *= pow10(a.e);
  else d *= pow10(-a.e);
  if (d > 1_000_000_000_000n) return undefined; // the digit loop below runs on doubles: rem × 10 < 2^53
  const int = n / d;
  let den = Number(d);
  let rem = Number(n % d);
  const g = gcdNumber(rem, den);
  rem /= g;
  den /= g;
  let m = den;
  let twos = 0;
  let fives = 0;
  while (m % 2 === 0) {
    m /= 2;
    twos++;
  }
  while (m % 5 === 0) {
    m /= 5;
    fives++;
  }
  if (m === 1) return undefined;
  const preLen = Math.max(twos, fives);
  let pre = "";
  for (let i = 0; i < preLen; i++) {
    rem *= 10;
    pre += Math.floor(rem / den);
    rem %= den;
  }
  const start = rem;
  let cycle = "";
  do {
    rem *= 10;
    cycle += Math.floor(rem / den);
    rem %= den;
    if (cycle.length > maxPeriod) return undefined;
  } while (rem !== start);
  return { sign: a.n < 0n ? "-" : "", int: int.toString(), pre, cycle };
}

function gcdNumber(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}
