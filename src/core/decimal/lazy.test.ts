/**
 * The browser's entry (`./lazy`): plain arithmetic and money need no unit table or calendar; units,
 * rates, temperatures and dates load on first use through `prepare`, once.
 */
import { describe, expect, it } from "vitest";
import { evaluate, evaluateSheet, mayNeedExtensions, prepare, SheetEvaluator } from "./lazy";
import { isLoaded } from "./registry";

describe("the lazy engine", () => {
  it("evaluates numbers, percentages and money without loading anything", () => {
    for (const source of ["1 + 2", "150 + 20%", "100 CHF / 3 in cash", "x = 2\nx * sqrt(2)", "total"]) {
      expect(prepare(source), source).toBeNull();
    }
    const r = evaluate("150 USD + 20%");
    expect(r.ok && r.display).toBe("180.00 USD");
    expect(isLoaded()).toBe(false);
  });

  it("knows what may need the tables: unit names, dates, degrees, values with units", () => {
    expect(mayNeedExtensions("3 min")).toBe(true);
    expect(mayNeedExtensions("2026-12-01")).toBe(true);
    expect(mayNeedExtensions("20 ℃")).toBe(true);
    expect(mayNeedExtensions("1 + ans", [{ kind: "number", value: "2", unit: "h" }])).toBe(true);
    expect(mayNeedExtensions("1 + ans", [{ kind: "number", value: "2" }])).toBe(false);
  });

  it("says `loading` before the tables are there, and answers once prepare has loaded them", async () => {
    const before = evaluate("3h 20min * 45 USD/h");
    expect(before.ok || before.error.code).toBe("loading");
    const sheet = evaluateSheet("1 + 1\n2026-12-01 + 30 days");
    expect(sheet[0]?.kind).toBe("value");
    expect(sheet[1]?.kind === "error" && sheet[1].error.code).toBe("loading");
    const kept = new SheetEvaluator();
    expect(kept.run("1 + 1\n3 h in min")[1]?.kind).toBe("error");
    const pending = prepare("3h 20min * 45 USD/h");
    expect(pending).toBeInstanceOf(Promise);
    expect(prepare("2026-12-01")).toBe(pending);
    await pending;
    expect(isLoaded()).toBe(true);
    expect(prepare("1.5 km")).toBeNull();
    const after = evaluate("3h 20min * 45 USD/h");
    expect(after.ok && after.display).toBe("150.00 USD");
    const dates = evaluate("2026-12-01 + 30 days");
    expect(dates.ok && dates.display).toBe("2026-12-31");
    // the sheet's cache does not keep a line that waited for the tables
    const again = kept.run("1 + 1\n3 h in min");
    expect(again[1]?.kind === "value" && again[1].result.display).toBe("180 min");
    expect(kept.evaluated).toBe(1);
  });
});
