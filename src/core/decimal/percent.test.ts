/**
 * Percentages as people mean them: the documented table, the rules around them (what stays plain, what
 * is refused), and a differential test of every form, with plain numbers, with money and with money
 * paid in cash, against Python's fractions and decimal modules (fixtures/percent-oracle.py).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cashStep } from "../money/cash";
import { getCurrency } from "../money/currencies";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { evaluate, type RoundingMode } from "./index";

const DOCS = fileURLToPath(new URL("../../../content/docs/200-calculator.md", import.meta.url));
const ORACLE = fileURLToPath(new URL("./fixtures/percent-oracle.py", import.meta.url));

function show(source: string, options: Parameters<typeof evaluate>[1] = {}): string {
  const r = evaluate(source, { rates: ECB_SNAPSHOT, ...options });
  return r.ok ? r.display : `error: ${r.error.message}`;
}

/** The rows of the percentage table in the calculator's documentation: `write` → `gives`. */
function documentedRows(): [string, string][] {
  const text = readFileSync(DOCS, "utf8");
  const start = text.indexOf("### Percentages");
  expect(start, "the docs have a Percentages section").toBeGreaterThan(0);
  const section = text.slice(start, text.indexOf("\n### ", start + 1));
  const rows: [string, string][] = [];
  for (const line of section.split("\n")) {
    // | `150 + 20%` | 150 × (1 + 20/100) | `180` |
    const m = /^\| `([^`]+)` \| [^|]+ \| `([^`]+)` \|$/.exec(line.trim());
    if (m) rows.push([m[1] as string, m[2] as string]);
  }
  return rows;
}

describe("the documented percentage table", () => {
  const rows = documentedRows();
  it("lists every form", () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });
  it.each(rows)("%s gives %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });
});

describe("percentages", () => {
  it.each([
    // the everyday ones
    ["150 + 20%", "180"],
    ["150 - 10%", "135"],
    ["150 * 20%", "30"],
    ["20% of 150", "30"],
    ["20% off 150", "120"],
    ["20% on 150", "180"],
    ["30 as % of 120", "25%"],
    ["36 is 20% of what", "180"],
    ["120 is 20% on what", "100"],
    ["80 is 20% off what", "100"],
    // a percentage alone, and between percentages, stays a plain number
    ["12%", "0.12"],
    ["50% - 10%", "0.4"],
    ["50% + 10%", "0.6"],
    ["12% * 3", "0.36"],
    // the percentage must be the whole right operand; a signed one counts
    ["150 + 20% * 2", "150.4"],
    ["150 + -20%", "120"],
    ["150 + 20% + 10%", "198"],
    ["(150 + 20)%", "1.7"],
    // of, on and off bind looser than * and tighter than +
    ["20% of 2 * 75", "30"],
    ["20% of 150 + 5", "35"],
    ["10 + 20% of 150", "40"],
    // the rule reads what is written: a variable holding 25% is the number 0.25
    ["x = 25%\n80 + x", "80.25"],
    ["x = 25\n80 + x%", "100"],
    // money keeps its currency; a ratio of amounts is a number
    ["150 USD + 20%", "180.00 USD"],
    ["20% off 59.99 EUR", "47.99 EUR"],
    ["15% of 1234 JPY", "185 JPY"],
    ["30 EUR as % of 120 EUR", "25%"],
    ["36 USD is 20% of what", "180.00 USD"],
    ["119 EUR is 19% on what", "100.00 EUR"],
    // the remainder operator is unchanged
    ["10 % 3", "1"],
    ["10%3", "1"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it("keeps a percentage result exact: `as %` holds the ratio, shown as a percentage", () => {
    const r = evaluate("1 as % of 3");
    expect(r.ok && [r.display, r.exact, r.value.fraction]).toEqual(["33.333333333333333333%", false, "1/3"]);
    expect(show("share = 1 as % of 3\nshare * 300")).toBe("100");
    const kept = evaluate("30 as % of 120");
    expect(kept.ok && show("ans * 200", { ans: kept.value })).toBe("50");
  });

  it.each([
    ["3 of 5", "'of' needs a percentage before it, as in 20% of 150 at column 3"],
    ["2 * 20% of 150", "'of' needs a percentage before it, as in 20% of 150 at column 9"],
    ["36 is 20 of what", "Expected a percentage after 'is', as in 36 is 20% of what at column 7"],
    ["36 is 20% of 3", "Expected 'of what', 'on what' or 'off what' at column 14"],
    ["30 as 20", "Expected '% of' after 'as' at column 7"],
    ["100 is 0% of what", "No base: 0% of any base is 0"],
    ["100 is 100% off what", "No base: 100% off any base is 0"],
    ["30 as % of 0", "Division by zero"],
    ["30 USD as % of 120", "Cannot take an amount in USD as a percentage of a number"],
    ["150 + 20 USD%", "A percentage must be a plain number, not an amount in USD"],
    ["of = 2", "Unexpected 'of' at column 1"],
  ])("%s is refused: %s", (source, message) => {
    expect(show(source)).toBe(`error: ${message}`);
  });
});

// ---------------------------------------------------------------------------------------------------
// Differential test against Python

interface Case {
  form: "+" | "-" | "*" | "of" | "on" | "off" | "as" | "is-of" | "is-on" | "is-off";
  a: string;
  b: string;
  rounding: RoundingMode;
  precision: number;
  minor: number | null;
  /** A cash increment in minor units (`… in cash`). */
  step: number;
  source: string;
}

const FORMS: Record<Case["form"], (a: string, b: string) => string> = {
  "+": (a, b) => `${a} + ${b}%`,
  "-": (a, b) => `${a} - ${b}%`,
  "*": (a, b) => `${a} * ${b}%`,
  of: (a, b) => `${b}% of ${a}`,
  on: (a, b) => `${b}% on ${a}`,
  off: (a, b) => `${b}% off ${a}`,
  as: (a, b) => `${a} as % of ${b}`,
  "is-of": (a, b) => `${a} is ${b}% of what`,
  "is-on": (a, b) => `${a} is ${b}% on what`,
  "is-off": (a, b) => `${a} is ${b}% off what`,
};

/** Python's decimal has seven of the nine modes. */
const MODES: RoundingMode[] = ["up", "down", "ceil", "floor", "half-up", "half-down", "half-even"];

/** A decimal with up to 12 digits before and 6 after the point, sometimes negative. */
const decimalText = fc
  .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
  .map(([n, k]) => {
    const neg = n < 0n;
    const digits = (neg ? -n : n).toString().padStart(k + 1, "0");
    const text = k === 0 ? digits : `${digits.slice(0, -k)}.${digits.slice(-k)}`;
    return neg ? `(-${text})` : text;
  });
/** Percentages people type: 0 to 250, up to three decimals. */
const percentText = fc
  .tuple(fc.integer({ min: 0, max: 250_000 }), fc.boolean())
  .map(([n, neg]) => `${neg ? "-" : ""}${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, "0")}`);

const caseArb = fc
  .record({
    form: fc.constantFrom(...(Object.keys(FORMS) as Case["form"][])),
    a: decimalText,
    b: percentText,
    rounding: fc.constantFrom(...MODES),
    precision: fc.integer({ min: 1, max: 40 }),
    currency: fc.option(fc.constantFrom("USD", "JPY", "BHD", "EUR", "CHF", "DKK", "SEK", "HUF"), {
      nil: null,
    }),
    cash: fc.boolean(),
  })
  .filter(({ form, b }) => {
    const p = Number(b);
    if (form === "as" || form === "is-of") return p !== 0;
    if (form === "is-off") return p !== 100;
    if (form === "is-on") return p !== -100;
    return true;
  })
  .map(({ form, a, b, rounding, precision, currency, cash }): Case => {
    // `as` divides two values: the percentage becomes the whole, a plain number
    const money = currency !== null && form !== "as";
    const amount = money ? `${a} ${currency}` : a;
    const bSigned = b.startsWith("-") ? `(${b})` : b;
    const inCash = money && cash;
    const source =
      (form === "as" ? FORMS.as(a, bSigned) : FORMS[form](amount, b)) + (inCash ? " in cash" : "");
    return {
      step: inCash ? Number(cashStep(currency as string) ?? 1n) : 1,
      form,
      a: a.replace(/[()]/g, ""),
      b,
      rounding,
      precision,
      minor: money ? (getCurrency(currency as string)?.minorUnits ?? 2) : null,
      source,
    };
  });

describe("against Python's fractions and decimal", () => {
  const cases = fc.sample(caseArb, { numRuns: 400, seed: 20261125 });
  const answers = JSON.parse(
    execFileSync("/usr/bin/python3", [ORACLE], {
      input: JSON.stringify(cases.map(({ source: _s, ...c }) => c)),
      encoding: "utf8",
    }),
  ) as string[];

  it("has one answer per case and covers every form with and without money", () => {
    expect(answers).toHaveLength(cases.length);
    for (const form of Object.keys(FORMS))
      expect(
        cases.some((c) => c.form === form),
        form,
      ).toBe(true);
    expect(cases.filter((c) => c.minor !== null).length).toBeGreaterThan(100);
    expect(cases.filter((c) => c.step > 1).length).toBeGreaterThan(40);
  });

  it("gives the same value, rounded once, in every case", () => {
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const r = evaluate(c.source, { precision: c.precision, rounding: c.rounding });
      const expected = answers[i] as string;
      if (!r.ok) {
        wrong.push(`${c.source} (${c.rounding}, ${c.precision}): ${r.error.message}, expected ${expected}`);
        return;
      }
      const got = r.money ? r.money.amount : r.display.replace(/%$/, "");
      if (!new Decimal(got).eq(expected))
        wrong.push(`${c.source} (${c.rounding}, ${c.precision}): ${got}, expected ${expected}`);
    });
    expect(wrong).toEqual([]);
  });
});
