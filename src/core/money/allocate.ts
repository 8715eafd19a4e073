/**
 * Splitting money so that the parts always sum exactly to the total.
 *
 * Rule (deterministic): every part first gets its exact share truncated towards zero (in minor
 * units). The minor units left over, fewer than the number of parts, go one each to the parts with
 * the largest remainders (the fractional minor units they lost), ties going to the lower index.
 * For an equal split every remainder ties, so the first parts get the extra unit:
 * 100.00 / 3 = 33.34, 33.33, 33.33. A negative total is split the same way with signs reversed
 * (-100.00 / 3 = -33.34, -33.33, -33.33); parts never have a sign opposite to the total.
 */
import type { Money } from "./money";
import { parseScaled, pow10 } from "./rational";

/** Largest number of parts accepted by `split` and `allocate`. */
export const MAX_PARTS = 10_000;

/** Splits `total` into `n` parts (1 ≤ n ≤ MAX_PARTS) that differ by at most one minor unit. */
export function split(total: Money, n: number): Money[] {
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PARTS) {
    throw new RangeError(`The number of parts must be a whole number from 1 to ${MAX_PARTS}`);
  }
  return allocateWeights(
    total,
    Array.from({ length: n }, () => 1n),
  );
}

/** A ratio: a non-negative decimal string ("1.5", "0.25", "3"), a non-negative safe integer, or a bigint. */
export type Ratio = string | number | bigint;

/**
 * Allocates `total` in proportion to `ratios` (non-negative, at least one above zero). A zero ratio
 * gets a zero part. Parts sum exactly to the total.
 */
export function allocate(total: Money, ratios: readonly Ratio[]): Money[] {
  if (ratios.length < 1 || ratios.length > MAX_PARTS) {
    throw new RangeError(`Give from 1 to ${MAX_PARTS} ratios`);
  }
  const scaled = ratios.map((r, i) => {
    let text: string;
    if (typeof r === "bigint") text = r.toString();
    else if (typeof r === "number") {
      if (!Number.isSafeInteger(r))
        throw new RangeError(`Ratio ${i + 1} must be an integer or a decimal string`);
      text = String(r);
    } else text = r;
    const s = /^\s*\+?(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? parseScaled(text) : undefined;
    if (!s || s.num < 0n) throw new RangeError(`Ratio ${i + 1} is not a non-negative decimal: ${text}`);
    return s;
  });
  const maxScale = Math.max(...scaled.map((s) => s.scale));
  const weights = scaled.map((s) => s.num * pow10(maxScale - s.scale));
  if (!weights.some((w) => w > 0n)) throw new RangeError("At least one ratio must be above zero");
  return allocateWeights(total, weights);
}

function allocateWeights(total: Money, weights: readonly bigint[]): Money[] {
  const sumW = weights.reduce((a, b) => a + b, 0n);
  const amounts: bigint[] = [];
  const remainders: bigint[] = [];
  let allotted = 0n;
  for (const w of weights) {
    const p = total.amount * w;
    const q = p / sumW; // towards zero
    amounts.push(q);
    const r = p % sumW;
    remainders.push(r < 0n ? -r : r);
    allotted += q;
  }
  let left = total.amount - allotted;
  const step = left < 0n ? -1n : 1n;
  if (left !== 0n) {
    const order = weights.map((_, i) => i);
    order.sort((a, b) => {
      const ra = remainders[a] ?? 0n;
      const rb = remainders[b] ?? 0n;
      return ra > rb ? -1 : ra < rb ? 1 : a - b;
    });
    for (const i of order) {
      if (left === 0n) break;
      amounts[i] = (amounts[i] ?? 0n) + step;
      left -= step;
    }
  }
  return amounts.map((amount) => Object.freeze({ amount, currency: total.currency }));
}
