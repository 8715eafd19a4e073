/**
 * The cost model decides before any work starts; these tests count estimates and operations on a clock
 * that is the estimate itself (deterministic on any machine), never wall time.
 */
import { describe, expect, it } from "vitest";
import { estimateFnCost, SAFETY } from "./cost";
import { evaluate, LIMITS, type Meter } from "./index";

/** Evaluates on the model's clock: the budget refuses exactly where the estimates say. */
function counted(source: string, precision: number) {
  const meter: Meter = { ops: 0, estimatedMs: 0 };
  const res = evaluate(source, { precision, meter, clock: () => meter.estimatedMs });
  return { res, meter };
}

describe("cost model", () => {
  it("grows with the working precision and, for exp, with the argument's size", () => {
    for (const fn of [
      "arith",
      "div",
      "sqrt",
      "cbrt",
      "exp",
      "ln",
      "sin",
      "cos",
      "atan",
      "asin",
      "acos",
    ] as const) {
      let last = 0;
      for (const wp of [10, 20, 50, 100, 200, 400, 800, 1600]) {
        const c = estimateFnCost(fn, wp);
        expect(c, `${fn} at ${wp}`).toBeGreaterThan(last);
        last = c;
      }
    }
    // exp(853) halves its argument 20 times before the series, exp(0.7) 10 times
    expect(estimateFnCost("exp", 200, 2)).toBeGreaterThan(estimateFnCost("exp", 200, -1));
    expect(estimateFnCost("exp", 200, 9)).toBeGreaterThan(estimateFnCost("exp", 200, 2));
    expect(SAFETY).toBeGreaterThanOrEqual(2);
  });

  it("estimates decimal.js's exp at high precision as the calibration measured it (not 1 ms at 500 digits)", () => {
    // measured by bench/decimal-cost.bench.ts on the reference machine: exp at 500 digits 22-36 ms,
    // ln 30 ms, atan 210-230 ms; the estimates, safety factor included, lie above them
    expect(estimateFnCost("exp", 500, 4)).toBeGreaterThan(36);
    expect(estimateFnCost("ln", 500)).toBeGreaterThan(32);
    expect(estimateFnCost("atan", 500)).toBeGreaterThan(233);
    expect(estimateFnCost("sqrt", 1000)).toBeGreaterThan(3.8);
  });

  it("accepts sinh(853) at 168 digits: its estimate fits the budget", () => {
    const { res, meter } = counted("sinh(853)", 168);
    expect(res.ok && res.display.slice(0, 20)).toBe("14195904459153941529");
    expect(meter.estimatedMs).toBeGreaterThan(0);
    expect(meter.estimatedMs).toBeLessThanOrEqual(LIMITS.timeLimitMs);
  });

  it("refuses up front what the model says would overrun the budget, before any step starts", () => {
    for (const [source, precision] of [
      ["exp(0.7)", 500],
      ["sinh(853)", 500],
      ["ln(0.5)", 400],
      ["atan(0.3)", 200],
      ["sin(3.1)", 500],
    ] as const) {
      const { res, meter } = counted(source, precision);
      expect(res.ok ? res.display : res.error.message, `${source} at ${precision}`).toBe(
        "The calculation took too long",
      );
      // no step of Ziv's loop was started: nothing was estimated, so nothing was computed
      expect(meter.estimatedMs, source).toBe(0);
    }
  });

  it("counts the same work every time (no clock involved)", () => {
    const a = counted("exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))", 50);
    const b = counted("exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))", 50);
    expect(a.res.ok).toBe(true);
    expect(a.meter).toEqual(b.meter);
    expect(a.meter.ops).toBeGreaterThan(5);
  });
});
