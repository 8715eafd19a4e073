import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { evaluate } from "../decimal";
import { split } from "./allocate";
import { cashIncrementsFromCldr, cashStep, divideInCash, hasCashRounding, roundToCash } from "./cash";
import table from "./data/cash-rounding.json";
import { ECB_SNAPSHOT } from "./ecb-snapshot";
import { convert } from "./fx";
import { money } from "./money";

const require = createRequire(import.meta.url);

describe("cash increments come from CLDR", () => {
  it("the copy in data/ is what the installed cldr-core package says (npx tsx scripts/build/generate-cash-rounding.ts)", () => {
    const cldr = JSON.parse(
      readFileSync(require.resolve("cldr-core/supplemental/currencyData.json"), "utf8"),
    );
    const version = (require("cldr-core/package.json") as { version: string }).version;
    expect(table.increments).toEqual(cashIncrementsFromCldr(cldr.supplemental.currencyData.fractions));
    expect(table.source).toContain(`cldr-core ${version}`);
  });

  it("reads CLDR's fields: a rounding of 0 is one unit of the cash digits", () => {
    expect(
      cashIncrementsFromCldr({
        CHF: { _digits: "2", _rounding: "0", _cashRounding: "5" },
        DKK: { _digits: "2", _rounding: "0", _cashRounding: "50" },
        SEK: { _digits: "2", _rounding: "0", _cashDigits: "0", _cashRounding: "0" },
        USD: { _digits: "2", _rounding: "0" },
      }),
    ).toEqual({ CHF: "0.05", DKK: "0.5", SEK: "1" });
  });

  it.each([
    ["CHF", 5n],
    ["chf", 5n],
    ["CAD", 5n],
    ["DKK", 50n],
    ["SEK", 100n],
    ["HUF", 500n],
    ["USD", 1n],
    ["JPY", 1n],
    ["XYZ", undefined],
  ] as const)("%s pays in steps of %s minor units", (code, step) => {
    expect(cashStep(code)).toBe(step);
  });

  it("knows which currencies cash rounding changes", () => {
    expect(hasCashRounding("CHF")).toBe(true);
    expect(hasCashRounding("EUR")).toBe(false);
  });
});

describe("rounding to cash", () => {
  it.each([
    [3333n, "CHF", "half-up", 3335n],
    [3332n, "CHF", "half-up", 3330n],
    [-3333n, "CHF", "half-up", -3335n],
    [3333n, "CHF", "down", 3330n],
    [1224n, "DKK", "half-up", 1200n],
    [1225n, "DKK", "half-up", 1250n],
    [1225n, "DKK", "half-even", 1200n],
    [9950n, "SEK", "half-up", 10000n],
    [3333n, "EUR", "half-up", 3333n],
  ] as const)("%s %s (%s) → %s", (amount, code, mode, expected) => {
    expect(roundToCash(money(amount, code), mode).amount).toBe(expected);
  });

  it("converts straight to the cash increment, with one rounding", () => {
    // 10 EUR in DKK at the snapshot's rate, to the 0.50 coin, equals the exact value rounded once
    const exact = convert(money(1000n, "EUR"), "DKK", ECB_SNAPSHOT, "half-up", 1n);
    const cash = convert(money(1000n, "EUR"), "DKK", ECB_SNAPSHOT, "half-up", 50n);
    expect(cash.ok && cash.value.amount % 50n).toBe(0n);
    expect(
      exact.ok && cash.ok && Math.abs(Number(exact.value.amount - cash.value.amount)),
    ).toBeLessThanOrEqual(25);
    const viaEngine = evaluate("10 EUR in DKK cash", { rates: ECB_SNAPSHOT });
    expect(viaEngine.ok && cash.ok && viaEngine.money?.amount).toBe(
      cash.ok ? `${cash.value.amount / 100n}.${String(cash.value.amount % 100n).padStart(2, "0")}` : "",
    );
  });

  it("divides an amount paid in cash into parts payable in coins that add up", () => {
    const { total, parts } = divideInCash(money(10000n, "CHF"), (t) => split(t, 3));
    expect(total.amount).toBe(10000n);
    expect(parts.map((p) => p.amount)).toEqual([3335n, 3335n, 3330n]);
    const odd = divideInCash(money(10002n, "CHF"), (t) => split(t, 4));
    expect(odd.total.amount).toBe(10000n);
    expect(odd.parts.reduce((a, p) => a + p.amount, 0n)).toBe(10000n);
    expect(odd.parts.every((p) => p.amount % 5n === 0n)).toBe(true);
  });
});

describe("`in CHF cash` in the calculator", () => {
  const show = (s: string, rounding: "half-up" | "half-even" = "half-up") => {
    const r = evaluate(s, { rates: ECB_SNAPSHOT, rounding });
    return r.ok
      ? `${r.display}${r.money?.cash ? ` (cash ${r.money.cash})` : ""}`
      : `error: ${r.error.message}`;
  };
  it.each([
    ["100 CHF / 3", "33.33 CHF"],
    ["100 CHF / 3 in CHF cash", "33.35 CHF (cash 0.05)"],
    ["100 CHF / 3 in cash", "33.35 CHF (cash 0.05)"],
    ["-100 CHF / 3 in cash", "-33.35 CHF (cash 0.05)"],
    ["12.24 DKK in cash", "12.00 DKK (cash 0.50)"],
    ["1234.5 HUF in cash", "1235.00 HUF (cash 5.00)"],
    ["99.5 SEK in cash", "100.00 SEK (cash 1.00)"],
    ["10 USD / 3 in cash", "3.33 USD (cash 0.01)"],
    ["x = 100 CHF / 3 in cash\nx * 3", "100.00 CHF"],
    ["5 in cash", "error: Cash rounding needs an amount of money, e.g. 100 CHF / 3 in cash"],
  ])("%s → %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it("keeps what was shown for ans: the amount paid", () => {
    const r = evaluate("100 CHF / 3 in cash");
    expect(r.ok && r.value).toEqual({ kind: "money", value: "33.35", currency: "CHF" });
    expect(r.ok && r.exact).toBe(false);
  });
});
