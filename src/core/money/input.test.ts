import { describe, expect, it } from "vitest";
import {
  errorOf,
  MAX_SPLIT_PARTS,
  parseAmount,
  parseCode,
  parseParts,
  parseRatios,
  parseTaxRate,
  shortRate,
} from "./input";

describe("parseRatios", () => {
  it("accepts colons, commas, semicolons, slashes and spaces as separators", () => {
    expect(parseRatios("1:2:3")).toEqual({ ok: true, value: ["1", "2", "3"] });
    expect(parseRatios(" 50, 30 ,20 ")).toEqual({ ok: true, value: ["50", "30", "20"] });
    expect(parseRatios("1;1/2 0.5")).toEqual({ ok: true, value: ["1", "1", "2", "0.5"] });
    expect(parseRatios(".5:1.")).toEqual({ ok: true, value: [".5", "1."] });
  });

  it("allows zeros but not all of them", () => {
    expect(parseRatios("0:1")).toEqual({ ok: true, value: ["0", "1"] });
    expect(parseRatios("0:0.0")).toEqual({ ok: false, error: "At least one ratio must be above zero" });
  });

  it("names the first ratio that is not a number of zero or more", () => {
    expect(parseRatios("1:-2:3")).toEqual({
      ok: false,
      error: "Ratio 2 (-2) is not a number of zero or more",
    });
    expect(parseRatios("1:1e3")).toEqual({
      ok: false,
      error: "Ratio 2 (1e3) is not a number of zero or more",
    });
    expect(parseRatios("   ").ok).toBe(false);
  });

  it("caps the number of ratios", () => {
    const ones = (n: number) => Array.from({ length: n }, () => "1").join(":");
    expect(parseRatios(ones(MAX_SPLIT_PARTS)).ok).toBe(true);
    expect(parseRatios(ones(MAX_SPLIT_PARTS + 1))).toEqual({
      ok: false,
      error: `Give at most ${MAX_SPLIT_PARTS} ratios`,
    });
  });
});

describe("parseParts", () => {
  it("takes whole numbers from 1 to the cap", () => {
    expect(parseParts(" 3 ")).toEqual({ ok: true, value: 3 });
    expect(parseParts(String(MAX_SPLIT_PARTS))).toEqual({ ok: true, value: MAX_SPLIT_PARTS });
    for (const bad of ["0", "-1", "1.5", "2e1", "", "x", String(MAX_SPLIT_PARTS + 1)]) {
      expect(parseParts(bad).ok, bad).toBe(false);
    }
    expect(errorOf(parseParts("0"))).toBe(`Enter a whole number of parts from 1 to ${MAX_SPLIT_PARTS}`);
  });
});

describe("parseTaxRate", () => {
  it("accepts percentages and fractions, trimmed, and refuses the rest", () => {
    expect(parseTaxRate(" 20% ")).toEqual({ ok: true, value: "20%" });
    expect(parseTaxRate("0.2")).toEqual({ ok: true, value: "0.2" });
    expect(parseTaxRate("7.7%")).toEqual({ ok: true, value: "7.7%" });
    expect(parseTaxRate("twenty")).toEqual({ ok: false, error: "Enter a rate such as 20% or 0.2" });
    expect(parseTaxRate("").ok).toBe(false);
  });
});

describe("parseAmount and parseCode", () => {
  it("reads amounts in a currency's minor units, ignoring thousands commas", () => {
    const parsed = parseAmount("1,234.5", "USD");
    expect(parsed.ok && parsed.value).toEqual({ amount: 123450n, currency: "USD" });
    expect(parseAmount(" ", "USD")).toEqual({ ok: false, error: "Enter an amount" });
  });

  it("applies one decimal-places rule in every currency: extra zeros are fine, finer amounts are refused", () => {
    // trailing zeros and extra digits are one rule: 100.00 JPY is 100 yen exactly; 1234.565 EUR is not a cent amount
    const yen = parseAmount("100.00", "JPY");
    expect(yen.ok && yen.value).toEqual({ amount: 100n, currency: "JPY" });
    const euro = parseAmount("1234.560", "EUR");
    expect(euro.ok && euro.value).toEqual({ amount: 123456n, currency: "EUR" });
    expect(parseAmount("1234.565", "EUR")).toEqual({
      ok: false,
      error: "EUR has 2 decimal places: enter 1234.56 or 1234.57",
    });
    expect(parseAmount("100.5", "JPY")).toEqual({
      ok: false,
      error: "JPY has 0 decimal places: enter 100 or 101",
    });
    expect(parseAmount("-1.2345", "BHD")).toEqual({
      ok: false,
      error: "BHD has 3 decimal places: enter -1.235 or -1.234",
    });
    expect(parseAmount("12abc", "USD")).toEqual({ ok: false, error: "Enter a number, for example 1234.56" });
  });

  it("knows currency codes in any case", () => {
    expect(parseCode(" chf ")).toEqual({ ok: true, value: "CHF" });
    expect(parseCode("xyz")).toEqual({ ok: false, error: "Unknown currency XYZ" });
    expect(parseCode("").ok).toBe(false);
  });
});

describe("shortRate", () => {
  it("cuts to 10 significant digits and marks the cut", () => {
    expect(shortRate("1.0823")).toBe("1.0823");
    expect(shortRate("0.00012345678901")).toBe("0.0001234567890…");
    expect(shortRate("1234567890")).toBe("1234567890");
  });
});
