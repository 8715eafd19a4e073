/**
 * Rates (money per a unit) and temperatures: the rules, errors naming both sides, and differential
 * tests of generated cases against GNU `units` (rates, durations, temperatures) and `qalc`
 * (temperatures). A month is 1/12 of the Gregorian year (365.2425 days), `gregorianyear/12` in GNU
 * units; qalc's month is 1/12 of a Julian year (365.25 days), so month rates are checked against
 * GNU units only.
 */
import { execFileSync } from "node:child_process";
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "./index";

function show(source: string): string {
  const r = evaluate(source);
  return r.ok ? r.display : `error: ${r.error.message} (column ${r.error.column})`;
}

describe("rates", () => {
  it.each([
    ["45 USD/h", "45 USD/h"],
    ["3h 20min * 45 USD/h", "150.00 USD"],
    ["45 USD/h * 3h 20min", "150.00 USD"],
    ["1200 USD/month in USD/day", "39.425860900634509949 USD/day"],
    ["1200 USD/month in USD/year", "14400 USD/year"],
    ["12 months * 1200 USD/month", "14400.00 USD"],
    ["90 USD / 2 h", "45 USD/h"],
    ["150 USD / 45 USD/h", "3.3333333333333333333 h"],
    ["150 USD / 45 USD/h in min", "200 min"],
    ["45 USD/h * 2", "90 USD/h"],
    ["45 USD/h + 10%", "49.5 USD/h"],
    ["45 USD/h + 5 USD/h", "50 USD/h"],
    ["60 USD/h / 30 USD/h", "2"],
    ["0.25 EUR/kWh_missing", "error: Unknown variable kWh_missing (column 10)"],
    ["2 USD/kg * 1.5 kg", "3.00 USD"],
    ["0.10 USD/GB * 1 TB", "100.00 USD"],
    ["1 month in days", "30.436875 days"],
    ["1 year in days", "365.2425 days"],
    ["10 USD / h", "10 USD/h"],
    // after a currency, `/ unit` is a rate even where a variable has the unit's name
    ["h = 3\n10 USD / h", "10 USD/h"],
    ["h = 4\n10 USD / (h)", "2.50 USD"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it.each([
    ["45 USD/h + 5 USD", "Cannot add a rate (USD/h) and an amount in USD (column 10)"],
    ["45 USD/h * 3 km", "Cannot multiply a rate (USD/h) by a length (km) (column 10)"],
    ["45 USD/h in USD/km", "Cannot convert a rate (USD/h) to a rate per a length (USD/km) (column 10)"],
    ["45 USD in USD/h", "Cannot convert an amount in USD to a rate per a duration (USD/h) (column 8)"],
    ["(45 USD/h) ^ 2", "Cannot raise a rate (USD/h) to a number (column 12)"],
    ["sqrt(45 USD/h)", "sqrt() needs a number, not a rate (USD/h) (column 1)"],
    ["45 USD/°C", "A rate cannot be per a temperature (°C) (column 4)"],
    ["45 USD/h in cash", "Cash rounding needs an amount of money, not a rate (USD/h) (column 10)"],
  ])("%s is refused: %s", (source, expected) => {
    expect(show(source)).toBe(`error: ${expected}`);
  });

  it("keeps a rate across ans", () => {
    const r = evaluate("1200 USD/month");
    expect(r.ok && r.value).toEqual({ kind: "money", value: "1200", currency: "USD", per: "month" });
    const next = evaluate("ans * 3 months", { ans: r.ok ? r.value : null });
    expect(next.ok && next.display).toBe("3600.00 USD");
  });
});

describe("temperatures", () => {
  it.each([
    ["20 °C in °F", "68 °F"],
    ["20 ℃ in ℉", "68 °F"],
    ["68 °F in °C", "20 °C"],
    ["-40 °C in °F", "-40 °F"],
    ["0 K in °C", "-273.15 °C"],
    ["20 degC in K", "293.15 K"],
    ["100 °F in °C", "37.777777777777777778 °C"],
    ["20 °C + 5 °C", "25 °C"],
    ["20 °C + 9 Δ°F", "25 °C"],
    ["20 °C - 5 Δ°C", "15 °C"],
    ["30 °C - 20 °C", "10 Δ°C"],
    ["(30 °C - 20 °C) in Δ°F", "18 Δ°F"],
    ["10 Δ°C in Δ°F", "18 Δ°F"],
    ["10 Δ°C * 2", "20 Δ°C"],
    ["-5 °C", "-5 °C"],
    ["-5 °C in °F", "23 °F"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it.each([
    ["-300 °C", "A temperature cannot be below absolute zero (0 K, -273.15 °C) (column 1)"],
    ["(-300) °C", "A temperature cannot be below absolute zero (0 K, -273.15 °C) (column 8)"],
    ["0 K - 1 ΔK", "A temperature cannot be below absolute zero (0 K, -273.15 °C) (column 5)"],
    ["-(300 K)", "A temperature cannot be below absolute zero (0 K, -273.15 °C) (column 1)"],
    ["20 °C * 2", "Cannot multiply a temperature (°C) by a number (column 7)"],
    ["20 °C / 2", "Cannot divide a temperature (°C) by a number (column 7)"],
    ["20 °C + 10%", "Cannot change a temperature (°C) by a percentage (column 7)"],
    ["20 °C in Δ°F", "Cannot convert a temperature (°C) to a temperature difference (Δ°F) (column 7)"],
    ["10 Δ°C in °F", "Cannot convert a temperature difference (Δ°C) to a temperature (°F) (column 8)"],
    ["20 °C + 3 m", "Cannot add a temperature (°C) and a length (m) (column 7)"],
    ["5 Δ°C - 20 °C", "Cannot subtract a temperature (°C) from a temperature difference (Δ°C) (column 7)"],
  ])("%s is refused: %s", (source, expected) => {
    expect(show(source)).toBe(`error: ${expected}`);
  });

  it("keeps a temperature across ans", () => {
    const r = evaluate("20 °C");
    expect(r.ok && r.value).toEqual({ kind: "number", value: "20", unit: "°C" });
    const next = evaluate("ans in °F", { ans: r.ok ? r.value : null });
    expect(next.ok && next.display).toBe("68 °F");
  });
});

// ---------------------------------------------------------------------------------------------------
// Differential tests against GNU units and qalc

interface Case {
  source: string;
  /** GNU units: what to convert and into what. */
  have: string;
  want: string;
  /** qalc's expression, or null. */
  qalc: string | null;
}

const amount = fc
  .tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 2 }))
  .map(([n, k]) => (k === 0 ? String(n) : (n / 10 ** k).toFixed(k)));
const celsiusish = fc.integer({ min: -45_000, max: 100_000 }).map((n) => (n / 100).toFixed(2));
const TIME = ["s", "min", "h", "day", "week", "month", "year"] as const;
const GNU_TIME: Record<string, string> = {
  h: "hour",
  month: "(gregorianyear/12)",
  year: "gregorianyear",
};
const TEMP = ["°C", "°F", "K"] as const;
const GNU_TEMP: Record<string, string> = { "°C": "tempC", "°F": "tempF", K: "tempK" };

const caseArb: fc.Arbitrary<Case> = fc.oneof(
  // a rate per one unit of time shown per another
  fc.tuple(amount, fc.constantFrom(...TIME), fc.constantFrom(...TIME)).map(([a, u, v]) => ({
    source: `${a} USD/${u} in USD/${v}`,
    have: `${a} USD/${GNU_TIME[u] ?? u}`,
    want: `USD/${GNU_TIME[v] ?? v}`,
    qalc: null,
  })),
  // a compound duration times a rate
  fc
    .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 59 }), amount, fc.constantFrom(...TIME))
    .map(([h, m, a, u]) => ({
      source: `${h} h ${m} min * ${a} USD/${u}`,
      have: `(${h} hour + ${m} min) * ${a} USD/${GNU_TIME[u] ?? u}`,
      want: "USD",
      qalc: null,
    })),
  // an absolute temperature in another scale
  fc.tuple(celsiusish, fc.constantFrom(...TEMP), fc.constantFrom(...TEMP)).map(([a, u, v]) => ({
    source: `${a} ${u} in ${v}`,
    have: `${GNU_TEMP[u]}(${a})`,
    want: GNU_TEMP[v] as string,
    qalc: `(${a} ${u}) to ${v}`,
  })),
);

function number(line: string): Decimal {
  const m = /[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(line.replace(/−/g, "-").replace(/[≈]/g, " "));
  if (!m) throw new Error(`no number in ${JSON.stringify(line)}`);
  return new Decimal(m[0]);
}

function near(a: Decimal, b: Decimal, rel: number): boolean {
  if (a.isZero() || b.isZero()) return a.minus(b).abs().lt(rel);
  return a.minus(b).abs().div(b.abs()).lt(rel);
}

describe("against GNU units and qalc", () => {
  const all = fc.sample(caseArb, { numRuns: 400, seed: 20261128 });
  // temperatures below absolute zero are refused (and out of both tools' domain)
  const cases = all.filter((c) => c.qalc === null || evaluate(c.source).ok);
  const gnu = execFileSync("units", ["-t", "-d", "15"], {
    input: cases.map((c) => `${c.have}\n${c.want}\n`).join(""),
    encoding: "utf8",
  })
    .trim()
    .split("\n");
  const forQalc = cases.filter((c) => c.qalc !== null);
  const qalc = execFileSync("qalc", ["-t", "-set", "precision 30", "-f", "-"], {
    input: forQalc.map((c) => c.qalc).join("\n"),
    encoding: "utf8",
  })
    .trim()
    .split("\n");

  it("has a few hundred cases of each kind and one answer per case from each tool", () => {
    expect(cases.length).toBeGreaterThan(300);
    expect(gnu).toHaveLength(cases.length);
    expect(qalc).toHaveLength(forQalc.length);
    expect(forQalc.length).toBeGreaterThan(80);
    expect(cases.filter((c) => c.source.includes(" * ")).length).toBeGreaterThan(80);
  });

  it("agrees with GNU units to its 15 digits", () => {
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const r = evaluate(c.source, { precision: 30 });
      if (!r.ok) {
        wrong.push(`${c.source}: ${r.error.message}`);
        return;
      }
      // a money result is rounded to cents: compare the unrounded value
      const ours = new Decimal(r.money ? r.full : r.value.value);
      const theirs = number(gnu[i] as string);
      // GNU units computes temperatures in floating point: 1e-9 of a degree, near 0 too
      const ok = c.qalc === null ? near(ours, theirs, 1e-13) : ours.minus(theirs).abs().lt(1e-9);
      if (!ok) wrong.push(`${c.source}: ${ours} vs units ${gnu[i]}`);
    });
    expect(wrong).toEqual([]);
  });

  it("agrees with qalc on temperatures", () => {
    const wrong: string[] = [];
    forQalc.forEach((c, i) => {
      const r = evaluate(c.source, { precision: 30 });
      const ours = r.ok ? new Decimal(r.value.value) : null;
      if (!ours || !near(ours, number(qalc[i] as string), 1e-20))
        wrong.push(`${c.source}: ${ours} vs qalc ${qalc[i]}`);
    });
    expect(wrong).toEqual([]);
  });
});
