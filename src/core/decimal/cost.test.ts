/**
 * The cost model decides before any work starts; these tests count estimates and operations on a clock
 * that is the estimate itself (deterministic on any machine), never wall time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLOCK_GRACE_OPS, estimateFnCost, SAFETY } from "./cost";
import { evaluate, FUNCTION_PRECISION_LIMITS, LIMITS, type Meter } from "./index";
import { FIRST_STEP_SHARE, firstStepCost } from "./limits";

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
    // about 1.4e370: more digits than the precision, so written in scientific notation
    expect(res.ok && res.display.slice(0, 21)).toBe("1.4195904459153941529");
    expect(res.ok && res.display.endsWith("e+370")).toBe(true);
    expect(meter.estimatedMs).toBeGreaterThan(0);
    expect(meter.estimatedMs).toBeLessThanOrEqual(LIMITS.timeLimitMs);
  });

  it("refuses up front what the model says would overrun the budget, before any step starts", () => {
    // each function alone is within its cap here, together they are not within the budget
    for (const [source, precision] of [
      ["exp(0.7) + exp(0.8) + exp(0.9)", 300],
      ["ln(0.5) * ln(0.7) * ln(0.9)", 350],
      ["atan(0.3) + atan(0.4) + atan(0.5)", 180],
      ["sin(3.1) + sin(3.2) + sin(3.3)", 300],
    ] as const) {
      const { res, meter } = counted(source, precision);
      expect(res.ok ? res.display : res.error.message, `${source} at ${precision}`).toBe(
        "The calculation took too long",
      );
      // no step of Ziv's loop was started: nothing was estimated, so nothing was computed
      expect(meter.estimatedMs, source).toBe(0);
    }
  });

  it("estimates nothing for a step whose value is already computed (the final rounding after the range check)", () => {
    const { res, meter } = counted("exp(0.7)", 300);
    expect(res.ok).toBe(true);
    // one step: the range check computes exp at 303 digits, the rounding reuses it
    expect(meter.estimatedMs).toBeCloseTo(firstStepCost("exp", 300) + estimateFnCost("arith", 303), 6);
  });
  it("counts the same work every time (no clock involved)", () => {
    const a = counted("exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))", 50);
    const b = counted("exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))", 50);
    expect(a.res.ok).toBe(true);
    expect(a.meter).toEqual(b.meter);
    expect(a.meter.ops).toBeGreaterThan(5);
  });
});

/**
 * One call of each slow function, with an argument that needs its digits (not an exact form), and the
 * message its cap gives.
 */
const SLOW_CALLS: Record<string, string> = {
  exp: "exp(0.7)",
  ln: "ln(0.5)",
  log10: "log10(7)",
  log2: "log2(7)",
  log: "log(7, 3)",
  pow: "2.1 ^ 0.37",
  sin: "sin(3.1)",
  cos: "cos(3.1)",
  tan: "tan(1.1)",
  asin: "asin(0.3)",
  acos: "acos(0.3)",
  atan: "atan(0.3)",
  atan2: "atan2(0.3, 0.7)",
  sinh: "sinh(853)",
  cosh: "cosh(853)",
  tanh: "tanh(0.7)",
  asinh: "asinh(3.3)",
  acosh: "acosh(3.3)",
  atanh: "atanh(0.3)",
};

function capMessage(name: string, cap: number): string {
  const what = name === "pow" ? "A power with a fractional exponent" : `${name}()`;
  return `${what} is limited to ${cap} significant digits; lower the precision`;
}

describe("precision caps agree with the time budget", () => {
  it("every capped function has a call here, and every cap is below the largest precision", () => {
    expect(Object.keys(SLOW_CALLS).sort()).toEqual(Object.keys(FUNCTION_PRECISION_LIMITS).sort());
    for (const cap of Object.values(FUNCTION_PRECISION_LIMITS)) {
      expect(cap).toBeGreaterThanOrEqual(100);
      expect(cap).toBeLessThan(LIMITS.maxPrecision);
    }
  });

  it("at its cap a function is computed within the budget; one digit more gives the cap's message, not 'took too long'", () => {
    for (const [name, source] of Object.entries(SLOW_CALLS)) {
      const cap = FUNCTION_PRECISION_LIMITS[name] as number;
      const at = counted(source, cap);
      expect(at.res.ok ? "ok" : at.res.error.message, `${source} at ${cap}`).toBe("ok");
      expect(at.meter.estimatedMs, `${source} at ${cap}`).toBeLessThanOrEqual(LIMITS.timeLimitMs);
      const above = counted(source, cap + 1);
      expect(above.res.ok ? "ok" : above.res.error.message, `${source} at ${cap + 1}`).toBe(
        capMessage(name, cap),
      );
      // refused before any work
      expect(above.meter.estimatedMs, `${source} at ${cap + 1}`).toBe(0);
    }
  });

  it("each cap is the highest precision the model fits in the budget (not a hand-typed number)", () => {
    for (const [name, cap] of Object.entries(FUNCTION_PRECISION_LIMITS)) {
      expect(firstStepCost(name, cap), name).toBeLessThanOrEqual(FIRST_STEP_SHARE * LIMITS.timeLimitMs);
      expect(firstStepCost(name, cap + 1), name).toBeGreaterThan(FIRST_STEP_SHARE * LIMITS.timeLimitMs);
    }
  });

  it("values that stay exact are not capped; symbolic ones are when their digits are needed", () => {
    expect(counted("ln(exp(5))", 1000).res).toMatchObject({ ok: true, display: "5" });
    expect(counted("exp(ln(10))", 1000).res).toMatchObject({ ok: true, display: "10" });
    const cap = FUNCTION_PRECISION_LIMITS.exp as number;
    const e = counted("e", cap + 1).res;
    expect(e.ok ? "ok" : e.error.message).toBe(
      `The constant e is limited to ${cap} significant digits; lower the precision`,
    );
    const scaled = counted("1 + 2 * exp(3)", cap + 1).res;
    expect(scaled.ok ? "ok" : [scaled.error.message, scaled.error.column]).toEqual([
      capMessage("exp", cap),
      9,
    ]);
    expect(counted("2 * exp(3)", cap).res.ok).toBe(true);
  });

  it("the documentation lists the caps in force", () => {
    const doc = readFileSync(path.join(process.cwd(), "content/docs/200-calculator.md"), "utf8");
    const listed = new Map<string, number>();
    for (const m of doc.matchAll(/^\| (.+) \| (\d+) \|$/gm)) {
      for (const f of (m[1] as string).matchAll(/`([a-z0-9]+|\^)`/g)) {
        const name = f[1] === "e" ? "e" : f[1] === "^" ? "pow" : (f[1] as string);
        listed.set(name, Number(m[2]));
      }
    }
    for (const [name, cap] of Object.entries(FUNCTION_PRECISION_LIMITS))
      expect(listed.get(name), name).toBe(cap);
    expect(listed.get("e")).toBe(FUNCTION_PRECISION_LIMITS.exp);
    expect(doc).toContain(capMessage("exp", FUNCTION_PRECISION_LIMITS.exp as number));
  });
});

describe("the wall clock is a backstop, not the judge", () => {
  /** A clock that reads 0 when the evaluation starts and an hour later at every reading after it. */
  function descheduled(): () => number {
    let first = true;
    return () => {
      if (first) {
        first = false;
        return 0;
      }
      return 3_600_000;
    };
  }

  it("does not refuse small work because the process was not running (a jump of the clock)", () => {
    // a server descheduled under load, or a long GC pause, between two operations: real work is tiny
    for (const [source, precision, expected] of [
      ["0.1 + 0.2", 20, "0.3"],
      ["120 * 7.5%", 20, "9"],
      ["sqrt(2)", 20, "1.4142135623730950488"],
      ["exp(sqrt(ln(966)) + ln(1583360 + 3275247.95))", 20, "66848169.488926471625"],
    ] as const) {
      const meter: Meter = { ops: 0, estimatedMs: 0 };
      const r = evaluate(source, { precision, rounding: "half-even", meter, clock: descheduled() });
      expect(r.ok ? r.display : r.error.message, source).toBe(expected);
      expect(meter.ops, source).toBeLessThan(CLOCK_GRACE_OPS);
    }
  });

  it("still stops work the model does not see, once there is some: past the grace, the clock refuses", () => {
    const long = Array.from({ length: 4 * CLOCK_GRACE_OPS }, (_, i) => String(i + 1)).join("+");
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const r = evaluate(long, { meter, clock: descheduled() });
    expect(r.ok ? r.display : r.error.message).toBe("The calculation took too long");
    // refused at the first check after the grace, not at the end
    expect(meter.ops).toBe(CLOCK_GRACE_OPS);
    // the same program on a clock that does not jump is fine
    expect(evaluate(long).ok).toBe(true);
  });

  it("refuses by the model alone: a clock that never moves cannot buy more work", () => {
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const r = evaluate("exp(0.7) + exp(0.8) + exp(0.9)", { precision: 300, meter, clock: () => 0 });
    expect(r.ok ? r.display : r.error.message).toBe("The calculation took too long");
    expect(meter.estimatedMs).toBeLessThanOrEqual(LIMITS.timeLimitMs);
  });
});
