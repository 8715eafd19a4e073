import { describe, expect, it } from "vitest";
import { rankOption } from "./combobox-rank";

describe("rankOption", () => {
  const score = (value: string, label: string, search: string) => rankOption(value, search, [label]);

  it("puts the exact code first, then codes starting with the search, then names", () => {
    expect(score("CHF", "Swiss Franc", "chf")).toBe(1);
    expect(score("CHE", "WIR Euro", "ch")).toBeGreaterThan(score("XCD", "East Caribbean Dollar", "ch"));
    expect(score("CHF", "Swiss Franc", "swiss")).toBeGreaterThan(0);
    expect(score("CHF", "Swiss Franc", "franc")).toBeGreaterThan(
      score("XAF", "Central African CFA Franc", "ranc"),
    );
  });

  it("finds nothing for letters that are merely scattered through a name", () => {
    expect(score("YER", "Yemeni Rial", "yen")).toBe(0);
    expect(score("JPY", "Japanese Yen", "yen")).toBeGreaterThan(0);
    expect(score("EUR", "Euro", "xyz")).toBe(0);
  });

  it("keeps every option while nothing is typed", () => {
    expect(score("EUR", "Euro", "  ")).toBe(1);
  });
});
