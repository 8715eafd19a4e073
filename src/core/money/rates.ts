/**
 * Parsers for exchange-rate files, validated strictly (no DOM needed, so they run in the browser and
 * in Node):
 * - `parseEcbXml`: the ECB's euro reference rates, `eurofxref-daily.xml` (one dated set of rates);
 * - `parseRatesCsv`: a `currency,rate` CSV with a header line.
 * Codes must be ISO 4217 codes of the table (not the base itself), each once; rates positive decimals.
 */
import { getCurrency } from "./currencies";
import type { RateTable } from "./fx";
import type { MoneyError, MoneyResult } from "./money";

const RATE_RE = /^\d{1,15}(\.\d{1,15})?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Largest accepted file, in characters. */
export const MAX_RATES_FILE_CHARS = 200_000;

function fail(message: string, line?: number): { ok: false; error: MoneyError } {
  return {
    ok: false,
    error: line === undefined ? { code: "invalid_file", message } : { code: "invalid_file", message, line },
  };
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const y = Number.parseInt(m[1] ?? "", 10);
  const mo = Number.parseInt(m[2] ?? "", 10);
  const d = Number.parseInt(m[3] ?? "", 10);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d <= days;
}

function checkRate(
  rates: Record<string, string>,
  code: string,
  rate: string,
  base: string,
  line: number,
): MoneyError | undefined {
  const cur = getCurrency(code);
  if (!/^[A-Z]{3}$/.test(code) || !cur)
    return { code: "invalid_file", message: `Unknown currency ${code}`, line };
  if (cur.code === base)
    return { code: "invalid_file", message: `${code} is the base currency and cannot have a rate`, line };
  if (Object.hasOwn(rates, cur.code)) return { code: "invalid_file", message: `${code} appears twice`, line };
  if (!RATE_RE.test(rate) || /^0+(\.0*)?$/.test(rate)) {
    return {
      code: "invalid_file",
      message: `The rate for ${code} is not a positive decimal: "${rate}"`,
      line,
    };
  }
  rates[cur.code] = rate;
  return undefined;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const ATTR_RE = /\s+([A-Za-z_][\w:.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;

function parseAttrs(text: string): Map<string, string> | undefined {
  const attrs = new Map<string, string>();
  let rest = text;
  ATTR_RE.lastIndex = 0;
  let consumed = 0;
  for (let m = ATTR_RE.exec(text); m; m = ATTR_RE.exec(text)) {
    if (m.index !== consumed) return undefined;
    const name = m[1] ?? "";
    if (attrs.has(name)) return undefined;
    attrs.set(name, m[2] ?? m[3] ?? "");
    consumed = m.index + m[0].length;
  }
  rest = text.slice(consumed);
  return /^\s*$/.test(rest) ? attrs : undefined;
}

/**
 * Parses the ECB daily reference-rate XML (`eurofxref-daily.xml`) into a rate table with base EUR.
 * The structure is checked: the gesmes envelope, one `<Cube time='YYYY-MM-DD'>` inside the outer
 * `<Cube>`, and `<Cube currency='XXX' rate='1.2345'/>` entries; any other element or stray text is an error.
 */
export function parseEcbXml(xml: string): MoneyResult<RateTable> {
  if (xml.length > MAX_RATES_FILE_CHARS) return fail("The file is too large");
  const text = xml.replace(/^\uFEFF/, "");
  if (!/<gesmes:Envelope[\s>]/.test(text))
    return fail("Not an ECB reference-rate file: no gesmes:Envelope element");
  const tagRe =
    /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:'[^']*'|"[^"]*"))*\s*)(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;
  const stack: string[] = [];
  const rates: Record<string, string> = {};
  let date: string | undefined;
  let last = 0;
  let sawEnvelopeEnd = false;
  for (let m = tagRe.exec(text); m; m = tagRe.exec(text)) {
    const between = text.slice(last, m.index);
    const parent = stack[stack.length - 1];
    if (!/^\s*$/.test(between) && parent !== "gesmes:subject" && parent !== "gesmes:name") {
      return fail(`Unexpected text "${between.trim().slice(0, 30)}"`, lineAt(text, last));
    }
    if (/[<>]/.test(between)) return fail("Malformed markup", lineAt(text, last));
    last = m.index + m[0].length;
    const line = lineAt(text, m.index);
    if (m[2] === undefined) continue; // declaration or comment
    const closing = m[1] === "/";
    const name = m[2];
    const selfClosing = m[4] === "/";
    if (sawEnvelopeEnd) return fail("Content after the end of the envelope", line);
    if (closing) {
      if (stack.pop() !== name) return fail(`Unexpected </${name}>`, line);
      if (name === "gesmes:Envelope") sawEnvelopeEnd = true;
      continue;
    }
    const attrs = parseAttrs(m[3] ?? "");
    if (!attrs) return fail(`Malformed attributes on <${name}>`, line);
    if (stack.length === 0 && name !== "gesmes:Envelope") return fail(`Unexpected <${name}>`, line);
    if (name === "Cube") {
      const cubes = stack.filter((s) => s === "Cube").length;
      if (parent !== "Cube" && parent !== "gesmes:Envelope") return fail("Misplaced <Cube>", line);
      if (cubes === 0 && attrs.size > 0) return fail("The outer <Cube> has attributes", line);
      if (cubes === 1) {
        const time = attrs.get("time");
        if (time === undefined || attrs.size !== 1) return fail("Expected <Cube time='YYYY-MM-DD'>", line);
        if (date !== undefined) return fail("The file holds more than one date; use the daily file", line);
        if (!isIsoDate(time)) return fail(`Invalid date "${time}"`, line);
        date = time;
      }
      if (cubes === 2) {
        const code = attrs.get("currency");
        const rate = attrs.get("rate");
        if (code === undefined || rate === undefined || attrs.size !== 2) {
          return fail("Expected <Cube currency='XXX' rate='1.2345'/>", line);
        }
        const err = checkRate(rates, code, rate, "EUR", line);
        if (err) return { ok: false, error: err };
      }
      if (cubes > 2) return fail("Cube nested too deeply", line);
    } else if (
      !["gesmes:subject", "gesmes:Sender", "gesmes:name"].includes(name) &&
      !(name === "gesmes:Envelope" && stack.length === 0)
    ) {
      return fail(`Unexpected <${name}>`, line);
    }
    if (!selfClosing) stack.push(name);
  }
  if (!/^\s*$/.test(text.slice(last))) return fail("Unexpected text after the envelope", lineAt(text, last));
  if (stack.length > 0 || !sawEnvelopeEnd) return fail("The file ends before the envelope is closed");
  if (date === undefined) return fail("No dated <Cube time='…'> element");
  if (Object.keys(rates).length === 0) return fail("The file holds no rates");
  return { ok: true, value: { base: "EUR", date, rates } };
}

/**
 * Parses a CSV of rates against `base` (default EUR): a header line `currency,rate`, then one
 * `CODE,rate` per line. Blank lines are ignored; `date` (YYYY-MM-DD) dates the table.
 */
export function parseRatesCsv(csv: string, date: string, base = "EUR"): MoneyResult<RateTable> {
  if (csv.length > MAX_RATES_FILE_CHARS) return fail("The file is too large");
  if (!isIsoDate(date)) return fail(`Invalid date "${date}"`);
  const baseCur = getCurrency(base);
  if (!baseCur) return fail(`Unknown currency ${base}`);
  const lines = csv.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = (lines[0] ?? "")
    .trim()
    .toLowerCase()
    .replace(/\s*,\s*/g, ",");
  if (header !== "currency,rate") return fail('The first line must be the header "currency,rate"', 1);
  const rates: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const raw = (lines[i] ?? "").trim();
    if (raw === "") continue;
    const cells = raw.split(",").map((c) => c.trim().replace(/^"(.*)"$/, "$1"));
    if (cells.length !== 2) return fail(`Expected two columns, currency and rate`, i + 1);
    const err = checkRate(rates, (cells[0] ?? "").toUpperCase(), cells[1] ?? "", baseCur.code, i + 1);
    if (err) return { ok: false, error: err };
  }
  if (Object.keys(rates).length === 0) return fail("The file holds no rates");
  return { ok: true, value: { base: baseCur.code, date, rates } };
}

/** Writes a rate table as CSV (`currency,rate` header), the inverse of `parseRatesCsv`. */
export function ratesToCsv(table: RateTable): string {
  const body = Object.keys(table.rates)
    .sort()
    .map((c) => `${c},${table.rates[c]}`);
  return `${["currency,rate", ...body].join("\n")}\n`;
}
