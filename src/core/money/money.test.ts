import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toDecimalRounding } from "../decimal/rounding";
import { ROUNDING_MODES } from "../rounding";
import { allocate, split } from "./allocate";
import { formatAmount, formatMoney } from "./format";
import {
  add,
  compare,
  money,
  multiply,
  parseMoney,
  roundToMoney,
  subtract,
  sum,
  toDecimalString,
} from "./money";
import { addTax, applyDiscount, extractTax } from "./tax";

const amounts = (m: readonly { amount: bigint }[]) => m.map((x) => x.amount);

describe("Money", () => {
  it("parses decimal strings into minor units and writes them back with the minor digits", () => {
    const cases: [string, string, bigint, string][] = [
      ["38.12", "BHD", 38120n, "38.120"],
      ["15234", "JPY", 15234n, "15234"],
      ["-0.05", "USD", -5n, "-0.05"],
      ["1_000.5", "EUR", 100050n, "1000.50"],
      [".5", "USD", 50n, "0.50"],
      ["0", "CLF", 0n, "0.0000"],
      ["12.3456", "UYW", 123456n, "12.3456"],
      ["99999999999999999999999.99", "USD", 9999999999999999999999999n, "99999999999999999999999.99"],
    ];
    for (const [text, code, minor, back] of cases) {
      const r = parseMoney(text, code);
      expect(r.ok && r.value).toEqual({ amount: minor, currency: code });
      expect(r.ok && toDecimalString(r.value)).toBe(back);
    }
  });

  it("rejects bad input with specific errors", () => {
    expect(parseMoney("12.345", "USD")).toMatchObject({ ok: false, error: { code: "too_many_decimals" } });
    expect(parseMoney("1.5", "JPY")).toMatchObject({
      ok: false,
      error: { message: "JPY has 0 decimal places" },
    });
    expect(parseMoney("12.300", "USD").ok).toBe(true); // trailing zeros are not extra precision
    expect(parseMoney("abc", "USD")).toMatchObject({ ok: false, error: { code: "invalid_amount" } });
    expect(parseMoney("1e5", "USD")).toMatchObject({ ok: false, error: { code: "invalid_amount" } });
    expect(parseMoney("1,000", "USD")).toMatchObject({ ok: false, error: { code: "invalid_amount" } });
    expect(parseMoney("1", "XYZ")).toMatchObject({ ok: false, error: { code: "unknown_currency" } });
    expect(parseMoney("9".repeat(80), "USD")).toMatchObject({
      ok: false,
      error: { code: "amount_too_large" },
    });
    expect(parseMoney("12.345", "USD", "half-even")).toEqual({
      ok: true,
      value: { amount: 1234n, currency: "USD" },
    });
  });

  it("adds, subtracts, sums and compares within one currency only", () => {
    const a = money(1050n, "usd");
    const b = money(25n, "USD");
    expect(add(a, b)).toEqual({ amount: 1075n, currency: "USD" });
    expect(subtract(b, a).amount).toBe(-1025n);
    expect(sum([a, b, b]).amount).toBe(1100n);
    expect(sum([], "EUR")).toEqual({ amount: 0n, currency: "EUR" });
    expect(compare(a, b)).toBe(1);
    expect(() => add(a, money(1n, "EUR"))).toThrow("Currency mismatch");
    expect(() => money(1n, "XYZ")).toThrow(RangeError);
    expect(multiply(money(1000n, "USD"), "0.075")).toEqual({ amount: 75n, currency: "USD" });
  });

  it("rounds to minor units in every mode exactly as decimal.js does", () => {
    const D = Decimal.clone({ precision: 100 });
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom("USD", "JPY", "BHD", "CLF"),
        fc.constantFrom(...ROUNDING_MODES),
        (n, scale, code, mode) => {
          const text = new D(n.toString()).div(new D(10).pow(scale)).toFixed();
          const m = roundToMoney(text, code, mode);
          const minor = code === "JPY" ? 0 : code === "BHD" ? 3 : code === "CLF" ? 4 : 2;
          const expected = new D(text).toDecimalPlaces(minor, toDecimalRounding(mode));
          expect(toDecimalString(m)).toBe(expected.toFixed(minor));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("rounding moves the value by less than one minor unit", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.constantFrom(...ROUNDING_MODES),
        (n, mode) => {
          // n / 10^6 rounded to cents: |rounded × 10^4 − n| < 10^4
          const text = new Decimal(n.toString()).div(1e6).toFixed();
          const m = roundToMoney(text, "USD", mode);
          const diff = m.amount * 10_000n - n;
          expect(diff < 10_000n && diff > -10_000n).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["2.345", "half-up", "2.35"],
    ["2.345", "half-down", "2.34"],
    ["2.345", "half-even", "2.34"],
    ["2.355", "half-even", "2.36"],
    ["-2.345", "half-ceil", "-2.34"],
    ["-2.345", "half-floor", "-2.35"],
    ["2.341", "up", "2.35"],
    ["-2.349", "down", "-2.34"],
    ["-2.341", "ceil", "-2.34"],
    ["-2.341", "floor", "-2.35"],
  ] as const)("roundToMoney(%s, USD, %s) = %s", (value, mode, expected) => {
    expect(toDecimalString(roundToMoney(value, "USD", mode))).toBe(expected);
  });
});

describe("allocation", () => {
  it("splits into equal parts, extra minor units to the first parts", () => {
    expect(amounts(split(money(10000n, "USD"), 3))).toEqual([3334n, 3333n, 3333n]);
    expect(amounts(split(money(-10000n, "USD"), 3))).toEqual([-3334n, -3333n, -3333n]);
    expect(amounts(split(money(5n, "JPY"), 7))).toEqual([1n, 1n, 1n, 1n, 1n, 0n, 0n]);
    expect(() => split(money(1n, "USD"), 0)).toThrow(RangeError);
    expect(() => split(money(1n, "USD"), 1.5)).toThrow(RangeError);
  });

  it("allocates by ratios with the largest remainders, ties to the lower index", () => {
    expect(amounts(allocate(money(10000n, "USD"), [1, 1, 1]))).toEqual([3334n, 3333n, 3333n]);
    expect(amounts(allocate(money(100n, "USD"), ["0.7", "0.2", "0.1"]))).toEqual([70n, 20n, 10n]);
    expect(amounts(allocate(money(5n, "USD"), [3, 7]))).toEqual([2n, 3n]); // 1.5 and 3.5: equal remainders, index 0 first
  });

  it("handles zero ratios and rejects bad ones", () => {
    expect(amounts(allocate(money(100n, "USD"), [0, 1, 0]))).toEqual([0n, 100n, 0n]);
    expect(() => allocate(money(100n, "USD"), [0, 0])).toThrow(RangeError);
    expect(() => allocate(money(100n, "USD"), ["-1", "2"])).toThrow(RangeError);
    expect(() => allocate(money(100n, "USD"), [0.5])).toThrow(RangeError);
    expect(() => allocate(money(100n, "USD"), [])).toThrow(RangeError);
  });

  it("parts always sum exactly to the total and differ from the exact shares by less than one unit", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 30 }),
        (total, ratios) => {
          fc.pre(ratios.some((r) => r > 0));
          const parts = allocate(money(total, "USD"), ratios);
          expect(parts.reduce((a, p) => a + p.amount, 0n)).toBe(total);
          const sumR = BigInt(ratios.reduce((a, r) => a + r, 0));
          parts.forEach((p, i) => {
            const exactTimesSum = total * BigInt(ratios[i] ?? 0); // exact share × sumR
            const diff = p.amount * sumR - exactTimesSum;
            expect(diff < sumR && diff > -sumR).toBe(true);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("equal splits sum to the total and differ by at most one unit", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.integer({ min: 1, max: 500 }),
        (total, n) => {
          const parts = split(money(total, "EUR"), n);
          expect(parts).toHaveLength(n);
          expect(parts.reduce((a, p) => a + p.amount, 0n)).toBe(total);
          const xs = amounts(parts);
          const sorted = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect((sorted.at(-1) ?? 0n) - (sorted[0] ?? 0n) <= 1n).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("tax and discount", () => {
  it("adds and extracts tax", () => {
    const added = addTax(money(10000n, "USD"), "20%");
    expect(amounts([added.net, added.tax, added.gross])).toEqual([10000n, 2000n, 12000n]);
    const extracted = extractTax(money(12000n, "USD"), "0.2");
    expect(amounts([extracted.net, extracted.tax, extracted.gross])).toEqual([10000n, 2000n, 12000n]);
    // 19.99 incl. 7.5%: tax = 19.99 × 0.075 / 1.075 = 1.3946… → 1.39
    expect(extractTax(money(1999n, "USD"), "7.5%").tax.amount).toBe(139n);
    expect(addTax(money(1999n, "USD"), "7.5%", "up").tax.amount).toBe(150n);
    expect(() => addTax(money(1n, "USD"), "abc")).toThrow(RangeError);
  });

  it("applies a discount", () => {
    const d = applyDiscount(money(4999n, "EUR"), "15%");
    expect(amounts([d.original, d.discount, d.final])).toEqual([4999n, 750n, 4249n]);
    expect(() => applyDiscount(money(1n, "EUR"), "150%")).toThrow(RangeError);
  });

  it("net + tax = gross exactly, in every mode and for any rate", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom(...ROUNDING_MODES),
        (amount, basisPoints, mode) => {
          const rate = `${basisPoints / 100}%`;
          const a = addTax(money(amount, "USD"), rate, mode);
          expect(a.net.amount + a.tax.amount).toBe(a.gross.amount);
          const e = extractTax(money(amount, "USD"), rate, mode);
          expect(e.net.amount + e.tax.amount).toBe(e.gross.amount);
          const d = applyDiscount(money(amount, "USD"), `${Math.min(basisPoints, 10_000) / 100}%`, mode);
          expect(d.final.amount + d.discount.amount).toBe(d.original.amount);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("formatting", () => {
  it("holds Intl to the ISO minor units and never loses digits", () => {
    expect(formatMoney(money(123456n, "USD"), { locale: "en-US" })).toBe("$1,234.56");
    expect(formatMoney(money(38120n, "BHD"), { locale: "en-US", currencyDisplay: "code" })).toMatch(
      /BHD\s38\.120/,
    );
    expect(formatMoney(money(15234n, "JPY"), { locale: "en-US" })).toBe("¥15,234");
    // Intl alone shows HUF and IDR without decimals; ours keep ISO's two
    expect(formatMoney(money(123456n, "HUF"), { locale: "en-US", currencyDisplay: "code" })).toMatch(
      /HUF\s1,234\.56/,
    );
    expect(formatMoney(money(5n, "IDR"), { locale: "en-US", currencyDisplay: "code" })).toMatch(/IDR\s0\.05/);
    expect(formatMoney(money(12345678901234567890123n, "USD"), { locale: "en-US" })).toBe(
      "$123,456,789,012,345,678,901.23",
    );
    expect(formatMoney(money(-5n, "EUR"), { locale: "de-DE" })).toBe("-0,05\u00a0€");
    expect(formatAmount("1.005", "USD", "half-up", { locale: "en-US" })).toBe("$1.01");
    expect(formatAmount("1.005", "USD", "half-even", { locale: "en-US" })).toBe("$1.00");
  });
});
