/**
 * π and e to CONSTANT_DIGITS decimal digits, computed once on first use with exact integer arithmetic
 * (Machin's formula and the series of 1/k!), so that they can be rounded correctly to any precision the
 * engine allows (1000 digits) with room for Ziv's guard digits and argument reduction without decimal.js's slow trigonometric series.
 */
const CONSTANT_DIGITS = 2_100;

let piText: string | undefined;
let eText: string | undefined;

function fixedToString(v: bigint, digits: number): string {
  const s = v.toString();
  return `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
}

/** atan(1/x) × 10^digits, truncated (x > 1). */
function arctanInv(x: bigint, scale: bigint): bigint {
  const x2 = x * x;
  let term = scale / x;
  let sum = term;
  let k = 1n;
  let sign = -1n;
  while (term !== 0n) {
    term /= x2;
    const t = term / (2n * k + 1n);
    sum += sign * t;
    sign = -sign;
    k++;
  }
  return sum;
}

/** π with CONSTANT_DIGITS digits after the point (the last few guard digits may be off by a little). */
export function piDigits(): string {
  if (!piText) {
    const guard = 20;
    const scale = 10n ** BigInt(CONSTANT_DIGITS + guard);
    const pi = 16n * arctanInv(5n, scale) - 4n * arctanInv(239n, scale);
    piText = fixedToString(pi / 10n ** BigInt(guard), CONSTANT_DIGITS);
  }
  return piText;
}

/** e with CONSTANT_DIGITS digits after the point. */
export function eDigits(): string {
  if (!eText) {
    const guard = 20;
    const scale = 10n ** BigInt(CONSTANT_DIGITS + guard);
    let term = scale;
    let sum = 0n;
    for (let k = 1n; term !== 0n; k++) {
      sum += term;
      term /= k;
    }
    eText = fixedToString(sum / 10n ** BigInt(guard), CONSTANT_DIGITS);
  }
  return eText;
}
