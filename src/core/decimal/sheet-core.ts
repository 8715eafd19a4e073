/**
 * A sheet: lines of text, each evaluated on its own, top to bottom, with what the lines above left
 * (Soulver-like). Pure, like the engine; a sheet is only its text and its settings, so it can live in a
 * URL fragment, in an API request, or (later) in a database row as `{ title, text, precision, rounding }`.
 *
 *   # Trip                      a heading: starts a section
 *   // split four ways          a comment (also after a line: `12 EUR // taxi`)
 *   hotel = 3 * 120 EUR         a named value
 *   45.50 EUR
 *   subtotal                    the value lines of the section so far, added (`sum` is the same)
 *   total / 4                   `total`: every value line above (not sums); `average`: the section's mean
 *   line3 * 2                   a line by number (above this one); `prev`: the value line just above
 *
 * An error stays on its line, with its column in that line; the other lines keep their results. Lines
 * whose text and inputs did not change are not evaluated again (SheetEvaluator keeps their results).
 */

import type { RateTable } from "../money/fx";
import {
  type EvalResult,
  type EvalSuccess,
  type ExpressionError,
  evaluate,
  type RoundingMode,
  type Value,
} from "./engine";
import { unitNamed } from "./registry";

/** Most lines in a sheet, and most characters. */
export const SHEET_LIMITS = { maxLines: 2_000, maxLength: 100_000, timeLimitMs: 40 } as const;

export type LineResult =
  | { readonly kind: "blank" | "comment" }
  | { readonly kind: "heading"; readonly text: string }
  | {
      readonly kind: "value";
      readonly result: EvalSuccess;
      readonly name?: string;
      /**
       * For a line with `sum`, `subtotal`, `total` or `average` over lines with and without a unit or
       * currency: the lines without one, which it leaves out (by line number).
       */
      readonly skipped?: readonly number[];
    }
  | { readonly kind: "error"; readonly error: ExpressionError };

export interface SheetOptions {
  readonly precision?: number;
  readonly rounding?: RoundingMode;
  readonly rates?: RateTable | null;
  /** The clock each line's time budget is measured with (default: performance.now): for tests. */
  readonly clock?: () => number;
}

const AGGREGATES = ["sum", "subtotal", "total", "average"] as const;
type Aggregate = (typeof AGGREGATES)[number];

/** Lines above a line: what sums, averages, `prev` and `lineN` read. */
interface Above {
  readonly values: ReadonlyMap<number, Value>;
  /** Value lines of the current section, not counting aggregate lines. */
  readonly section: readonly number[];
  /** Value lines of the sheet so far, not counting aggregate lines. */
  readonly all: readonly number[];
  readonly prev: number | undefined;
  /** Partial sums kept from run to run, for long sums. */
  readonly blocks?: BlockSums;
}

function isAggregateLine(text: string): boolean {
  return /\b(sum|subtotal|total|average)\b/.test(text);
}

/** The text of a line without its comment, with grouping commas in numbers (1,250.50) removed. */
function clean(line: string): { text: string; columnOf: (col: number) => number } {
  const comment = line.indexOf("//");
  let text = comment >= 0 ? line.slice(0, comment) : line;
  // a comma between digits with exactly three digits after it, outside parentheses, groups digits
  const removed: number[] = [];
  let depth = 0;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0 && /\d/.test(text[i - 1] ?? "") && /^\d{3}(?!\d)/.test(text.slice(i + 1))) {
      removed.push(out.length);
      continue;
    }
    out += ch;
  }
  text = out;
  return { text, columnOf: (col) => col + removed.filter((at) => at < col).length };
}

/** One line, evaluated with the values above it. */
function evaluateLine(
  source: string,
  lineNo: number,
  above: Above,
  variables: Readonly<Record<string, Value>>,
  definedAt: ReadonlyMap<string, number>,
  options: SheetOptions,
): LineResult {
  const trimmed = source.trim();
  if (trimmed === "") return { kind: "blank" };
  if (trimmed.startsWith("#")) return { kind: "heading", text: trimmed.replace(/^#+\s*/, "") };
  if (trimmed.startsWith("//")) return { kind: "comment" };
  const { text, columnOf } = clean(source);
  if (text.trim() === "") return { kind: "comment" };
  const fail = (
    message: string,
    column: number,
    length = 1,
    code: ExpressionError["code"] = "unknown_variable",
  ): LineResult => ({
    kind: "error",
    error: { code, message, line: lineNo, column: columnOf(column), offset: columnOf(column) - 1, length },
  });
  const vars: Record<string, Value> = Object.assign(Object.create(null), variables);
  for (const m of text.matchAll(/\bline(\d+)\b/g)) {
    const n = Number(m[1]);
    const column = (m.index ?? 0) + 1;
    if (n >= lineNo) return fail(`line${n} is not above this line`, column, m[0].length);
    const v = above.values.get(n);
    if (!v) return fail(`Line ${n} has no value`, column, m[0].length);
    vars[`line${n}`] = v;
  }
  for (const m of text.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\b/g)) {
    const name = m[1] as string;
    if (name in vars) continue;
    const at = definedAt.get(name);
    if (at !== undefined && at > lineNo) {
      return fail(`${name} is defined below this line, on line ${at}`, (m.index ?? 0) + 1, name.length);
    }
    if (at !== undefined && at < lineNo) {
      return fail(`${name} has no value: line ${at} has an error`, (m.index ?? 0) + 1, name.length);
    }
  }
  if (/\bprev\b/.test(text)) {
    const column = text.search(/\bprev\b/) + 1;
    if (above.prev === undefined) return fail("There is no value line above for prev", column, 4);
    vars.prev = above.values.get(above.prev) as Value;
  }
  const skipped = new Set<number>();
  for (const word of AGGREGATES) {
    const at = text.search(new RegExp(`\\b${word}\\b`));
    if (at < 0) continue;
    const lines = word === "total" ? above.all : above.section;
    if (lines.length === 0)
      return fail(`Nothing above to ${word === "average" ? "average" : "add up"}`, at + 1, word.length);
    const { result: r, skipped: left } = aggregate(word, lines, above.values, options, above.blocks);
    if (!r.ok) return fail(`${word}: ${r.error.message}`, at + 1, word.length, r.error.code);
    vars[word] = r.value;
    for (const n of left) skipped.add(n);
  }
  // only the names the line uses: every variable passed is parsed again by the engine
  const used: Record<string, Value> = Object.create(null);
  for (const name of namesIn(text)) if (name in vars) used[name] = vars[name] as Value;
  const r = evaluate(text, { ...options, variables: used, timeLimitMs: SHEET_LIMITS.timeLimitMs });
  if (!r.ok) {
    return {
      kind: "error",
      error: {
        ...r.error,
        line: lineNo,
        column: columnOf(r.error.column),
        offset: columnOf(r.error.column) - 1,
      },
    };
  }
  const name = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(text)?.[1];
  return {
    kind: "value",
    result: r,
    ...(name ? { name } : {}),
    ...(skipped.size > 0 ? { skipped: [...skipped].sort((a, b) => a - b) } : {}),
  };
}

/**
 * What a value measures, for sums: "money" (any currency: they convert), a rate per a unit, a date, a
 * unit's dimension, or "" for a plain number.
 */
function measureOf(value: Value | undefined): string {
  if (value === undefined) return "";
  if (value.kind === "money") return value.per ? `money/${value.per}` : "money";
  if (value.kind === "date") return "date";
  if (!value.unit) return "";
  try {
    return unitNamed(value.unit, 0, 0)?.dim ?? `unit ${value.unit}`;
  } catch {
    return `unit ${value.unit}`;
  }
}

/**
 * Adds up (or averages) lines. When they measure different things (euros, minutes, plain numbers), the
 * lines that measure what most of them measure are added (on a tie, what the first of them measures;
 * plain numbers only when every line is one), and the others are left out and named in `skipped`: a
 * ratio, a count or a duration worked out beside a budget is not an amount. Currencies convert as in
 * `+`.
 */
function aggregate(
  word: Aggregate,
  lines: readonly number[],
  values: ReadonlyMap<number, Value>,
  options: SheetOptions,
  blocks?: BlockSums,
): { result: EvalResult; skipped: readonly number[] } {
  const measures = lines.map((n) => measureOf(values.get(n)));
  const counts = new Map<string, number>();
  for (const m of measures) if (m !== "") counts.set(m, (counts.get(m) ?? 0) + 1);
  let dominant = "";
  for (const [m, count] of counts) if (count > (counts.get(dominant) ?? 0)) dominant = m;
  const used = lines.filter((_, k) => measures[k] === dominant);
  const skipped = lines.filter((_, k) => measures[k] !== dominant);
  const terms = used.map((n) => values.get(n) as Value);
  const blocked =
    blocks && terms.length > 2 * SUM_BLOCK && dominant !== "date" && !dominant.startsWith("temperature")
      ? blocks.partials(terms, options)
      : undefined;
  return { result: sumOf(blocked ?? terms, word === "average" ? used.length : 0, options), skipped };
}

/** `a + b + …`, left to right as typed (the first term's currency or unit is the result's), or its mean. */
function sumOf(terms: readonly Value[], averageOf: number, options: SheetOptions): EvalResult {
  const vars: Record<string, Value> = Object.create(null);
  terms.forEach((v, k) => {
    vars[`line${k + 1}`] = v;
  });
  const sum = terms.map((_, k) => `line${k + 1}`).join(" + ");
  return evaluate(averageOf > 0 ? `(${sum}) / ${averageOf}` : sum, { ...options, variables: vars });
}

/** Terms per block of a long sum. */
export const SUM_BLOCK = 32;

/**
 * Partial sums of long aggregates (a `total` under hundreds of lines), kept by block, so that after an
 * edit only the block holding the changed line is added again, and the total adds one partial per block
 * and unit instead of every line. A partial adds the block's values of one currency, one unit or one
 * rate: that rounds nothing (amounts in one currency add up in its minor units, other sums keep their
 * exact fraction), so the total of the partials, converted and rounded once as `+` does, is the total of
 * the lines. A partial that would round (an inexact value with no fraction) makes the sum fall back to
 * adding every line as written.
 */
class BlockSums {
  /** By block (its values' ids and the settings), least recently used first. */
  private cache = new Map<string, BlockPartials | null>();
  /** Blocks added up (not taken from the cache) since the counter was reset. */
  summed = 0;

  partials(terms: readonly Value[], options: SheetOptions): Value[] | undefined {
    const settings = `${options.precision}|${options.rounding}|${options.rates?.date}`;
    const blocks: BlockPartials[] = [];
    for (let from = 0; from < terms.length; from += SUM_BLOCK) {
      const block = terms.slice(from, from + SUM_BLOCK);
      const key = `${settings}\u0000${block.map(idOf).join(",")}`;
      let partial = this.cache.get(key);
      if (partial === undefined) {
        partial = sumBlock(block, options);
        this.summed++;
      } else this.cache.delete(key);
      this.cache.set(key, partial);
      if (partial === null) return undefined;
      blocks.push(partial);
    }
    while (this.cache.size > MAX_CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value as string);
    // unit by unit, in the order they first appear (the first term's unit stays first)
    const units = new Map<string, Value[]>();
    for (const block of blocks) {
      for (const [unit, partial] of block) {
        const list = units.get(unit);
        if (list) list.push(partial);
        else units.set(unit, [partial]);
      }
    }
    return [...units.values()].flat();
  }
}

/** A block's partial sums by unit, in the order the units appear in it. */
type BlockPartials = ReadonlyMap<string, Value>;

const MAX_CACHED_BLOCKS = 512;

function unitKey(value: Value): string {
  if (value.kind === "money") return `${value.currency}/${value.per ?? ""}`;
  if (value.kind === "number") return `${value.unit ?? ""}`;
  return value.kind;
}

/** The block's values added unit by unit; null when a partial would round (or fails: then so does the sum). */
function sumBlock(block: readonly Value[], options: SheetOptions): BlockPartials | null {
  const byUnit = new Map<string, Value[]>();
  for (const v of block) {
    const list = byUnit.get(unitKey(v));
    if (list) list.push(v);
    else byUnit.set(unitKey(v), [v]);
  }
  const partials = new Map<string, Value>();
  for (const [unit, list] of byUnit) {
    if (list.length === 1) {
      partials.set(unit, list[0] as Value);
      continue;
    }
    const r = sumOf(list, 0, options);
    if (!r.ok || (!r.exact && r.value.fraction === undefined)) return null;
    partials.set(unit, r.value);
  }
  return partials;
}

/** A number per value object: cache keys name the values a line reads by identity, not by content. */
const valueIds = new WeakMap<Value, number>();
let lastValueId = 0;
function idOf(value: Value | undefined): number {
  if (!value) return 0;
  let id = valueIds.get(value);
  if (id === undefined) {
    id = ++lastValueId;
    valueIds.set(value, id);
  }
  return id;
}

/**
 * Evaluates sheets, keeping each line's result by its text and the values it read, so that after an
 * edit only the lines whose text or inputs changed are evaluated again. A line's number is not part of
 * its key: inserting a line above leaves the lines below in the cache (only the lines that read a
 * changed value, or an aggregate over it, run again). A run costs one pass over the lines.
 */
export class SheetEvaluator {
  private cache = new Map<string, LineResult>();
  /** What each line's text says before it is evaluated (most lines are the same from run to run). */
  private infos = new Map<string, LineInfo>();
  private blocks = new BlockSums();
  /** Lines evaluated (not taken from the cache) by the last run: for tests and benchmarks. */
  evaluated = 0;
  /** Blocks of a long sum added up (not taken from the cache) by the last run (see BlockSums). */
  get summedBlocks(): number {
    return this.blocks.summed;
  }

  run(sheet: string, options: SheetOptions = {}): LineResult[] {
    const text = sheet.length > SHEET_LIMITS.maxLength ? sheet.slice(0, SHEET_LIMITS.maxLength) : sheet;
    const lines = text.split("\n").slice(0, SHEET_LIMITS.maxLines);
    const infos = new Map<string, LineInfo>();
    const lineInfos = lines.map((line) => {
      let info = infos.get(line) ?? this.infos.get(line);
      if (!info) info = lineInfo(line);
      infos.set(line, info);
      return info;
    });
    this.infos = infos;
    const definedAt = new Map<string, number>();
    lineInfos.forEach((info, i) => {
      if (info.defines && !definedAt.has(info.defines)) definedAt.set(info.defines, i + 1);
    });
    const values = new Map<number, Value>();
    let section: number[] = [];
    const all: number[] = [];
    let prev: number | undefined;
    const variables: Record<string, Value> = Object.create(null);
    const next = new Map<string, LineResult>();
    const results: LineResult[] = [];
    this.evaluated = 0;
    this.blocks.summed = 0;
    const settings = `${options.precision}|${options.rounding}|${options.rates?.date}`;
    // an aggregate reads its lines' values, and their numbers (it names the lines it leaves out)
    const ids = (ns: readonly number[]) => ns.map((n) => `${idOf(values.get(n))}@${n}`).join(",");
    lines.forEach((line, i) => {
      const lineNo = i + 1;
      // the key: the text and exactly what the line reads (so an edit re-evaluates only its readers)
      let key = `${settings}\u0000${line}`;
      const info = lineInfos[i] as LineInfo;
      if (info.names) {
        for (const { name: n, ref } of info.names) {
          let read: string;
          if (ref !== undefined) read = ref >= lineNo ? "below" : String(idOf(values.get(ref)));
          else if (n === "prev") read = String(idOf(prev === undefined ? undefined : values.get(prev)));
          else if (n === "sum" || n === "subtotal" || n === "average") read = ids(section);
          else if (n === "total") read = ids(all);
          else if (variables[n] !== undefined) read = String(idOf(variables[n]));
          else {
            // not a value above: unknown, defined on this line, below it, or on a line with an error
            const at = definedAt.get(n);
            read =
              at === undefined ? "" : at === lineNo ? "here" : `at${at}${at > lineNo ? "below" : "above"}`;
          }
          key += `\u0000${n}\u0001${read}`;
        }
      }
      let result = this.cache.get(key) ?? next.get(key);
      if (!result) {
        result = evaluateLine(
          line,
          lineNo,
          { values, section, all, prev, blocks: this.blocks },
          variables,
          definedAt,
          options,
        );
        this.evaluated++;
      } else if (result.kind === "error" && result.error.line !== lineNo) {
        // the same line moved: its error keeps its column, with its new line number
        result = { kind: "error", error: { ...result.error, line: lineNo } };
      }
      // a line that waited for the unit table or the calendar (lazy.ts) is evaluated again once they are in
      if (result.kind !== "error" || result.error.code !== "loading") next.set(key, result);
      results.push(result);
      if (result.kind === "heading") section = [];
      if (result.kind === "value") {
        values.set(lineNo, result.result.value);
        prev = lineNo;
        if (!info.aggregate) {
          section.push(lineNo);
          all.push(lineNo);
        }
        if (result.name) variables[result.name] = result.result.value;
      }
    });
    this.cache = next;
    return results;
  }
}

/** A line's text, read once: the name it defines, the names it reads, whether it is a sum. */
interface LineInfo {
  readonly defines: string | undefined;
  /** null for a blank line, a heading or a comment (they read nothing). */
  readonly names: readonly { readonly name: string; readonly ref?: number }[] | null;
  readonly aggregate: boolean;
}

function lineInfo(line: string): LineInfo {
  const defines = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(line)?.[1];
  const trimmed = line.trimStart();
  if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("//")) {
    return { defines, names: null, aggregate: false };
  }
  const names = namesIn(line).map((name) => {
    const ref = /^line(\d+)$/.exec(name);
    return ref ? { name, ref: Number(ref[1]) } : { name };
  });
  return { defines, names, aggregate: isAggregateLine(clean(line).text) };
}

function namesIn(line: string): string[] {
  return [...new Set(line.match(/\b[A-Za-z_][A-Za-z0-9_]*\b/g) ?? [])];
}

/** Evaluates a sheet once (no cache). */
export function evaluateSheet(sheet: string, options: SheetOptions = {}): LineResult[] {
  return new SheetEvaluator().run(sheet, options);
}
