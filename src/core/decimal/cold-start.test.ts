import { describe, expect, it, vi } from "vitest";
import type { Meter } from "./cost";

/**
 * A fresh process runs cold code: its wall clock reads several times what the cost model estimates.
 * Here a clock four times slower than the model stands in for that (deterministic, unlike a real JIT).
 */
describe("the first evaluations of a process", () => {
  it("answer 1 - exp(-1200) rounded down on a cold clock; later ones keep the strict clock", async () => {
    vi.resetModules();
    const { evaluate, COLD_EVALUATIONS } = await import("./engine");
    const run = () => {
      const meter: Meter = { ops: 0, estimatedMs: 0 };
      const r = evaluate("1 - exp(-1200)", { rounding: "down", meter, clock: () => 4 * meter.estimatedMs });
      return r.ok ? r.display : r.error.message;
    };
    for (let i = 0; i < COLD_EVALUATIONS; i++)
      expect(run(), `evaluation ${i + 1}`).toBe("0.99999999999999999999");
    // warm: the same clock, four times the model, is past the deadline: the backstop refuses as before
    expect(run()).toBe("The calculation took too long");
    // and on a clock that keeps up with the model it is answered warm too
    const meter: Meter = { ops: 0, estimatedMs: 0 };
    const warm = evaluate("1 - exp(-1200)", { rounding: "down", meter, clock: () => meter.estimatedMs });
    expect(warm.ok ? warm.display : warm.error.message).toBe("0.99999999999999999999");
  });
});
