/**
 * The bigint ln and sqrt used by Ziv's loop must keep decimal.js's guarantee that the ball arithmetic
 * relies on (within one unit in the last of wp digits; they promise a hundredth of one): checked against
 * decimal.js at 40 more digits on random and edge-case arguments.
 */
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAST_MAX_WP, isqrt, lnFast, sqrtFast } from "./fastfn";

function ctor(precision: number): typeof Decimal {
  return Decimal.clone({ precision, rounding: Decimal.ROUND_HALF_EVEN, minE: -9e15, maxE: 9e15 });
}

/** |approx - exact| in units of the wp-th significant digit of the exact value. */
function unitsOff(approx: Decimal, exact: Decimal, wp: number): number {
  const H = exact.constructor as typeof Decimal;
  return new H(approx)
    .minus(exact)
    .abs()
    .div(new H(10).pow(exact.e - wp + 1))
    .toNumber();
}

/** An argument: up to wp significant digits, decimal exponent from -400 to 400 (or huge). */
const argument = fc.record({
  digits: fc.bigInt({ min: 1n, max: 10n ** 160n }),
  exp: fc.oneof(fc.integer({ min: -400, max: 400 }), fc.integer({ min: -2_000_000, max: 2_000_000 })),
  wp: fc.integer({ min: 8, max: FAST_MAX_WP }),
});

describe("isqrt", () => {
  it("is the floor of the square root", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 400n }), (x) => {
        const r = isqrt(x);
        expect(r * r <= x && (r + 1n) * (r + 1n) > x).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    for (const x of [0n, 1n, 2n, 3n, 4n, 99n, 100n, 10n ** 40n, 10n ** 40n - 1n, (2n ** 100n + 1n) ** 2n])
      expect(isqrt(x) ** 2n <= x && (isqrt(x) + 1n) ** 2n > x).toBe(true);
  });
});

describe("sqrtFast", () => {
  it("is within a hundredth of a unit at wp digits", () => {
    fc.assert(
      fc.property(argument, ({ digits, exp, wp }) => {
        const D = ctor(wp);
        const x = new D(`${digits}e${exp}`).toSD(wp);
        const got = sqrtFast(x, wp, D);
        expect(got).toBeDefined();
        const H = ctor(wp + 40);
        expect(unitsOff(got as Decimal, new H(x).sqrt(), wp)).toBeLessThanOrEqual(0.01);
      }),
      { numRuns: 1_500 },
    );
  });

  it("gives exact roots exactly and leaves other cases to decimal.js", () => {
    const D = ctor(23);
    expect((sqrtFast(new D("2.25"), 23, D) as Decimal).eq("1.5")).toBe(true);
    expect((sqrtFast(new D("1e-300"), 23, D) as Decimal).eq("1e-150")).toBe(true);
    expect((sqrtFast(new D("1e301"), 23, D) as Decimal).toSD(23).toString()).toBe(
      new (ctor(23))("1e301").sqrt().toString(),
    );
    expect(sqrtFast(new D(0), 23, D)).toBeUndefined();
    expect(sqrtFast(new D(-4), 23, D)).toBeUndefined();
    const big = ctor(FAST_MAX_WP + 1);
    expect(sqrtFast(new big(2), FAST_MAX_WP + 1, big)).toBeUndefined();
  });
});

describe("lnFast", () => {
  it("is within a hundredth of a unit at wp digits", () => {
    fc.assert(
      fc.property(argument, ({ digits, exp, wp }) => {
        const D = ctor(wp);
        const x = new D(`${digits}e${exp}`).toSD(wp);
        const got = lnFast(x, wp, D);
        const H = ctor(wp + 40);
        const exact = new H(x).ln();
        if (got === undefined) {
          expect(exact.abs().lt("0.0101")).toBe(true);
          return;
        }
        expect(unitsOff(got, exact, wp)).toBeLessThanOrEqual(0.01);
      }),
      { numRuns: 1_500 },
    );
  });

  it("handles the edges: powers of ten and two, both ends of the 1% gap, every table step", () => {
    for (const wp of [8, 23, 46, 100, FAST_MAX_WP]) {
      const D = ctor(wp);
      const H = ctor(wp + 40);
      const cases = ["10", "1e-7", "1e1000000", "2", "0.5", "0.99", "1.0101", "0.98999", "1.02", "9.99"];
      for (let j = 1; j < 32; j++) cases.push(String(1 + j / 32), String((1 + j / 32) * 1.0009765625));
      cases.push("1.03125", "1.9999999", "0.50000001");
      for (const s of cases) {
        const x = new D(s);
        const got = lnFast(x, wp, D);
        expect(got, `ln(${s}) at ${wp}`).toBeDefined();
        expect(unitsOff(got as Decimal, new H(x).ln(), wp), `ln(${s}) at ${wp}`).toBeLessThanOrEqual(0.01);
      }
      for (const s of ["1", "0.995", "1.01", "0.9901"])
        expect(lnFast(new D(s), wp, D), `ln(${s})`).toBeUndefined();
    }
    const big = ctor(FAST_MAX_WP + 1);
    expect(lnFast(new big(2), FAST_MAX_WP + 1, big)).toBeUndefined();
  });
});
