import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateTable } from "@/core/money";
import { loadRateTable } from "@/server/fx";
import { createTestDatabase } from "../../../tests/support/db";
import { calculate, convertAmount } from "./api";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
});
afterAll(async () => {
  await t.drop();
});

describe("the FX table from the migration", () => {
  it("holds the ECB snapshot as exact decimal strings with its date", () => {
    expect(rates.base).toBe("EUR");
    expect(rates.date).toBe("2026-11-20");
    expect(rates.rates.USD).toBe("1.1582");
    expect(rates.rates.ISK).toBe("146.90");
    expect(Object.keys(rates.rates)).toHaveLength(29);
  });
});

describe("convertAmount", () => {
  it("converts through EUR and rounds once to the target's minor units", () => {
    // 100 × 181.42 / 1.1582 = 15663.9613… → 15664 JPY (no minor unit)
    expect(convertAmount({ amount: "100", from: "USD", to: "JPY", rounding: "half-even" }, rates)).toEqual({
      ok: true,
      body: {
        amount: "15664",
        currency: "JPY",
        rate: expect.stringMatching(/^156\.6396131928855120013814539803/),
        ratesDate: "2026-11-20",
      },
    });
    expect(
      convertAmount({ amount: "1.1582", from: "USD", to: "EUR", rounding: "half-even" }, rates),
    ).toMatchObject({
      ok: false,
      code: "too_many_decimals",
    });
    expect(
      convertAmount({ amount: "100.00", from: "USD", to: "GBP", rounding: "down" }, rates),
    ).toMatchObject({
      ok: true,
      body: { amount: "76.08", currency: "GBP" },
    });
    expect(convertAmount({ amount: "100.00", from: "USD", to: "GBP", rounding: "up" }, rates)).toMatchObject({
      body: { amount: "76.09" },
    });
  });

  it("names an unknown currency or a missing rate", () => {
    expect(
      convertAmount({ amount: "1", from: "USD", to: "XYZ", rounding: "half-even" }, rates),
    ).toMatchObject({
      ok: false,
      message: "Unknown currency XYZ",
    });
    expect(
      convertAmount({ amount: "1", from: "USD", to: "BHD", rounding: "half-even" }, rates),
    ).toMatchObject({
      ok: false,
    });
  });
});

describe("calculate", () => {
  it("evaluates exactly, with money and conversion", () => {
    expect(calculate({ expression: "0.1 + 0.2" }, rates)).toEqual({
      ok: true,
      body: { result: "0.3", exact: true },
    });
    expect(calculate({ expression: "100 USD in JPY" }, rates)).toMatchObject({
      ok: true,
      body: { result: "15664", currency: "JPY", exact: false },
    });
    expect(calculate({ expression: "1 / 3", precision: 5, rounding: "up" }, rates)).toMatchObject({
      body: { result: "0.33334", exact: false },
    });
    // rounded once, at the end: the old engine's 1/3*3 was 0.99999999999999999999
    expect(calculate({ expression: "1/3*3" }, rates)).toEqual({
      ok: true,
      body: { result: "1", exact: true },
    });
  });

  it("reports errors with a code, a message and the column", () => {
    expect(calculate({ expression: "(1 + 2))" }, rates)).toMatchObject({ ok: false, column: 8 });
    expect(calculate({ expression: "1 / 0" }, rates)).toMatchObject({
      ok: false,
      message: "Division by zero",
    });
    expect(calculate({ expression: "5 XYZ" }, rates)).toMatchObject({
      ok: false,
      message: "Unknown currency XYZ",
    });
  });
});

describe("evaluateSheetLines", () => {
  it("answers every line with the migration's rates, errors on their lines", async () => {
    const { evaluateSheetLines } = await import("./api");
    const out = evaluateSheetLines(
      { sheet: "a = 100 USD in EUR\na * 2\nb + 1\n// note", rounding: "half-even" },
      rates,
    );
    // 100 / 1.1582 = 86.3408737… EUR
    expect(out).toEqual({
      ok: true,
      body: {
        lines: [
          { line: 1, kind: "value", result: "86.34 EUR", exact: false, name: "a", currency: "EUR" },
          // a line reads the amount the line above showed, so the sheet adds up as it reads
          { line: 2, kind: "value", result: "172.68 EUR", exact: true, currency: "EUR" },
          {
            line: 3,
            kind: "error",
            error: { code: "unknown_variable", message: "Unknown variable b", column: 1 },
          },
          { line: 4, kind: "comment" },
        ],
      },
    });
  });
});
