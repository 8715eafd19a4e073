import Papa from "papaparse";

/**
 * CSV for the calculation history. Spreadsheets run a cell that starts with `=`, `+`, `-` or `@`
 * (or a tab or carriage return) as a formula, so such text cells get a leading apostrophe (OWASP's
 * advice); a result that is a plain number such as `-12.5` or `-1e-7` is left as it is, since a
 * number is not a formula. Quoting (commas, quotes, newlines) is papaparse's.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

export function neutraliseCell(value: string, options: { numeric?: boolean } = {}): string {
  if (options.numeric && PLAIN_NUMBER.test(value)) return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export const HISTORY_CSV_COLUMNS = [
  "saved_at",
  "mode",
  "expression",
  "result",
  "precision",
  "rounding",
  "currencies",
  "note",
  "saved_by",
] as const;

export type HistoryCsvRow = {
  savedAt: Date;
  mode: string;
  expression: string;
  result: string;
  precision: number;
  rounding: string;
  currencies: readonly string[];
  note: string;
  savedBy: string;
};

/** Lines of CSV (CRLF, every field quoted) for some rows; `header` adds the column names first. */
export function historyCsv(rows: readonly HistoryCsvRow[], header: boolean): string {
  const data = rows.map((row) => [
    row.savedAt.toISOString(),
    row.mode,
    neutraliseCell(row.expression),
    neutraliseCell(row.result, { numeric: true }),
    String(row.precision),
    row.rounding,
    neutraliseCell(row.currencies.join(" ")),
    neutraliseCell(row.note),
    neutraliseCell(row.savedBy),
  ]);
  const lines = header ? [[...HISTORY_CSV_COLUMNS], ...data] : data;
  if (lines.length === 0) return "";
  const text = Papa.unparse(lines, { quotes: true, newline: "\r\n" });
  return `${text}\r\n`;
}
