import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "./plural";

describe("plural", () => {
  it("uses the singular for exactly one", () => {
    expect(plural(1, "order")).toBe("1 order");
    expect(plural(1n, "receipt")).toBe("1 receipt");
  });

  it("uses the plural for zero, many and fractions", () => {
    expect(plural(0, "order")).toBe("0 orders");
    expect(plural(2, "order")).toBe("2 orders");
    expect(plural(1.5, "day")).toBe("1.5 days");
    expect(plural(12_345, "view")).toBe("12,345 views");
  });

  it("takes an irregular plural", () => {
    expect(plural(3, "match", "matches")).toBe("3 matches");
    expect(pluralWord(1, "match", "matches")).toBe("match");
  });
});
