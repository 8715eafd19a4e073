import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  currencyName,
  getCurrency,
  ISO4217_SOURCE,
  isCurrencyCode,
  minorUnits,
} from "./currencies";

/** Where Node's / browsers' Intl (CLDR) currency digits differ from ISO 4217 (see shared NOTES.md). */
const INTL_DISAGREES = [
  "AFN",
  "ALL",
  "COP",
  "HUF",
  "IDR",
  "IQD",
  "IRR",
  "KPW",
  "LAK",
  "LBP",
  "MGA",
  "MMK",
  "PKR",
  "SOS",
  "SYP",
  "YER",
];

function intlDigits(code: string): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
      .maximumFractionDigits ?? -1
  );
}

describe("ISO 4217 table", () => {
  it("is well formed: unique codes and numeric codes, sorted, sane minor units", () => {
    expect(CURRENCIES.length).toBeGreaterThanOrEqual(160);
    const codes = CURRENCIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    expect(new Set(CURRENCIES.map((c) => c.numeric)).size).toBe(codes.length);
    for (const c of CURRENCIES) {
      expect(c.code).toMatch(/^[A-Z]{3}$/);
      expect(c.numeric).toMatch(/^\d{3}$/);
      expect(c.name.length).toBeGreaterThan(1);
      expect([0, 2, 3, 4]).toContain(c.minorUnits);
    }
    expect(ISO4217_SOURCE.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ["BHD", 3, "048"],
    ["JPY", 0, "392"],
    ["KWD", 3, "414"],
    ["CLF", 4, "990"],
    ["UYW", 4, "927"],
    ["ISK", 0, "352"],
    ["HUF", 2, "348"],
    ["IDR", 2, "360"],
    ["USD", 2, "840"],
    ["EUR", 2, "978"],
    ["ALL", 2, "008"],
    ["KRW", 0, "410"],
    ["TND", 3, "788"],
    ["XOF", 0, "952"],
    ["XCG", 2, "532"],
    ["ZWG", 2, "924"],
  ])("%s has %i minor units and numeric code %s", (code, minor, numeric) => {
    expect(getCurrency(code)).toMatchObject({ code, minorUnits: minor, numeric });
    expect(minorUnits(code)).toBe(minor);
  });

  it("looks codes up case-insensitively and excludes withdrawn and N.A. codes", () => {
    expect(getCurrency("usd")?.code).toBe("USD");
    expect(isCurrencyCode("Eur")).toBe(true);
    for (const code of [
      "XYZ",
      "US",
      "USDD",
      "",
      "ANG",
      "BGN",
      "HRK",
      "SLL",
      "ZWL",
      "XAU",
      "XDR",
      "XXX",
      "XTS",
    ]) {
      expect(isCurrencyCode(code)).toBe(false);
    }
    expect(() => minorUnits("XYZ")).toThrow(RangeError);
  });

  it("agrees with Intl's currency digits except for the known disagreements", () => {
    const disagreements = CURRENCIES.filter((c) => {
      try {
        return intlDigits(c.code) !== c.minorUnits;
      } catch {
        return false; // a code this runtime's Intl does not know
      }
    }).map((c) => c.code);
    // every known disagreement is one, and nothing else disagrees
    expect(disagreements.filter((c) => !INTL_DISAGREES.includes(c))).toEqual([]);
    for (const code of INTL_DISAGREES) expect(disagreements).toContain(code);
  });
});

describe("currencyName", () => {
  it("uses the locale's names, not ISO's register names", () => {
    expect(currencyName("JPY")).toBe("Japanese Yen");
    expect(currencyName("cny")).toBe("Chinese Yuan");
    expect(currencyName("ZAR")).toBe("South African Rand");
    expect(getCurrency("JPY")?.name).toBe("Yen");
  });

  it("names every currency of the table, falling back to the ISO name, then the code", () => {
    for (const c of CURRENCIES) expect(currencyName(c.code)).not.toBe("");
    expect(currencyName("XYZ")).toBe("XYZ");
    expect(currencyName("EUR", "de-DE")).toBe("Euro");
  });
});
