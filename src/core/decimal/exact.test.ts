/**
 * Exact rational arithmetic and correctly rounded irrational results: identities on random
 * rationals, known answers for composed transcendental expressions from an independent oracle
 * (fixtures/gen-transcendental-vectors.py, mpmath at 500 digits), answers people check a calculator with, and inputs that
 * used to block the event loop finishing inside the default budget.
 */
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import transcendental from "./fixtures/transcendental-vectors.json";
import { type EvaluateOptions, evaluate, type Meter, type RoundingMode } from "./index";
import * as R from "./rational";

/** Speed is measured in bench/, not here: a generous budget, so a cold JIT or a busy machine cannot fail a test. */
function ok(source: string, options: EvaluateOptions = {}) {
  const r = evaluate(source, { timeLimitMs: 10_000, ...options });
  if (!r.ok) throw new Error(`${source.slice(0, 60)}: ${r.error.message}`);
  return r;
}

/** A random rational as source text: an integer, a decimal or a quotient of integers. */
const rational = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => `(${n})`),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 30 }))
    .map(([n, k]) => `(${n}e-${k})`),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 15n }))
    .map(([n, d]) => `(${n}/${d})`),
);
const nonzero = rational.filter((t) => !/^\(-?0(e-\d+)?\)$/.test(t) && !/^\(-?0\//.test(t));

describe("exact identities on random rationals", () => {
  it("a / b * b = a and (a + b) - b = a, exactly", () => {
    fc.assert(
      fc.property(rational, nonzero, (a, b) => {
        const same = ok(`${a} / ${b} * ${b} - ${a}`, { timeLimitMs: 10_000 });
        expect(same.display).toBe("0");
        expect(same.exact).toBe(true);
        const back = ok(`(${a} + ${b}) - ${b} - ${a}`, { timeLimitMs: 10_000 });
        expect(back.display).toBe("0");
        expect(back.exact).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("rounds a rational exactly once, and says whether the result is exact", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 1, max: 60 }),
        (n, d, p) => {
          const r = ok(`${n < 0n ? `(${n})` : n} / ${d}`, { precision: p, rounding: "half-even" });
          const expected = new (Decimal.clone({ precision: p, rounding: Decimal.ROUND_HALF_EVEN }))(
            n.toString(),
          ).div(d.toString());
          expect(new Decimal(r.value.value).eq(expected)).toBe(true);
          // exact exactly when the quotient has at most p significant digits
          const q = R.make(n, d, 0) as R.Q;
          const s = R.roundToSd(q, p, "down");
          expect(r.exact).toBe(s?.exact);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("answers an exact calculator must give", () => {
  it.each([
    ["1/3*3", "1", true],
    ["exp(ln(10))", "10", true],
    ["10^20 + 1 - 10^20", "1", true],
    ["(1 + 1e-25) - 1", "0.0000000000000000000000001", true],
    ["sin(pi/6)", "0.5", true],
    ["tan(pi/4)", "1", true],
    ["ln(e)", "1", true],
    ["sqrt(2) * sqrt(8)", "4", true],
    ["(2 ^ 0.5) ^ 2", "2", true],
    ["cos(pi / 2)", "0", true],
    ["atan2(1, 1) * 4 / pi", "1", true],
    ["asin(sqrt(3) / 2) * 3 / pi", "1", true],
    ["log10(1000)", "3", true],
    ["ln(2) + ln(5) - ln(10)", "0", true],
    ["2 ^ -1", "0.5", true],
    ["0.1 + 0.2", "0.3", true],
    ["1 / 3", "0.33333333333333333333", false],
    ["sqrt(2)", "1.4142135623730950488", false],
  ] as const)("%s = %s (exact: %s)", (source, display, exact) => {
    const r = ok(source, { rounding: "half-even" });
    expect(r.display).toBe(display);
    expect(r.exact).toBe(exact);
  });

  it("rounds composed functions once, correctly, in every mode", () => {
    // true value 66848169.48892647162494…: the old engine gave …601 (half-even) and …668 (half-up)
    const source = "exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))";
    expect(ok(source, { rounding: "half-even" }).display).toBe("66848169.488926471625");
    expect(ok(source, { rounding: "half-up" }).display).toBe("66848169.488926471625");
    expect(ok(source, { rounding: "down" }).display).toBe("66848169.488926471624");
  });

  it("lets an intermediate value lie beyond the exponent limits when the result is representable", () => {
    // exp(-43476593.2) ≈ 3.03e-18881740 is far below 10^-1000000 but does not matter to the sum
    expect(ok("sqrt(78450.142) / (ln(18518.325734) + exp(517437 - 43994030.2))").display).toBe(
      "28.503441310774185712",
    );
    expect(ok("1e-2000000 * 1e2000000").display).toBe("1");
  });

  it("shows the repetend of a repeating rational and an honest bound for an unresolvable zero", () => {
    expect(ok("1/6").repeating).toEqual({ sign: "", int: "0", pre: "1", cycle: "6" });
    expect(ok("-22/7").repeating).toEqual({ sign: "-", int: "3", pre: "", cycle: "142857" });
    expect(ok("1/4").repeating).toBeUndefined();
    const z = ok("sin(1) - sin(1)", { timeLimitMs: 10_000 });
    expect(z.display).toBe("0");
    expect(z.exact).toBe(false);
    expect(z.bound).toMatch(/^0 to within 10\^-\d+$/);
  });

  it("says 0 to within a bound, not 'took too long', when the default budget runs out on a zero", () => {
    // counted on the cost model's clock, so the same on any machine: sin at 400 digits does not fit the
    // 40 ms, but the ball reached before it already bounds the value
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const z = evaluate("sin(1) - sin(1)", { meter, clock: () => meter.estimatedMs });
    expect(z.ok && z.display).toBe("0");
    expect(z.ok && z.exact).toBe(false);
    expect(z.ok && Number(z.bound?.match(/^0 to within 10\^(-\d+)$/)?.[1])).toBeLessThan(-100);
    // a value that is not zero still never rounds from a ball that is undecided for lack of time
    const m2: Meter = { ops: 0, estimatedMs: 0 };
    const r = evaluate("sin(3)^2 + cos(3)^2", { rounding: "down", meter: m2, clock: () => m2.estimatedMs });
    expect(r.ok ? r.display : r.error.message).toBe("The calculation took too long");
  });

  it("marks floor, ceil and round of a value taken to be on a boundary as rounded, not exact", () => {
    // (sqrt(2) + sqrt(3))^2 - 2 sqrt(6) is 5, an identity the engine does not recognise
    const r = ok("floor((sqrt(2) + sqrt(3))^2 - 2 * sqrt(6))");
    expect(r.display).toBe("5");
    expect(r.exact).toBe(false);
  });

  it("keeps money exact until the one rounding to minor units", () => {
    // 1/3 of 100 USD three times is 100.00, not 99.99
    expect(ok("100 USD / 3 * 3").display).toBe("100.00 USD");
    expect(ok("100 USD / 3 * 3").exact).toBe(true);
    const r = ok("10 USD / 3");
    expect(r.money).toEqual({ amount: "3.33", currency: "USD" });
    expect(r.exact).toBe(false);
    // within one program the amount stays exact; `ans` is the amount that was shown (3.33 USD)
    expect(ok("x = 10 USD / 3\nx * 3").display).toBe("10.00 USD");
    expect(r.value).toEqual({ kind: "money", value: "3.33", currency: "USD" });
    expect(ok("ans * 3", { ans: r.value }).display).toBe("9.99 USD");
  });
});

describe("bounded cost", () => {
  it("computes % of huge operands without the quotient, with a handful of operations", () => {
    const six = Array.from({ length: 6 }, () => "1e999999 % 7").join("; ");
    // counted, not timed, so the same on any machine however loaded: a few operations each and no
    // estimated cost on the cost model's clock. How long the six take on the wall clock (the quotient of
    // a million-digit power of ten used to take seconds) is measured by bench/decimal.bench.ts.
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const r = evaluate(six, { meter, clock: () => meter.estimatedMs });
    expect(r.ok && r.display).toBe("6"); // 10^999999 mod 7 = 3^(999999 mod 6) mod 7 = 27 mod 7
    expect(meter.ops).toBeLessThanOrEqual(6 * 4);
    expect(meter.estimatedMs).toBe(0);
    expect(ok("-1e999999 % 7").display).toBe("-6");
    expect(ok("1e999999 % 0.7").display).toBe("0.4"); // 10^1000000 mod 7 = 4, over 10
    // 10^999999 + 1 is too big to keep exact; its remainder needs a million digits: refused, promptly
    const big = evaluate("(10^999999 + 1) % 7");
    expect(big.ok ? big.display : big.error.message).toBe("The number is too large to round exactly");
    expect(ok("123.45 % 1e-999990").display).toBe("0");
  });

  it("keeps exact values bounded in size: beyond it they continue as correctly rounded approximations", () => {
    const r = ok("(1/3) ^ 100000 * 3 ^ 100000", { timeLimitMs: 10_000 });
    expect(r.display).toBe("1");
    expect(ok("3 ^ 50").exact).toBe(false);
    expect(ok("3 ^ 50", { precision: 30 }).exact).toBe(true);
  });
});

describe("values whose large operands cancel more digits than Ziv's first cap", () => {
  // x = sqrt(10^1000 + 1) - 10^500 = 1 / (sqrt(10^1000 + 1) + 10^500) ≈ 5·10^-501. At Ziv's first cap
  // (400 digits at precision 20) its ball is ±10^102: 1 - x used to be shown as "0" ("0 to within
  // 10^102"), x × 10^520 as "0 to within 10^622", and ceil(x) as 0, marked exact. Such a ball is refined
  // on (real.ts `settled`), up to 2,000 digits.
  const x = "(sqrt(10^1000 + 1) - 10^500)";
  it.each([
    [`1 - ${x}`, "half-up", "1"],
    [`1 - ${x}`, "down", "0.99999999999999999999"],
    [`${x} * 10^520`, "half-up", "50000000000000000000"],
  ] as const)("%s, %s: %s", (source, rounding, display) => {
    const r = ok(source, { rounding });
    expect(r.display).toBe(display);
    expect(r.exact).toBe(false);
    expect(r.bound).toBeUndefined();
  });

  it("floor and ceil", () => {
    expect(ok(`ceil(${x})`)).toMatchObject({ display: "1", exact: true });
    expect(ok(`floor(1 - ${x})`)).toMatchObject({ display: "0", exact: true });
  });

  it("never shows 0 for 1 - x under the default budget", () => {
    for (const rounding of ["half-up", "down"] as const) {
      const meter: Meter = { ops: 0, estimatedMs: 0 };
      const r = evaluate(`1 - ${x}`, { rounding, meter, clock: () => meter.estimatedMs });
      expect(r.ok ? r.display : r.error.message).toMatch(/^(1|0\.9{20}|The calculation took too long)$/);
    }
  });

  it("refuses a value still that wide at 2,000 digits rather than round from it", () => {
    // x × 10^520 is 5·10^19 × (1 - 2.5·10^-1001 …): rounded down, 49999999999999999999, which takes
    // more than 2,000 digits of sqrt(10^1000 + 1) to see; it used to be 50000000000000000000
    const down = evaluate(`${x} * 10^520`, { rounding: "down", timeLimitMs: 10_000 });
    expect(down.ok ? down.display : down.error.message).toBe(
      "The calculation cannot be done at this precision",
    );
    // 10^10 - (sqrt(10^4000 + 1) - 10^2000) is 10^10 - 5·10^-2001: rounded down it is 9999999999.9999999999
    const r = evaluate(`10^10 - (sqrt(10^4000 + 1) - 10^2000)`, { rounding: "down", timeLimitMs: 10_000 });
    expect(r.ok ? r.display : r.error.message).toBe("The calculation cannot be done at this precision");
  });
});

describe("values a hair's breadth from a rounding boundary", () => {
  // 1 - exp(-1200) is 1 - 7.02·10^-522: deciding its rounding from the whole value takes 530 digits of
  // exp(-1200), past the budget; the part that is not the boundary, -exp(-1200), has its sign at 20
  const deterministic = (source: string, options: EvaluateOptions = {}) => {
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const r = evaluate(source, { ...options, meter, clock: () => meter.estimatedMs });
    return r.ok ? `${r.display}${r.exact ? "" : " (rounded)"}` : r.error.message;
  };
  it.each([
    ["1 - exp(-1200)", "down", 20, "0.99999999999999999999 (rounded)"],
    ["1 - exp(-1200)", "floor", 20, "0.99999999999999999999 (rounded)"],
    ["1 - exp(-1200)", "half-up", 20, "1 (rounded)"],
    ["1 - exp(-1200)", "up", 20, "1 (rounded)"],
    ["1 + exp(-5000)", "down", 20, "1 (rounded)"],
    ["1 + exp(-5000)", "up", 20, "1.0000000000000000001 (rounded)"],
    ["1 + exp(-5000)", "ceil", 5, "1.0001 (rounded)"],
    ["-1 - exp(-2000)", "ceil", 20, "-1 (rounded)"],
    ["-1 - exp(-2000)", "floor", 20, "-1.0000000000000000001 (rounded)"],
    ["2.5 - exp(-3000) - exp(-4000)", "half-even", 1, "2 (rounded)"],
    ["2.5 + exp(-3000)", "half-even", 1, "3 (rounded)"],
    ["0.125 + sqrt(2) * exp(-900)", "half-down", 2, "0.13 (rounded)"],
  ] as const)("%s, %s at %i digits: %s", (source, rounding, precision, expected) => {
    expect(deterministic(source, { rounding, precision })).toBe(expected);
  });

  it("rounds money from the same decision", () => {
    expect(deterministic("(1 - exp(-1200)) USD", { rounding: "down" })).toBe("0.99 USD (rounded)");
  });

  it("still says plainly what it cannot decide: a value equal to a boundary it does not recognise", () => {
    // sin(3)^2 + cos(3)^2 is exactly 1; no cheap part of it tells it apart from 1
    expect(deterministic("sin(3)^2 + cos(3)^2", { rounding: "down" })).toBe("The calculation took too long");
  });
});

interface Vector {
  expression: string;
  precision: number;
  rounding: RoundingMode;
  expected: string;
}

describe("known answers for composed transcendental expressions (mpmath at 500 digits)", () => {
  const cases = transcendental.cases as Vector[];
  it("covers 20, 50 and 100 digits", () => {
    expect(new Set(cases.map((c) => c.precision))).toEqual(new Set([20, 50, 100]));
  });
  it.each(cases.map((c) => [c.expression, c.precision, c.rounding, c] as const))(
    "%s at %i digits, %s",
    (source, precision, rounding, c) => {
      const r = evaluate(source, { precision, rounding, timeLimitMs: 10_000 });
      expect(r.ok ? r.value.value : r.error.message).toSatisfy(
        (v: string) => r.ok && new Decimal(v).eq(c.expected),
        `expected ${c.expected}`,
      );
    },
  );
});
