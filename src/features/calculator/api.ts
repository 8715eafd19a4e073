import "server-only";
import { evaluate } from "@/core/decimal";
import type { RoundingMode } from "@/core/decimal/rounding";
import { evaluateSheet } from "@/core/decimal/sheet";
import { convert, crossRate, parseMoney, type RateTable, toDecimalString } from "@/core/money";

export type ApiOutcome<T> =
  | { ok: true; body: T }
  | { ok: false; code: string; message: string; column?: number };

/** POST /api/v1/calculate: the expression engine with the instance's FX table. */
export function calculate(
  input: { expression: string; precision?: number; rounding?: RoundingMode },
  rates: RateTable,
): ApiOutcome<{ result: string; exact: boolean; currency?: string; unrounded?: string; bound?: string }> {
  const outcome = evaluate(input.expression, {
    precision: input.precision ?? 20,
    rounding: input.rounding ?? "half-even",
    rates,
  });
  if (!outcome.ok) {
    return {
      ok: false,
      code: outcome.error.code,
      message: outcome.error.message,
      column: outcome.error.column,
    };
  }
  // `exact`: whether `result` is the exact value of the expression or a rounding of it (once, at the end)
  const bound = outcome.bound ? { bound: outcome.bound } : {};
  if (outcome.money) {
    return {
      ok: true,
      body: {
        result: outcome.money.amount,
        exact: outcome.exact,
        currency: outcome.money.currency,
        // the amount to the requested precision before rounding to minor units
        unrounded: outcome.full,
        ...bound,
      },
    };
  }
  return { ok: true, body: { result: outcome.display, exact: outcome.exact, ...bound } };
}

/** GET /api/v1/convert: money keeps its minor-unit digits ("38.120" BHD, "15234" JPY). */
export function convertAmount(
  input: { amount: string; from: string; to: string; rounding: RoundingMode },
  rates: RateTable,
): ApiOutcome<{ amount: string; currency: string; rate: string; ratesDate: string }> {
  // No rounding of the input: an amount finer than the currency's minor unit is an error, so the
  // result is rounded exactly once.
  const money = parseMoney(input.amount, input.from);
  if (!money.ok) return { ok: false, code: money.error.code, message: money.error.message };
  const converted = convert(money.value, input.to, rates, input.rounding);
  if (!converted.ok) return { ok: false, code: converted.error.code, message: converted.error.message };
  const rate = crossRate(rates, input.from, input.to);
  if (!rate.ok) return { ok: false, code: rate.error.code, message: rate.error.message };
  return {
    ok: true,
    body: {
      amount: toDecimalString(converted.value),
      currency: converted.value.currency,
      rate: rate.value,
      ratesDate: rates.date,
    },
  };
}

/** POST /api/v1/sheets/evaluate: every line's result; an error is one line's, never the request's. */
export function evaluateSheetLines(
  input: { sheet: string; precision?: number; rounding?: RoundingMode },
  rates: RateTable,
): ApiOutcome<{ lines: unknown[] }> {
  const results = evaluateSheet(input.sheet, {
    precision: input.precision ?? 20,
    rounding: input.rounding ?? "half-even",
    rates,
  });
  const lines = results.map((r, i) => {
    const line = i + 1;
    switch (r.kind) {
      case "blank":
      case "comment":
        return { line, kind: r.kind };
      case "heading":
        return { line, kind: r.kind, text: r.text };
      case "error":
        return {
          line,
          kind: r.kind,
          error: { code: r.error.code, message: r.error.message, column: r.error.column },
        };
      default:
        return {
          line,
          kind: r.kind,
          result: r.result.display,
          exact: r.result.exact,
          ...(r.name ? { name: r.name } : {}),
          ...(r.skipped ? { skipped: r.skipped } : {}),
          ...(r.result.money ? { currency: r.result.money.currency } : {}),
          ...(r.result.unit ? { unit: r.result.unit } : {}),
        };
    }
  });
  return { ok: true, body: { lines } };
}
