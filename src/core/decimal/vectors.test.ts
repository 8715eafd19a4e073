import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import vectors from "./fixtures/decimal-vectors.json";
import { evaluate, type RoundingMode } from "./index";

interface Case {
  op: string;
  args: string[];
  precision: number;
  rounding: RoundingMode;
  expected: string;
}

const wrap = (a: string) => (a.startsWith("-") ? `(${a})` : a);

function source(c: Case): string {
  const [a = "", b = ""] = c.args.map(wrap);
  switch (c.op) {
    case "add":
      return `${a} + ${b}`;
    case "sub":
      return `${a} - ${b}`;
    case "mul":
      return `${a} * ${b}`;
    case "div":
      return `${a} / ${b}`;
    case "pow":
      return `${a} ^ ${b}`;
    default:
      return `${c.op}(${a})`;
  }
}

const cases = vectors.cases as Case[];

describe("known answers from Python's decimal module", () => {
  it("has cases for every operation, precision and shared rounding mode", () => {
    expect(new Set(cases.map((c) => c.op))).toEqual(
      new Set(["add", "sub", "mul", "div", "pow", "sqrt", "exp", "ln", "log10"]),
    );
    expect(new Set(cases.map((c) => c.precision))).toEqual(new Set([5, 20, 50]));
    expect(new Set(cases.map((c) => c.rounding)).size).toBe(7);
  });

  it.each(cases.map((c) => [source(c), c.precision, c.rounding, c] as const))(
    "%s at %i digits, %s",
    (src, precision, rounding, c) => {
      const r = evaluate(src, { precision, rounding, timeLimitMs: 10_000 });
      expect(r.ok ? r.value.value : r.error.message).toSatisfy(
        (v: string) => r.ok && new Decimal(v).eq(c.expected),
        `expected ${c.expected}`,
      );
    },
  );
});

describe("half-ceil and half-floor (hand-derived; Python has no such modes)", () => {
  // ties go towards +Infinity (half-ceil) or -Infinity (half-floor); other values to the nearest
  const table: [string, number, string, string][] = [
    // source, precision, half-ceil, half-floor
    ["2.5", 1, "3", "2"],
    ["-2.5", 1, "-2", "-3"],
    ["0.125", 2, "0.13", "0.12"],
    ["-0.125", 2, "-0.12", "-0.13"],
    ["1.2345", 4, "1.235", "1.234"],
    ["-1.2345", 4, "-1.234", "-1.235"],
    ["2.51", 1, "3", "3"],
    ["-2.49", 1, "-2", "-2"],
    ["1 / 8", 2, "0.13", "0.12"],
    ["-1 / 8", 2, "-0.12", "-0.13"],
    ["0.5 + 0.0000", 1, "0.5", "0.5"],
    ["12345 + 0.5", 5, "12346", "12345"],
    ["-12345 - 0.5", 5, "-12345", "-12346"],
    ["2 / 3", 3, "0.667", "0.667"],
    ["-2 / 3", 3, "-0.667", "-0.667"],
    ["1.05 USD", 20, "1.05 USD", "1.05 USD"],
    ["1.005 USD", 20, "1.01 USD", "1.00 USD"],
    ["-1.005 USD", 20, "-1.00 USD", "-1.01 USD"],
  ];
  it.each(table)("%s at %i digits: half-ceil %s, half-floor %s", (src, precision, ceil, floor) => {
    // a generous budget: a loaded machine must not fail a test here (speed is measured in bench/)
    const c = evaluate(src, { precision, rounding: "half-ceil", timeLimitMs: 10_000 });
    const f = evaluate(src, { precision, rounding: "half-floor", timeLimitMs: 10_000 });
    expect(c.ok && c.display).toBe(ceil);
    expect(f.ok && f.display).toBe(floor);
  });
});
