/**
 * Compound units (`km/h`, `m/s²`, `kW·h`): the grammar, exact results and the unit they are shown in,
 * errors that name both sides, and a differential test of a few hundred generated compound-unit
 * expressions against Debian's GNU `units` and `qalc` (Qalculate!), each run once with all cases.
 * The cases come from a fixed fast-check seed (COMPOUND_SEED in the environment picks another one).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "./index";
import * as R from "./rational";
import { getUnit, parseTerms } from "./units";

function show(source: string): string {
  const r = evaluate(source);
  return r.ok ? r.display : `error: ${r.error.message} (column ${r.error.column})`;
}

describe("compound units", () => {
  it.each([
    // the unit the result is shown in: the product, or the first unit written of its dimension
    ["100 km / 2 h", "50 km/h"],
    ["50 km/h in m/s", "13.888888888888888889 m/s"],
    ["9.81 m/s^2 * 3 s", "29.43 m/s"],
    ["120 km/h * 90 min", "180 km"],
    ["3 kW * 2 h", "6 kWh"], // kW·h is exactly kWh
    ["3 kW * 2 h in J", "21600000 J"],
    ["3 kW * 2 h in kW·h", "6 kW·h"],
    ["3 kW * 2 h in kWh", "6 kWh"],
    ["1 GB / 10 MB/s", "100 s"],
    ["1 GB / (10 MB/s) in min", "1.6666666666666666667 min"],
    ["2 m * 3 m", "6 m²"],
    ["10 L / 100 km", "0.1 L/km"],
    ["10 L / 100 km in m2", "0.0000001 m2"],
    ["4 m^2 / 2 m", "2 m"],
    ["(3 m)^2", "9 m²"],
    ["3 m^2", "3 m²"],
    ["3 m²", "3 m²"],
    ["2 m³ in l", "2000 l"],
    ["1 m^-1 * 4 m", "4"],
    ["9.81 m/s² in km/h^2", "127137.6 km/h²"],
    ["60 mph in km/h", "96.56064 km/h"],
    ["10 N * 2 m in J", "20 J"],
    ["1 kWh in MJ", "3.6 MJ"],
    ["2 kW in J/s", "2000 J/s"],
    ["1 bar in kPa", "100 kPa"],
    ["50 Hz * 2 min", "6000"],
    ["1 km / 1 m", "1000"],
    ["3 m/m", "3"],
    ["1 / 4 s", "0.25 Hz"],
    ["1 / 4 min", "0.25 min^-1"],
    ["1 / 4 min in Hz", "0.0041666666666666666667 Hz"],
    ["3 kg * 2 m / 1 s^2", "6 N"],
    ["x = 50 km/h\nx * 2 h", "100 km"],
    ["10 m/s * 10 s in km", "0.1 km"],
    ["3 kg·m/s^2 in N", "3 N"],
    ["1 km/h + 1 m/s", "4.6 km/h"],
    ["90 km/h + 10%", "99 km/h"],
    ["20% of 50 km/h", "10 km/h"],
    ["(1 km/h) / (1 m/s)", "0.27777777777777777778"],
    ["10 Δ°C / 2 min", "5 Δ°C/min"],
    // money in a compound unit keeps the currency rules
    ["5 EUR/kg * 300 g", "1.50 EUR"],
    ["0.30 EUR/kWh * 2 kW * 3 h", "1.80 EUR"],
    ["0.30 EUR/kWh * 2 kW * 3 h in cash", "1.80 EUR"],
    ["0.30 EUR/kWh * 2 kW", "0.6 EUR/h"], // kWh/kW is exactly h
    ["0.30 EUR/kWh * 2 kW in EUR/min", "0.01 EUR/min"],
    ["2 EUR/m^2 * 3 m * 4 m", "24.00 EUR"],
    ["2 EUR/m² in EUR/ft2", "0.18580608 EUR/ft2"],
    ["0.5 USD/km * 100 km/h", "50 USD/h"],
    ["100 USD / (5 km/h)", "20 USD/(km/h)"],
    ["0.50 EUR/h / 2 km", "0.25 EUR/(h·km)"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it.each([
    ["3 km/h + 2 kg", "Cannot add a speed (km/h) and a mass (kg) (column 8)"],
    ["3 kWh - 2 kW", "Cannot subtract an energy (kWh) and a power (kW) (column 7)"],
    ["5 km/h in m", "Cannot convert a speed (km/h) to a length (m) (column 8)"],
    ["1 m/s^2 in m/s", "Cannot convert an acceleration (m/s²) to a speed (m/s) (column 9)"],
    ["2 m * 3 s + 1 m", "Cannot add a quantity (m·s) and a length (m) (column 11)"],
    ["3 km/h + 5 USD", "Cannot add a speed (km/h) and an amount in USD (column 8)"],
    ["2 m^1.5", "A quantity's power must be a whole number from -12 to 12 (m) (column 4)"],
    ["(2 m)^(3 m)", "Cannot raise a length (m) to a length (m) (column 6)"],
    ["2 m^13", "A unit's power must be a whole number from 1 to 12 at column 5 (column 5)"],
    ["(2 m^12)^2", "A unit's power is limited to 12 (m^24) (column 9)"],
    ["20 °C / h", "Cannot divide a temperature (°C) by a duration (h) (column 7)"],
    ["20 °C * 2 m", "Cannot multiply a temperature (°C) by a length (m) (column 7)"],
    ["sqrt(4 m^2)", "sqrt() needs a number, not an area (m²) (column 1)"],
    ["45 USD/h * 3 km", "Cannot multiply a rate (USD/h) by a length (km) (column 10)"],
    ["3 km * 45 USD", "Cannot multiply a length (km) by an amount in USD (column 6)"],
    ["45 USD/°C", "A rate cannot be per a temperature (°C) (column 4)"],
    ["100 USD / (5 km/h) + 1 USD", "Cannot add a rate (USD/(km/h)) and an amount in USD (column 20)"],
    ["1 m/s in furlongs/s", "Unknown unit 'furlongs' at column 10 (column 10)"],
    ["2 m / (1 m - 1 m)", "Division by zero (column 5)"],
  ])("%s is refused: %s", (source, expected) => {
    expect(show(source)).toBe(`error: ${expected}`);
  });

  it("keeps a compound quantity and a compound rate across ans", () => {
    const r = evaluate("100 km / 3 h");
    expect(r.ok && r.value).toEqual({
      kind: "number",
      value: "33.333333333333333333",
      fraction: "100/3",
      unit: "km/h",
    });
    const next = evaluate("ans in m/s", { ans: r.ok ? r.value : null });
    expect(next.ok && next.display).toBe("9.2592592592592592593 m/s");
    const rate = evaluate("0.30 EUR/kWh * 2 kW");
    expect(rate.ok && rate.value).toEqual({ kind: "money", value: "0.6", currency: "EUR", per: "h" });
    const cost = evaluate("ans * 90 min", { ans: rate.ok ? rate.value : null });
    expect(cost.ok && cost.display).toBe("0.90 EUR");
  });

  it("gives every result the documentation's table of compound units shows", () => {
    const doc = readFileSync(new URL("../../../content/docs/200-calculator.md", import.meta.url), "utf8");
    const section = doc.split("## Compound units")[1]?.split("\n## ")[0] ?? "";
    const rows = [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)`/gm)].map((m) => [m[1], m[2]]);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const [source, expected] of rows) expect(show(source as string), source).toBe(expected);
  });

  it("builds compound units from their names, exactly", () => {
    expect(parseTerms("kg·m/s^2")).toEqual([
      ["kg", 1],
      ["m", 1],
      ["s", -2],
    ]);
    expect(parseTerms("m²")).toEqual([["m", 2]]);
    expect(parseTerms("h^-1")).toEqual([["h", -1]]);
    expect(parseTerms("km/")).toBeUndefined();
    expect(parseTerms("m^0")).toBeUndefined();
    const kmh = getUnit("km/h");
    expect(kmh?.dim).toBe("length/time");
    expect(kmh && R.cmp(kmh.factor, R.fromString("5/18") as R.Q)).toBe(0);
    const kwh = getUnit("kW·h");
    expect(kwh && R.cmp(kwh.factor, R.fromString("3600000") as R.Q)).toBe(0);
    expect(getUnit("kWh")?.dim).toBe(getUnit("kW·h")?.dim);
    expect(getUnit("J")?.dim).toBe(getUnit("kg*m^2/s^2")?.dim);
    expect(getUnit("°C/h")).toBeUndefined();
    expect(getUnit("m/parsec")).toBeUndefined();
    expect(getUnit("km/m")?.dim).toBe("");
  });
});

// ---------------------------------------------------------------------------------------------------
// Differential test against GNU units and qalc

/** Named units of each dimension that both tools know (their names there in GNU / QALC when they differ). */
const U = {
  length: ["m", "km", "cm", "mm", "inch", "ft", "yd", "mi"],
  area: ["m2", "km2", "cm2", "ha", "ft2"],
  volume: ["m3", "l", "ml", "gal"],
  mass: ["kg", "g", "mg", "t", "lb", "oz"],
  time: ["s", "ms", "min", "h", "day", "week"],
  data: ["B", "bit", "kB", "MB", "GB", "KiB", "MiB", "GiB", "Mbit", "Gbit"],
  energy: ["J", "kJ", "MJ", "Wh", "kWh", "MWh"],
  power: ["W", "kW", "MW"],
  force: ["N", "kN"],
  pressure: ["Pa", "kPa", "bar"],
  frequency: ["Hz", "kHz", "MHz", "GHz"],
} as const;
type Dim = keyof typeof U;
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

/** A unit written in a case: its text for us, GNU units and qalc (`km/h`, `m/s^2`, `m²`). */
interface Written {
  ours: string;
  gnu: string;
  qalc: string;
}

const named = (u: string): Written => ({ ours: u, gnu: GNU[u] ?? u, qalc: QALC[u] ?? u });
const per = (a: Written, b: Written, sq = false): Written => ({
  ours: `${a.ours}/${b.ours}${sq ? "^2" : ""}`,
  gnu: `${a.gnu}/${b.gnu}${sq ? "^2" : ""}`,
  qalc: `${a.qalc}/${b.qalc}${sq ? "^2" : ""}`,
});
const pow = (a: Written, k: 2 | 3, superscript: boolean): Written => ({
  ours: `${a.ours}${superscript ? (k === 2 ? "²" : "³") : `^${k}`}`,
  gnu: `${a.gnu}^${k}`,
  qalc: `${a.qalc}^${k}`,
});

/** A compound or named unit of a kind, from two picks. */
type Kind = Dim | "speed" | "acceleration" | "dataRate" | "density" | "fuel" | "area2" | "volume3";
function unitOf(kind: Kind, i: number, j: number, flag: boolean): Written {
  const pick = (d: Dim, k: number) => named(U[d][k % U[d].length] as string);
  switch (kind) {
    case "speed":
      return i % 7 === 0 ? named("mph") : per(pick("length", i), pick("time", j));
    case "acceleration":
      return per(pick("length", i), pick("time", j), true);
    case "dataRate":
      return per(pick("data", i), pick("time", j));
    case "density":
      return per(pick("mass", i), pick("volume", j));
    case "fuel":
      return per(pick("volume", i), pick("length", j));
    case "area2":
      return flag ? pow(pick("length", i), 2, j % 2 === 0) : pick("area", i);
    case "volume3":
      return flag ? pow(pick("length", i), 3, j % 2 === 0) : pick("volume", i);
    default:
      return pick(kind, i);
  }
}

/** Each family: how a case is built from units of these kinds, and the kind of its answer. */
type Family =
  | { readonly op: "in"; readonly from: Kind; readonly to: Kind }
  | { readonly op: "*" | "/"; readonly a: Kind; readonly b: Kind; readonly to: Kind };
const FAMILIES: readonly Family[] = [
  { op: "in", from: "speed", to: "speed" },
  { op: "in", from: "acceleration", to: "acceleration" },
  { op: "in", from: "dataRate", to: "dataRate" },
  { op: "in", from: "density", to: "density" },
  { op: "in", from: "fuel", to: "area2" },
  { op: "in", from: "area2", to: "area2" },
  { op: "in", from: "volume3", to: "volume3" },
  { op: "in", from: "energy", to: "energy" },
  { op: "in", from: "pressure", to: "pressure" },
  { op: "in", from: "frequency", to: "frequency" },
  { op: "in", from: "power", to: "power" },
  { op: "in", from: "force", to: "force" },
  { op: "*", a: "length", b: "length", to: "area2" },
  { op: "*", a: "area2", b: "length", to: "volume3" },
  { op: "*", a: "speed", b: "time", to: "length" },
  { op: "*", a: "acceleration", b: "time", to: "speed" },
  { op: "*", a: "power", b: "time", to: "energy" },
  { op: "*", a: "force", b: "length", to: "energy" },
  { op: "*", a: "dataRate", b: "time", to: "data" },
  { op: "*", a: "density", b: "volume", to: "mass" },
  { op: "/", a: "length", b: "time", to: "speed" },
  { op: "/", a: "data", b: "dataRate", to: "time" },
  { op: "/", a: "energy", b: "time", to: "power" },
  { op: "/", a: "energy", b: "power", to: "time" },
  { op: "/", a: "volume", b: "length", to: "fuel" },
  { op: "/", a: "mass", b: "volume3", to: "density" },
  { op: "/", a: "speed", b: "time", to: "acceleration" },
  { op: "/", a: "force", b: "area2", to: "pressure" },
];

interface Case {
  family: number;
  source: string;
  gnuHave: string;
  gnuWant: string;
  qalc: string;
}

const value = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 3 }))
  .map(([n, k]) => (k === 0 ? String(n) : (n / 10 ** k).toFixed(k)));
const caseArb = fc
  .tuple(
    fc.nat(FAMILIES.length - 1),
    fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    value,
    value,
  )
  .map(([family, p, f, a, b]): Case => {
    const fam = FAMILIES[family] as Family;
    const [p0, p1, p2, p3, p4, p5] = p as [number, number, number, number, number, number];
    const [f0, f1, f2] = f as [boolean, boolean, boolean];
    const to = unitOf(fam.to, p4, p5, f2);
    if (fam.op === "in") {
      const from = unitOf(fam.from, p0, p1, f0);
      return {
        family,
        source: `${a} ${from.ours} in ${to.ours}`,
        gnuHave: `${a} ${from.gnu}`,
        gnuWant: to.gnu,
        qalc: `(${a} ${from.qalc}) / (${to.qalc})`,
      };
    }
    const x = unitOf(fam.a, p0, p1, f0);
    const y = unitOf(fam.b, p2, p3, f1);
    // the right operand in parentheses: 1 GB / 10 MB/s reads as one rate for us and qalc, not GNU units
    return {
      family,
      source: `${a} ${x.ours} ${fam.op} ${b} ${y.ours} in ${to.ours}`,
      gnuHave: `${a} ${x.gnu} ${fam.op} (${b} ${y.gnu})`,
      gnuWant: to.gnu,
      qalc: `((${a} ${x.qalc}) ${fam.op} (${b} ${y.qalc})) / (${to.qalc})`,
    };
  });

/** The first number a tool printed ("≈ 2414.016", "1e+09", "19073.486"). */
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

const SEED = Number(process.env.COMPOUND_SEED ?? 20261128);
const RUNS = Math.min(Number(process.env.COMPOUND_RUNS ?? 400), 2_000);

describe(`compound conversions are exact (seed ${SEED})`, () => {
  it("converting there and back gives the value written, exactly", () => {
    const kinds: readonly Kind[] = [
      "speed",
      "acceleration",
      "dataRate",
      "density",
      "fuel",
      "area2",
      "volume3",
    ];
    const arb = fc.tuple(
      fc.constantFrom(...kinds),
      fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
      fc.boolean(),
      value,
    );
    fc.assert(
      fc.property(arb, ([kind, [i, j, k, l], flag, v]) => {
        const there = unitOf(kind, i as number, j as number, flag).ours;
        const back = unitOf(kind, k as number, l as number, !flag).ours;
        const r = evaluate(`(${v} ${there} in ${back}) in ${there}`, { precision: 50 });
        expect(r.ok && [r.value.value, r.exact]).toEqual([new Decimal(v).toString(), true]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe(`against GNU units and qalc (seed ${SEED}, ${RUNS} cases)`, () => {
  const cases = fc.sample(caseArb, { numRuns: RUNS, seed: SEED });
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

  it("has one answer from each tool per case, and every family", () => {
    expect(gnu).toHaveLength(cases.length);
    expect(qalc).toHaveLength(cases.length);
    const seen = new Set(cases.map((c) => c.family));
    expect(FAMILIES.filter((_, i) => !seen.has(i))).toEqual([]);
  });

  it("agrees with GNU units to its 15 digits, and with qalc to 20", () => {
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
    expect(wrong, `seed ${SEED}: replay with COMPOUND_SEED=${SEED}`).toEqual([]);
  });
});
