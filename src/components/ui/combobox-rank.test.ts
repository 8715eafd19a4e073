import { describe, expect, it } from "vitest";
import { nextByLetter, rankOption } from "./combobox-rank";

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

describe("nextByLetter", () => {
  const options = [
    { value: "half-even", label: "Half even" },
    { value: "half-up", label: "Half up" },
    { value: "up", label: "Up" },
    { value: "floor", label: "Floor" },
  ];
  const pick = (current: string, key: string) => nextByLetter(options, current, key)?.value;

  it("picks the next option starting with the letter, wrapping round, in any case", () => {
    expect(pick("half-even", "f")).toBe("floor");
    expect(pick("half-even", "H")).toBe("half-up");
    expect(pick("half-up", "h")).toBe("half-even");
    expect(pick("", "u")).toBe("up");
  });

  it("ignores keys that are not one printable character, and letters nothing starts with", () => {
    expect(pick("half-even", "Tab")).toBeUndefined();
    expect(pick("half-even", " ")).toBeUndefined();
    expect(pick("half-even", "z")).toBeUndefined();
  });
});
