import { describe, expect, it } from "vitest";
import { pow10, roundDiv } from "./bigint";
import { ROUNDING_MODES } from "./rounding";

describe("core/bigint (shared by core/money and core/decimal)", () => {
  it("pow10 gives exact powers of ten, cached or not", () => {
    expect(pow10(0)).toBe(1n);
    expect(pow10(3)).toBe(1000n);
    expect(pow10(63)).toBe(10n ** 63n);
    expect(pow10(64)).toBe(10n ** 64n);
    expect(pow10(400)).toBe(10n ** 400n);
  });

  it("roundDiv rounds n / d in all nine modes (the IEEE 754 / decimal.js table)", () => {
    // n / 10 for 2.5, 1.6, 1.1, 1.0, -1.0, -1.1, -1.6, -2.5
    const n = [25n, 16n, 11n, 10n, -10n, -11n, -16n, -25n];
    const expected: Record<(typeof ROUNDING_MODES)[number], bigint[]> = {
      up: [3n, 2n, 2n, 1n, -1n, -2n, -2n, -3n],
      down: [2n, 1n, 1n, 1n, -1n, -1n, -1n, -2n],
      ceil: [3n, 2n, 2n, 1n, -1n, -1n, -1n, -2n],
      floor: [2n, 1n, 1n, 1n, -1n, -2n, -2n, -3n],
      "half-up": [3n, 2n, 1n, 1n, -1n, -1n, -2n, -3n],
      "half-down": [2n, 2n, 1n, 1n, -1n, -1n, -2n, -2n],
      "half-even": [2n, 2n, 1n, 1n, -1n, -1n, -2n, -2n],
      "half-ceil": [3n, 2n, 1n, 1n, -1n, -1n, -2n, -2n],
      "half-floor": [2n, 2n, 1n, 1n, -1n, -1n, -2n, -3n],
    };
    for (const mode of ROUNDING_MODES) {
      expect(
        n.map((x) => roundDiv(x, 10n, mode)),
        mode,
      ).toEqual(expected[mode]);
      // a negative divisor is the same quotient with both signs flipped
      expect(
        n.map((x) => roundDiv(-x, -10n, mode)),
        mode,
      ).toEqual(expected[mode]);
    }
    expect(() => roundDiv(1n, 0n, "up")).toThrow(RangeError);
  });
});
