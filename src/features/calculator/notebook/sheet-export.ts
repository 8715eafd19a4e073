import Papa from "papaparse";
import type { LineResult } from "@/core/decimal/sheet";

/**
 * A sheet as CSV or Markdown: one row per line (number, expression, result). Loaded on first use
 * (papaparse is not on the calculator's first load).
 */
export interface ExportRow {
  readonly line: number;
  readonly expression: string;
  readonly result: string;
}

export function exportRows(text: string, results: readonly LineResult[]): ExportRow[] {
  return text.split("\n").map((expression, i) => ({
    line: i + 1,
    expression,
    result: resultText(results[i]),
  }));
}

function resultText(r: LineResult | undefined): string {
  if (!r) return "";
  if (r.kind === "value") return r.result.display;
  if (r.kind === "error") return `Error (column ${r.error.column}): ${r.error.message}`;
  return "";
}

export function toCsv(rows: readonly ExportRow[]): string {
  // a leading = + - @ would make a spreadsheet run the cell as a formula: quote it with a '
  const safe = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  return Papa.unparse(
    {
      fields: ["line", "expression", "result"],
      data: rows.map((r) => [r.line, safe(r.expression), safe(r.result)]),
    },
    { newline: "\r\n" },
  );
}

export function toMarkdown(title: string, rows: readonly ExportRow[]): string {
  const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").trim();
  const head = title.trim() ? `# ${title.trim()}\n\n` : "";
  const lines = rows.map((r) => `| ${r.line} | ${cell(r.expression)} | ${cell(r.result)} |`);
  return `${head}| Line | Expression | Result |\n| ---: | --- | ---: |\n${lines.join("\n")}\n`;
}

/** A file name from a title: letters, digits and dashes. */
export function fileName(title: string, ext: "csv" | "md"): string {
  const base = title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${base || "sheet"}.${ext}`;
}

export function download(name: string, body: string, type: string) {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
