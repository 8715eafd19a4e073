/**
 * Readers for exchange-rate files, the only ones in the code base (pure: they run in Node and in the
 * browser):
 * - `parseEcbXml`: the ECB's euro reference rates in the `eurofxref` format, the daily file
 *   (`eurofxref-daily.xml`, one date) or a history (`eurofxref-hist-90d.xml`, many dates). XML is
 *   read by `fast-xml-parser`; the structure is then checked strictly.
 * - `parseRatesCsv`: a CSV file (read by `papaparse`) with a header naming `currency` and `rate`
 *   and optionally `date` columns; without a date column every row takes `defaultDate`.
 *
 * A file that cannot be read at all (too large, not XML, not the ECB structure, no header) fails as
 * a whole. Problems in single rows (an unknown currency, a rate that is not a positive decimal, a
 * repeated currency, an impossible date) are collected, every one of them, in `issues`, so an admin
 * sees all of them at once; a file with issues must not be applied.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import Papa from "papaparse";
import { getCurrency } from "./currencies";
import type { RateTable } from "./fx";
import type { MoneyError, MoneyResult } from "./money";

/** Largest accepted file, in UTF-16 code units (the ECB's 90-day history is about 150 kB); below
 * the 1 MB body limit of a server action, which is the cap applied before anything is parsed. */
export const MAX_RATES_FILE_CHARS = 800_000;
/** Most dates one file may hold (the 90-day history has about 64). */
export const MAX_RATE_DATES = 400;
/** Most rate rows one file may hold. */
export const MAX_RATE_ROWS = 20_000;
/** Most row problems reported; past this the file is clearly not what it should be. */
export const MAX_RATE_ISSUES = 100;

const RATE_RE = /^\d{1,15}(\.\d{1,15})?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type RatesSource = "ecb-xml" | "csv";

/** One problem in one row of a file: `where` says which (a CSV line, or an ECB date and currency). */
export interface RateIssue {
  readonly where: string;
  readonly message: string;
  readonly line?: number;
}

export interface ParsedRates {
  readonly source: RatesSource;
  /** One table per date, newest first. */
  readonly days: readonly RateTable[];
  readonly issues: readonly RateIssue[];
  /** Number of rate rows read. */
  readonly rowCount: number;
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

/** Whether `rate` is a positive decimal of at most 15 + 15 digits, with no sign or exponent. */
export function isPositiveRate(rate: string): boolean {
  return RATE_RE.test(rate) && !/^0+(\.0*)?$/.test(rate);
}

function fail(message: string, line?: number): { ok: false; error: MoneyError } {
  return {
    ok: false,
    error: line === undefined ? { code: "invalid_file", message } : { code: "invalid_file", message, line },
  };
}

/** Collects rows into dated tables and row issues, checking each rate against ISO 4217. */
class Collector {
  readonly byDate = new Map<string, Record<string, string>>();
  readonly issues: RateIssue[] = [];
  rowCount = 0;

  issue(where: string, message: string, line?: number) {
    if (this.issues.length < MAX_RATE_ISSUES)
      this.issues.push(line === undefined ? { where, message } : { where, message, line });
  }

  /** False once the file holds too many rows or dates (the caller stops reading). */
  add(date: string, code: string, rate: string, where: string, line?: number): boolean {
    this.rowCount++;
    if (this.rowCount > MAX_RATE_ROWS) return false;
    if (!isIsoDate(date)) {
      this.issue(where, `Invalid date "${date.slice(0, 20)}"`, line);
      return true;
    }
    let rates = this.byDate.get(date);
    if (!rates) {
      if (this.byDate.size >= MAX_RATE_DATES) return false;
      rates = {};
      this.byDate.set(date, rates);
    }
    const cur = /^[A-Za-z]{3}$/.test(code) ? getCurrency(code.toUpperCase()) : undefined;
    if (!cur) {
      this.issue(where, `Unknown currency ${code.slice(0, 20)}`, line);
    } else if (cur.code === "EUR") {
      this.issue(where, "EUR is the base currency and cannot have a rate", line);
    } else if (Object.hasOwn(rates, cur.code)) {
      this.issue(where, `${cur.code} appears twice for ${date}`, line);
    } else if (!isPositiveRate(rate)) {
      this.issue(where, `The rate for ${cur.code} is not a positive decimal: "${rate.slice(0, 40)}"`, line);
    } else {
      rates[cur.code] = rate;
    }
    return true;
  }

  result(source: RatesSource): MoneyResult<ParsedRates> {
    const days: RateTable[] = [...this.byDate.entries()]
      .filter(([, rates]) => Object.keys(rates).length > 0)
      .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
      .map(([date, rates]) => ({ base: "EUR", date, rates }));
    if (days.length === 0 && this.issues.length === 0) return fail("The file holds no rates");
    return { ok: true, value: { source, days, issues: this.issues, rowCount: this.rowCount } };
  }
}

const tooBig = () => fail(`The file is too large (at most ${Math.floor(MAX_RATES_FILE_CHARS / 1000)} kB)`);
const tooMany = () =>
  fail(`The file holds more than ${MAX_RATE_DATES} dates or ${MAX_RATE_ROWS} rates; split it`);

type XmlNode = Record<string, unknown>;

function asList(value: unknown): XmlNode[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  // An empty element (`<Cube></Cube>`) reads as "".
  const nodes = value.map((v) => (v === "" ? {} : v));
  return nodes.every((v) => typeof v === "object" && v !== null) ? (nodes as XmlNode[]) : undefined;
}

function onlyKeys(node: XmlNode, allowed: readonly string[]): string | undefined {
  return Object.keys(node).find((k) => !allowed.includes(k));
}

const ECB_PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  // Every value stays the exact text of the file: a rate must never pass through a Number.
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  isArray: (name) => name === "Cube" || name === "gesmes:Sender",
});

/**
 * Reads an ECB `eurofxref` file (daily or history). Its shape: a `gesmes:Envelope` holding a subject,
 * a sender and one outer `<Cube>` with one `<Cube time='YYYY-MM-DD'>` per date, each holding
 * `<Cube currency='XXX' rate='1.2345'/>` entries. Any other element, attribute or stray text fails.
 */
export function parseEcbXml(xml: string): MoneyResult<ParsedRates> {
  if (xml.length > MAX_RATES_FILE_CHARS) return tooBig();
  const text = xml.replace(/^\uFEFF/, "");
  // No document type: entity declarations are how XML bombs are built, and the ECB never sends one.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return fail("A document type declaration is not allowed");
  const valid = XMLValidator.validate(text);
  if (valid !== true) return fail(`Not well-formed XML: ${valid.err.msg}`, valid.err.line);
  let doc: XmlNode;
  try {
    doc = ECB_PARSER.parse(text) as XmlNode;
  } catch (error) {
    return fail(`Not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const envelope = doc["gesmes:Envelope"];
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope))
    return fail("Not an ECB reference-rate file: no gesmes:Envelope element");
  const stray = onlyKeys(doc, ["gesmes:Envelope", "#comment"]);
  if (stray) return fail(`Unexpected ${stray} outside the envelope`);
  const env = envelope as XmlNode;
  const unexpected = onlyKeys(env, ["@xmlns:gesmes", "@xmlns", "gesmes:subject", "gesmes:Sender", "Cube"]);
  if (unexpected) return fail(`Unexpected ${unexpected.replace(/^@/, "attribute ")} in the envelope`);
  const outer = asList(env.Cube);
  const outerCube = outer?.length === 1 ? outer[0] : undefined;
  if (!outerCube) return fail("Expected exactly one outer <Cube>");
  const outerStray = onlyKeys(outerCube, ["Cube"]);
  if (outerStray) return fail(`Unexpected ${outerStray.replace(/^@/, "attribute ")} in the outer <Cube>`);
  const dated = asList(outerCube.Cube);
  if (!dated || dated.length === 0) return fail("No dated <Cube time='…'> element");
  if (dated.length > MAX_RATE_DATES) return tooMany();
  const rows = new Collector();
  for (const day of dated) {
    const time = day["@time"];
    const dayStray = onlyKeys(day, ["@time", "Cube"]);
    if (typeof time !== "string" || dayStray) return fail("Expected <Cube time='YYYY-MM-DD'> inside <Cube>");
    const entries = asList(day.Cube);
    if (!entries) return fail(`Unexpected content in <Cube time='${time.slice(0, 20)}'>`);
    for (const entry of entries) {
      const code = entry["@currency"];
      const rate = entry["@rate"];
      if (typeof code !== "string" || typeof rate !== "string" || onlyKeys(entry, ["@currency", "@rate"]))
        return fail("Expected <Cube currency='XXX' rate='1.2345'/>");
      if (!rows.add(time, code, rate, `${time.slice(0, 20)} ${code.slice(0, 20)}`)) return tooMany();
    }
  }
  return rows.result("ecb-xml");
}

/**
 * Reads a CSV of rates against EUR. The header names the columns (any order, any case):
 * `currency` and `rate`, and optionally `date` (YYYY-MM-DD); without it every row is dated
 * `defaultDate`. Blank lines are skipped; a line is counted from 1 at the header.
 */
export function parseRatesCsv(csv: string, defaultDate?: string): MoneyResult<ParsedRates> {
  if (csv.length > MAX_RATES_FILE_CHARS) return tooBig();
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), {
    skipEmptyLines: "greedy",
    preview: MAX_RATE_ROWS + 2,
  });
  const [header, ...body] = parsed.data;
  if (!header) return fail("The file holds no rates");
  const names = header.map((h) => h.trim().toLowerCase());
  const col = (name: string) => names.indexOf(name);
  const [iCurrency, iRate, iDate] = [col("currency"), col("rate"), col("date")];
  if (iCurrency < 0 || iRate < 0)
    return fail('The first line must be a header naming the columns "currency" and "rate" (and "date")', 1);
  if (iDate < 0 && (defaultDate === undefined || !isIsoDate(defaultDate)))
    return fail(`The file has no "date" column; choose the date its rates are for`);
  if (body.length > MAX_RATE_ROWS) return tooMany();
  const rows = new Collector();
  // papaparse reports the row index of quoting errors; they are row issues too.
  const badRows = new Map<number, string>();
  for (const e of parsed.errors) if (e.row !== undefined) badRows.set(e.row, e.message);
  for (const [index, cells] of body.entries()) {
    const line = index + 2;
    const where = `line ${line}`;
    const quoting = badRows.get(index + 1);
    if (quoting) {
      rows.issue(where, quoting, line);
      continue;
    }
    if (cells.length !== names.length) {
      rows.issue(where, `Expected ${names.length} columns, found ${cells.length}`, line);
      continue;
    }
    const date = iDate >= 0 ? (cells[iDate] ?? "").trim() : (defaultDate ?? "");
    const code = (cells[iCurrency] ?? "").trim();
    const rate = (cells[iRate] ?? "").trim();
    if (!rows.add(date, code, rate, where, line)) return tooMany();
  }
  return rows.result("csv");
}

/** The single table of a daily file; a file with row issues or several dates is refused. */
export function singleTable(parsed: MoneyResult<ParsedRates>): MoneyResult<RateTable> {
  if (!parsed.ok) return parsed;
  const first = parsed.value.issues[0];
  if (first) return fail(`${first.where}: ${first.message}`, first.line);
  const [day, ...rest] = parsed.value.days;
  if (!day || rest.length > 0) return fail("Expected one date of rates");
  return { ok: true, value: day };
}
