/**
 * ln and sqrt of a decimal at a moderate working precision, on bigint fixed-point numbers, for Ziv's
 * loop (real.ts). They replace decimal.js's ln and sqrt there, which allocate digit strings and arrays
 * at every step of their series and Newton iterations; these give the same guarantee that the ball
 * arithmetic relies on (the result is within one unit in the last of the wp digits; here within about
 * a twentieth of a unit), at a fraction of the cost.
 *
 * - sqrt: the floor of the integer square root of the scaled significand (exact, by Newton's method on
 *   bigints from a double's estimate): the digits are right to the last, and the truncation is below a
 *   hundredth of a unit at wp.
 * - ln: c = N × 10^k, N = 2^(L-1) × m with 1 ≤ m < 2, m = (1 + j/32) × y with 1 ≤ y < 1 + 1/32; then
 *   ln c = k ln 10 + (L-1) ln 2 + ln(1 + j/32) + 2 atanh((y-1)/(y+1)), the series converging by more
 *   than 3.6 digits a term. The constants (ln 2, ln 10, ln(1 + j/32)) are computed once per precision
 *   (from ln n = ln(n-1) + 2 atanh(1/(2n-1))) and cached. Every fixed-point operation truncates by less
 *   than one unit of 2^-B; B carries enough guard bits for all of them together to stay below a
 *   hundredth of a unit at wp.
 *
 * Both return undefined where they do not apply (precision above FAST_MAX_WP, ln of a value within 1%
 * of 1, where the absolute precision needed grows); the caller then uses decimal.js.
 */
import type Decimal from "decimal.js";

/** Highest working precision at which these are used (the cost model is decimal.js's, above them). */
export const FAST_MAX_WP = 160;

const LOG2_10 = Math.log2(10);

/** c = n × 10^k with n > 0 a bigint (c > 0 and finite). */
function parts(c: Decimal): { n: bigint; k: number; len: number } {
  const d = c.d;
  let s = String(d[0]);
  for (let i = 1; i < d.length; i++) s += String(d[i]).padStart(7, "0");
  // decimal.js's words carry no trailing zero word; the digits are s, the first at exponent c.e
  return { n: BigInt(s), k: c.e - s.length + 1, len: s.length };
}

/** floor(sqrt(x)) for x ≥ 0, exactly: Newton's method from a double's estimate. */
export function isqrt(x: bigint): bigint {
  if (x < 2n) return x;
  const bits = x.toString(16).length * 4;
  let r: bigint;
  if (bits <= 1000) {
    // the square root of the leading 52 bits, shifted back: within about 2^-26 of the root
    const shift = Math.max(0, bits - 104) & ~1;
    const top = Number(x >> BigInt(shift));
    r = (BigInt(Math.floor(Math.sqrt(top))) + 1n) << BigInt(shift / 2);
  } else {
    r = 1n << BigInt((bits >> 1) + 1);
  }
  // Newton from above: decreases to the floor (r ≥ √x after the first step)
  r = (r + x / r) >> 1n;
  for (;;) {
    const next = (r + x / r) >> 1n;
    if (next >= r) break;
    r = next;
  }
  while (r * r > x) r--;
  while ((r + 1n) * (r + 1n) <= x) r++;
  return r;
}

/**
 * sqrt(c) for c > 0 to wp + 2 digits, truncated: |result - √c| < 10^-2 units in the wp-th digit.
 * undefined above FAST_MAX_WP.
 */
export function sqrtFast(c: Decimal, wp: number, D: typeof Decimal): Decimal | undefined {
  if (wp > FAST_MAX_WP || c.isNeg() || c.isZero() || !c.isFinite()) return undefined;
  const { n, k, len } = parts(c);
  // n × 10^t with 2(wp + 2) or 2(wp + 2) + 1 digits and k - t even: its root has wp + 2 digits
  let t = 2 * (wp + 2) - len;
  if ((k - t) % 2 !== 0) t++;
  const scaled = t >= 0 ? n * 10n ** BigInt(t) : n / 10n ** BigInt(-t);
  const s = isqrt(scaled);
  return new D(`${s}e${(k - t) / 2}`);
}

// ---- ln ----------------------------------------------------------------------------------------

interface LnTable {
  readonly bits: number;
  readonly ln2: bigint;
  readonly ln10: bigint;
  /** ln(1 + j/32), j = 0..31. */
  readonly steps: readonly bigint[];
}

let table: LnTable | undefined;

/** 2 atanh(1/m) × 2^bits (truncated, error below 2 + number of terms units). */
function twoAtanhInv(m: bigint, bits: number): bigint {
  const one = 1n << BigInt(bits);
  const m2 = m * m;
  let t = one / m;
  let s = t;
  for (let k = 3n; ; k += 2n) {
    t /= m2;
    if (t === 0n) break;
    s += t / k;
  }
  return 2n * s;
}

/** The constants at (at least) `bits` fractional bits, each within one unit of 2^-bits. */
function lnTable(bits: number): LnTable {
  if (table && table.bits >= bits) return table;
  // 24 guard bits: the 63 steps of ln n = ln(n-1) + 2 atanh(1/(2n-1)) add their errors (each below
  // a few hundred units at the precisions used)
  const want = Math.ceil(Math.max(bits, 256) / 128) * 128;
  const B = want + 24;
  const lnInt: bigint[] = [0n, 0n];
  for (let n = 2; n <= 64; n++) lnInt[n] = (lnInt[n - 1] as bigint) + twoAtanhInv(BigInt(2 * n - 1), B);
  const g = 24n;
  const ln2 = lnInt[2] as bigint;
  const steps: bigint[] = [];
  for (let j = 0; j < 32; j++) steps.push(((lnInt[32 + j] as bigint) - 5n * ln2) >> g);
  table = { bits: want, ln2: ln2 >> g, ln10: (lnInt[10] as bigint) >> g, steps };
  return table;
}

/** A constant of the table at `bits` fractional bits (≤ the table's). */
function at(v: bigint, tableBits: number, bits: number): bigint {
  return tableBits === bits ? v : v >> BigInt(tableBits - bits);
}

/**
 * ln(c) for c > 0 to wp + 2 significant digits or more, within 10^-2 units in the wp-th digit.
 * undefined above FAST_MAX_WP and for 0.99 < c < 1.0101 (|ln c| < 0.01), where decimal.js is used.
 */
export function lnFast(c: Decimal, wp: number, D: typeof Decimal): Decimal | undefined {
  if (wp > FAST_MAX_WP || c.isNeg() || c.isZero() || !c.isFinite()) return undefined;
  if (c.e === 0 || c.e === -1) {
    const v = c.toNumber();
    if (v > 0.99 && v < 1.0101) return undefined;
  }
  const { n, k } = parts(c);
  const L = n.toString(16).length * 4; // an upper bound of n's bit length; the exact one below
  let Lx = L;
  while (Lx > 1 && n >> BigInt(Lx - 1) === 0n) Lx--;
  // |ln c| ≥ 0.01, so wp + 2 digits of the result lie at or above 10^-(wp + 4): B fractional bits with
  // the error (a few hundred units, plus |k| + Lx from the multiples of ln 10 and ln 2) below 10^-2 of
  // a unit there
  const extra = Math.ceil(Math.log2(Math.abs(k) + Lx + 1024));
  const B = Math.ceil((wp + 6) * LOG2_10) + extra + 4;
  const T = lnTable(B);
  const one = 1n << BigInt(B);
  // m = n / 2^(Lx-1) in [1, 2) as B-bit fixed point
  const shift = B - (Lx - 1);
  const M = shift >= 0 ? n << BigInt(shift) : n >> BigInt(-shift);
  const j = Number((M >> BigInt(B - 5)) - 32n);
  const Y = (M << 5n) / BigInt(32 + j);
  const Z = ((Y - one) << BigInt(B)) / (Y + one);
  const Z2 = (Z * Z) >> BigInt(B);
  let t = Z;
  let s = Z;
  for (let q = 3n; ; q += 2n) {
    t = (t * Z2) >> BigInt(B);
    if (t === 0n) break;
    s += t / q;
  }
  const fixed =
    2n * s +
    at(T.steps[j] as bigint, T.bits, B) +
    BigInt(Lx - 1) * at(T.ln2, T.bits, B) +
    BigInt(k) * at(T.ln10, T.bits, B);
  // the result's decimal exponent, estimated (it may be one off near a power of ten: two more digits
  // than wp are kept, so even then at least wp + 1 are)
  const approx = Number(fixed >> BigInt(Math.max(0, B - 60))) / 2 ** Math.min(B, 60);
  const e = Math.floor(Math.log10(Math.abs(approx)));
  const sdigits = wp + 2 - e; // digits after the point kept
  const scaled = fixed * 10n ** BigInt(sdigits);
  const neg = scaled < 0n;
  const a = neg ? -scaled : scaled;
  const r = (a + (one >> 1n)) >> BigInt(B); // to nearest
  return new D(`${neg ? "-" : ""}${r}e-${sdigits}`);
}
