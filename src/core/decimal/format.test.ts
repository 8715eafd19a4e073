import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { formatDecimal, formatFixed, ScaledDecimal } from "./format";

const Exact = Decimal.clone({ precision: 1e9 });

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("ScaledDecimal writes q × 10^exp exactly as decimal.js writes the same value", () => {
  it("agrees on toFixed, toFixed(dp), toExponential, toString, e and the engine's formats", () => {
    const r = rng(15);
    const cases: [bigint, number][] = [
      [0n, 0],
      [0n, -5],
      [1n, 0],
      [-1n, 0],
      [10n, 0],
      [100n, -2],
      [-5n, -7],
      [5n, -8],
      [123n, 18],
      [123n, 19],
      [1n, 1_000],
      [1n, 1_001],
      [-7n, -1_001],
      [999_999n, -3],
    ];
    for (let i = 0; i < 2_000; i++) {
      let digits = "";
      const len = 1 + Math.floor(r() * 30);
      for (let k = 0; k < len; k++) digits += r() < 0.3 ? "0" : String(Math.floor(r() * 10));
      const q = BigInt(digits) * (r() < 0.5 ? -1n : 1n);
      cases.push([q, Math.floor(r() * 70) - 40]);
    }
    for (const [q, exp] of cases) {
      const s = new ScaledDecimal(q, exp);
      const d = new Exact(`${q}e${exp}`);
      const dp = Math.max(0, -exp) + Math.floor(r() * 3);
      const what = `${q}e${exp}`;
      expect(s.e, what).toBe(d.e);
      expect(s.isZero(), what).toBe(d.isZero());
      expect(s.toFixed(), what).toBe(d.toFixed());
      expect(s.toFixed(dp), what).toBe(d.toFixed(dp));
      expect(s.toExponential(), what).toBe(d.toExponential());
      expect(s.toString(), what).toBe(d.toString());
      expect(formatDecimal(s, "plain"), what).toBe(formatDecimal(d, "plain"));
      expect(formatDecimal(s, "scientific"), what).toBe(formatDecimal(d, "scientific"));
      expect(formatFixed(s, dp), what).toBe(formatFixed(d, dp));
    }
  });
});
