/**
 * Units and durations: the grammar, dimension checks that name both dimensions, and a differential
 * test of a few hundred generated conversions and sums against Debian's GNU `units` and `qalc`
 * (Qalculate!), both run once per file with all their cases.
 */
import { execFileSync } from "node:child_process";
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getCurrency } from "../money/currencies";
import { CONSTANTS, evaluate, FUNCTIONS } from "./index";
import { KEYWORDS } from "./parser";
import { type Dimension, getUnit, UNIT_NAMES } from "./units";

function show(source: string): string {
  const r = evaluate(source);
  return r.ok ? r.display : `error: ${r.error.message} (column ${r.error.column})`;
}

describe("quantities", () => {
  it.each([
    ["1.5 km in m", "1500 m"],
    ["90 min in h", "1.5 h"],
    ["3 h 20 min in min", "200 min"],
    ["3h 20min 10s in s", "12010 s"],
    ["2 * 3 h 20 min in min", "400 min"],
    ["20 GB / 3", "6.6666666666666666667 GB"],
    ["20 GB in MiB", "19073.486328125 MiB"],
    ["1 km + 200 m", "1.2 km"],
    ["1 km / 200 m", "5"],
    ["20% of 3 h", "0.6 h"],
    ["3 h + 10%", "3.3 h"],
    ["30 min as % of 2 h", "25%"],
    ["10 m % 3 m", "1 m"],
    ["-3 h", "-3 h"],
    ["x = 2 km\nx in m", "2000 m"],
    ["1 gal in l", "3.785411784 l"],
    ["1 lb in g", "453.59237 g"],
    ["1 ha in m2", "10000 m2"],
    ["1 TiB in GB", "1099.511627776 GB"],
    ["8 bit in B", "1 B"],
    ["1 kB in KiB", "0.9765625 KiB"],
    ["1 PiB in TB", "1125.899906842624 TB"],
    ["100 Mbit in MB", "12.5 MB"],
    ["1 Gibit in MiB", "128 MiB"],
    // compound units (compound.test.ts has the rest); these were errors before they existed
    ["3 km * 2 km", "6 km²"],
    ["2 / 3 h", "0.66666666666666666667 h^-1"],
    ["2 m ^ 2", "2 m²"],
    // min and max stay functions when called
    ["min(3, 4)", "3"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it.each([
    ["3 h + 5 USD", "Cannot add a duration (h) and an amount in USD (column 5)"],
    ["3 h + 5", "Cannot add a duration (h) and a number (column 5)"],
    ["1 km - 2 kg", "Cannot subtract a length (km) and a mass (kg) (column 6)"],
    ["5 km in h", "Cannot convert a length (km) to a duration (h) (column 6)"],
    ["5 in m", "Cannot convert a number to a length (m) (column 3)"],
    ["45 USD * 3 h", "Cannot multiply an amount in USD by a duration (h) (column 8)"],
    ["sqrt(4 m)", "sqrt() needs a number, not a length (m) (column 1)"],
    ["2 ^ (3 m)", "Cannot raise a number to a length (m) (column 3)"],
    ["5 km USD", "A length (km) cannot be an amount of money (column 6)"],
    ["1 km in USD", "Cannot convert a length (km) to USD (column 6)"],
    ["5 USD h", "An amount in USD cannot take a unit (h) (column 7)"],
    ["150 + 2 h%", "A percentage must be a plain number, not a duration (h) (column 10)"],
  ])("%s is refused: %s", (source, expected) => {
    expect(show(source)).toBe(`error: ${expected}`);
  });

  it("keeps a quantity across ans and variables", () => {
    const r = evaluate("3 h 20 min");
    expect(r.ok && r.value).toEqual({
      kind: "number",
      value: "3.3333333333333333333",
      fraction: "10/3",
      unit: "h",
    });
    expect(r.ok && show.length).toBeTruthy();
    const next = evaluate("ans in min", { ans: r.ok ? r.value : null });
    expect(next.ok && next.display).toBe("200 min");
  });

  it("no unit name is also a currency code, a reserved word, a function or a constant", () => {
    for (const name of UNIT_NAMES) {
      expect(getCurrency(name), name).toBeUndefined();
      expect(KEYWORDS.has(name.toLowerCase()), name).toBe(false);
      expect(CONSTANTS.includes(name), name).toBe(false);
      if (name !== "min") expect(Object.hasOwn(FUNCTIONS, name), name).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Differential test against GNU units and qalc

/** Units each tool knows, by dimension, with their names there when they differ. qalc is asked for the
 * quotient by the target unit, a plain number: it answers a conversion in mixed units (298 min + 49.2 s). */
const SHARED: Readonly<Record<Dimension, readonly string[]>> = {
  length: ["m", "km", "cm", "mm", "inch", "ft", "yd", "mi"],
  "length^2": ["m2", "km2", "cm2", "ha", "ft2"],
  "length^3": ["m3", "l", "ml", "gal"],
  mass: ["kg", "g", "mg", "t", "lb", "oz"],
  time: ["s", "ms", "min", "h", "day", "week"],
  data: [
    "B",
    "bit",
    "kB",
    "MB",
    "GB",
    "TB",
    "PB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "PiB",
    "kbit",
    "Mbit",
    "Gbit",
    "Tbit",
    "Kibit",
    "Mibit",
    "Gibit",
  ],
};
const GNU: Readonly<Record<string, string>> = { h: "hour" };
const QALC: Readonly<Record<string, string>> = {
  m2: "m^2",
  km2: "km^2",
  cm2: "cm^2",
  ft2: "ft^2",
  m3: "m^3",
  l: "L",
  ml: "mL",
};

interface Case {
  source: string;
  gnuHave: string;
  gnuWant: string;
  qalc: string;
}

const value = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 3 }))
  .map(([n, k]) => (k === 0 ? String(n) : (n / 10 ** k).toFixed(k)));
const caseArb = fc
  .tuple(fc.constantFrom(...Object.keys(SHARED)), fc.nat(), fc.nat(), fc.nat(), value, value, fc.boolean())
  .map(([dim, i, j, k, a, b, sum]): Case => {
    const names = SHARED[dim] as readonly string[];
    const u1 = names[i % names.length] as string;
    const u2 = names[j % names.length] as string;
    const to = names[k % names.length] as string;
    const g = (u: string) => GNU[u] ?? u;
    const q = (u: string) => QALC[u] ?? u;
    return sum
      ? {
          source: `${a} ${u1} + ${b} ${u2} in ${to}`,
          gnuHave: `${a} ${g(u1)} + ${b} ${g(u2)}`,
          gnuWant: g(to),
          qalc: `(${a} ${q(u1)} + ${b} ${q(u2)}) / ${q(to)}`,
        }
      : {
          source: `${a} ${u1} in ${to}`,
          gnuHave: `${a} ${g(u1)}`,
          gnuWant: g(to),
          qalc: `(${a} ${q(u1)}) / ${q(to)}`,
        };
  });

/** The first number a tool printed ("≈ 2414.016 m", "1e+09", "19073.486"). */
function number(line: string): Decimal {
  const m = /[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(
    line.replace(/[≈\s]/g, " ").replace(/(\d) (?=\d{3}\b)/g, "$1"),
  );
  if (!m) throw new Error(`no number in ${JSON.stringify(line)}`);
  return new Decimal(m[0]);
}

function near(a: Decimal, b: Decimal, rel: number): boolean {
  if (a.isZero() || b.isZero()) return a.minus(b).abs().lt(rel);
  return a.minus(b).abs().div(b.abs()).lt(rel);
}

describe("against GNU units and qalc", () => {
  const cases = fc.sample(caseArb, { numRuns: 300, seed: 20261125 });
  const gnu = execFileSync("units", ["-t", "-d", "15"], {
    input: cases.map((c) => `${c.gnuHave}\n${c.gnuWant}\n`).join(""),
    encoding: "utf8",
  })
    .trim()
    .split("\n");
  const qalc = execFileSync("qalc", ["-t", "-set", "precision 30", "-f", "-"], {
    input: cases.map((c) => c.qalc).join("\n"),
    encoding: "utf8",
  })
    .trim()
    .split("\n");

  it("has one answer from each tool per case, over every dimension", () => {
    expect(gnu).toHaveLength(cases.length);
    expect(qalc).toHaveLength(cases.length);
    for (const dim of Object.keys(SHARED)) {
      expect(
        cases.some((c) => getUnit(c.source.split(" ")[1] as string)?.dim === dim),
        dim,
      ).toBe(true);
    }
  });

  it("agrees with GNU units to its 15 digits, and with qalc", () => {
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const r = evaluate(c.source, { precision: 30 });
      if (!r.ok) {
        wrong.push(`${c.source}: ${r.error.message}`);
        return;
      }
      const ours = new Decimal(r.value.value);
      if (!near(ours, number(gnu[i] as string), 1e-13)) wrong.push(`${c.source}: ${ours} vs units ${gnu[i]}`);
      if (!near(ours, number(qalc[i] as string), 1e-20))
        wrong.push(`${c.source}: ${ours} vs qalc ${qalc[i]}`);
    });
    expect(wrong).toEqual([]);
  });
});
