import { evaluate, type Notation } from "../decimal";
import { convert, DISPLAY_LOCALE, formatMoney, getCurrency, type RateTable } from "../money";
import { parseAmount } from "../money/input";
import type { RoundingMode } from "../rounding";

/**
 * The result of a saved calculation, worked out again from what defines it: the expression, its
 * mode and its settings. The history keeps this result, never one a client sends, so a saved row
 * always shows what its expression gives. Both modes use the calculator's own engine and formatting
 * (decimal mode: the expression engine, with its time budget; currency mode: the converter's exact
 * conversion rounded once to the target's minor units), so the result matches what was on screen.
 */

export type SavedDefinition = {
  mode: "decimal" | "currency";
  expression: string;
  precision: number;
  rounding: RoundingMode;
  /** How decimal mode wrote the result (plain or scientific); currency mode ignores it. */
  notation?: Notation;
};

export type Recomputed = { ok: true; result: string; currencies: string[] } | { ok: false; error: string };

/** One line of a saved conversion, as the converter writes it: `100 EUR in USD`. */
const CONVERSION_LINE = /^(.+) ([A-Z]{3}) in ([A-Z]{3})$/;

export function recomputeSaved(
  definition: SavedDefinition,
  rates: RateTable | null,
  limits: { resultChars: number; currencies: number },
): Recomputed {
  const outcome =
    definition.mode === "decimal"
      ? recomputeDecimal(definition, rates)
      : recomputeConversion(definition, rates, limits.currencies);
  if (outcome.ok && outcome.result.length > limits.resultChars) {
    return {
      ok: false,
      error: `The result has ${outcome.result.length.toLocaleString("en-US")} characters, more than the ${limits.resultChars.toLocaleString("en-US")} a saved calculation keeps. Lower the precision or use scientific notation.`,
    };
  }
  return outcome;
}

function recomputeDecimal(definition: SavedDefinition, rates: RateTable | null): Recomputed {
  // No `ans` and no variables from earlier lines: a saved expression must stand on its own, or
  // nobody reopening it could get its result again.
  const outcome = evaluate(definition.expression, {
    precision: definition.precision,
    rounding: definition.rounding,
    notation: definition.notation ?? "plain",
    rates,
  });
  if (outcome.ok) {
    return { ok: true, result: outcome.display, currencies: outcome.money ? [outcome.money.currency] : [] };
  }
  if (outcome.error.code === "unknown_variable") {
    return {
      ok: false,
      error: `${outcome.error.message}: a saved calculation must work on its own. Write the values in (or define them on earlier lines of the same expression) and save again.`,
    };
  }
  return { ok: false, error: `This expression cannot be saved: ${outcome.error.message}.` };
}

function recomputeConversion(
  definition: SavedDefinition,
  rates: RateTable | null,
  maxCurrencies: number,
): Recomputed {
  const invalid: Recomputed = {
    ok: false,
    error: "A saved conversion has one line per target currency, such as “100 EUR in USD”.",
  };
  if (!rates) return { ok: false, error: "Exchange rates are not available right now. Try again later." };
  const lines = definition.expression.split("\n").map((line) => line.trim());
  if (lines.length === 0 || lines.length + 1 > maxCurrencies) return invalid;
  const parsed = lines.map((line) => CONVERSION_LINE.exec(line));
  const first = parsed[0];
  if (!first) return invalid;
  const [, amountText = "", from = ""] = first;
  const targets: string[] = [];
  for (const match of parsed) {
    if (!match || match[1] !== amountText || match[2] !== from) return invalid;
    const to = match[3] ?? "";
    if (!getCurrency(to) || targets.includes(to)) return invalid;
    targets.push(to);
  }
  const amount = parseAmount(amountText, from);
  if (!amount.ok) return { ok: false, error: `This conversion cannot be saved: ${amount.error}.` };
  const results = targets.map((to) => {
    const converted = convert(amount.value, to, rates, definition.rounding);
    return converted.ok ? formatMoney(converted.value, { locale: DISPLAY_LOCALE }) : null;
  });
  if (results.every((r) => r === null)) {
    return { ok: false, error: `There are no exchange rates for ${from} to convert it.` };
  }
  return {
    ok: true,
    result: results.map((r, i) => r ?? `– ${targets[i]}`).join("; "),
    currencies: [from, ...targets],
  };
}
