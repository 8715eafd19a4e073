import type { EvalResult } from "@/core/decimal";

/** What the home page's calculator shows: the calculator's result text and whether it is exact. */
export type MiniResult = { ok: true; value: string; exact: boolean } | { ok: false; message: string };

/** The engine's outcome as the home page shows it (the same engine, precision and rounding as the calculator). */
export function toMiniResult(result: EvalResult): MiniResult {
  if (result.ok) return { ok: true, value: result.display, exact: result.exact };
  const { message, code, column } = result.error;
  // Where the problem is, as the calculator says it (its messages sometimes name the column already).
  const where = code === "empty" || /column \d+/.test(message) ? "" : ` (column ${column})`;
  return { ok: false, message: `${message}${where}` };
}

/** The calculator's address with this expression in its box. */
export function calculatorHref(expression: string): string {
  const expr = expression.trim();
  return expr ? `/calculator?${new URLSearchParams({ mode: "decimal", expr })}` : "/calculator";
}
