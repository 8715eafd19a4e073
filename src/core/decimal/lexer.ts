/**
 * Lexer: turns source text into tokens with their 0-based offsets.
 *
 * - numbers: `123`, `1_000.50`, `.5`, `5.`, `1e-7`, `2.5E+3` (`_` only between digits);
 * - identifiers: letters, digits and `_`, not starting with a digit (`pi`, `rate`, `USD`, `log10`);
 * - operators `+ - * / ^ %`, and the typographic `× ⋅ · ÷ −` as `* * * / -`; `π` reads as `pi`;
 * - the superscripts `²` and `³` as `^2` and `^3` (`m²`, `m/s²`);
 * - `( ) , =`; statement separators `;` and newlines (a newline inside parentheses is a blank);
 * - dates `2026-12-01` (four, two and two digits joined by `-`, nothing attached after);
 * - temperature units `°C`, `°F` (also `℃`, `℉`) and their differences `Δ°C`, `Δ°F`, `ΔK`, as identifiers.
 */
import { EngineError, where } from "./errors";

export type TokenType = "number" | "date" | "ident" | "op" | "(" | ")" | "," | "=" | "sep" | "eof";

export interface Token {
  readonly type: TokenType;
  /** The token's text; for numbers without `_`; for typographic operators the ASCII operator. */
  readonly text: string;
  /** 0-based offset of the first character. */
  readonly start: number;
  /** 0-based offset after the last character. */
  readonly end: number;
}

/** Largest absolute exponent written in a literal (the evaluator enforces the tighter value range). */
const MAX_LITERAL_EXPONENT_DIGITS = 9;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

/** Shows a character or token in a message: printable as is, anything else as U+XXXX. */
export function show(text: string): string {
  const t = text.length > 20 ? `${text.slice(0, 20)}…` : text;
  return /^[\x21-\x7e\u00a0-\uffff]+$/.test(t) && !/[\ud800-\udfff]/.test(t)
    ? `'${t}'`
    : `U+${(text.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    // blanks
    if (c === 32 || c === 9 || c === 13 || c === 0xa0 || c === 0x2009 || c === 0x202f) {
      i++;
      continue;
    }
    if (c === 10) {
      if (depth === 0) tokens.push({ type: "sep", text: "\n", start: i, end: i + 1 });
      i++;
      continue;
    }
    if (isDigit(c) && isDate(source, i)) {
      tokens.push({ type: "date", text: source.slice(i, i + 10), start: i, end: i + 10 });
      i += 10;
      continue;
    }
    if (c === 0xb0 || c === 0x2103 || c === 0x2109 || c === 0x394) {
      const t = degrees(source, i);
      if (t) {
        tokens.push(t);
        i = t.end;
        continue;
      }
    }
    if (isDigit(c) || (c === 46 && isDigit(source.charCodeAt(i + 1)))) {
      i = lexNumber(source, i, tokens);
      continue;
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < n && isIdentPart(source.charCodeAt(i))) i++;
      tokens.push({ type: "ident", text: source.slice(start, i), start, end: i });
      continue;
    }
    const start = i;
    i++;
    switch (c) {
      case 43: // +
      case 45: // -
      case 42: // *
      case 47: // /
      case 94: // ^
      case 37: // %
        tokens.push({ type: "op", text: source[start] as string, start, end: i });
        break;
      case 0xd7: // ×
      case 0x22c5: // ⋅
      case 0xb7: // · middle dot
        tokens.push({ type: "op", text: "*", start, end: i });
        break;
      case 0xb2: // ²
      case 0xb3: // ³
        tokens.push({ type: "op", text: "^", start, end: i });
        tokens.push({ type: "number", text: c === 0xb2 ? "2" : "3", start, end: i });
        break;
      case 0xf7: // ÷
        tokens.push({ type: "op", text: "/", start, end: i });
        break;
      case 0x2212: // − minus sign
        tokens.push({ type: "op", text: "-", start, end: i });
        break;
      case 0x3c0: // π
        tokens.push({ type: "ident", text: "pi", start, end: i });
        break;
      case 40:
        depth++;
        tokens.push({ type: "(", text: "(", start, end: i });
        break;
      case 41:
        if (depth > 0) depth--;
        tokens.push({ type: ")", text: ")", start, end: i });
        break;
      case 44:
        tokens.push({ type: ",", text: ",", start, end: i });
        break;
      case 61:
        tokens.push({ type: "=", text: "=", start, end: i });
        break;
      case 59:
        tokens.push({ type: "sep", text: ";", start, end: i });
        break;
      default: {
        const cp = source.codePointAt(start) ?? c;
        const ch = String.fromCodePoint(cp);
        throw new EngineError(
          "syntax",
          `Unexpected character ${show(ch)} ${where(source, start)}`,
          start,
          ch.length,
        );
      }
    }
  }
  tokens.push({ type: "eof", text: "", start: n, end: n });
  return tokens;
}

/** `YYYY-MM-DD` at i, not followed by a digit, a letter, `_` or `.` (the common number fails the first test). */
function isDate(source: string, i: number): boolean {
  if (source.charCodeAt(i + 4) !== 45 || source.charCodeAt(i + 7) !== 45) return false;
  for (const k of [1, 2, 3, 5, 6, 8, 9]) if (!isDigit(source.charCodeAt(i + k))) return false;
  const after = source.charCodeAt(i + 10);
  return !(isIdentPart(after) || after === 46) && !(i > 0 && isIdentPart(source.charCodeAt(i - 1)));
}

/** `°C`, `°F`, `℃`, `℉`, `Δ°C`, `Δ°F`, `ΔK` at i, as an identifier token with the unit's name. */
function degrees(source: string, i: number): Token | undefined {
  const delta = source.charCodeAt(i) === 0x394;
  let j = delta ? i + 1 : i;
  const c = source.charCodeAt(j);
  let name: string | undefined;
  if (c === 0x2103) name = "°C";
  else if (c === 0x2109) name = "°F";
  else if (c === 0xb0 && (source[j + 1] === "C" || source[j + 1] === "F")) {
    name = `°${source[j + 1]}`;
    j++;
  } else if (delta && source[j] === "K") name = "K";
  if (name === undefined || isIdentPart(source.charCodeAt(j + 1))) return undefined;
  return { type: "ident", text: delta ? `Δ${name}` : name, start: i, end: j + 1 };
}

/** Index after a run of digits that may contain single `_` between digits; `flags.underscore` is set if any. */
function skipDigits(source: string, i: number, flags: { underscore: boolean }): number {
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (isDigit(c)) i++;
    else if (c === 95 && isDigit(source.charCodeAt(i - 1)) && isDigit(source.charCodeAt(i + 1))) {
      flags.underscore = true;
      i++;
    } else break;
  }
  return i;
}

function lexNumber(source: string, start: number, tokens: Token[]): number {
  const n = source.length;
  const flags = { underscore: false };
  let i = skipDigits(source, start, flags);
  if (source.charCodeAt(i) === 46) i = skipDigits(source, i + 1, flags);
  const c = source.charCodeAt(i);
  if (c === 101 || c === 69) {
    // exponent only when digits follow (optionally after a sign); otherwise `e` is left for the parser
    let j = i + 1;
    const s = source.charCodeAt(j);
    if (s === 43 || s === 45) j++;
    if (isDigit(source.charCodeAt(j))) {
      const expStart = j;
      while (j < n && isDigit(source.charCodeAt(j))) j++;
      const expDigits = source.slice(expStart, j).replace(/^0+(?=\d)/, "");
      if (expDigits.length > MAX_LITERAL_EXPONENT_DIGITS) {
        throw new EngineError("overflow", `Number is out of range ${where(source, start)}`, start, j - start);
      }
      i = j;
    }
  }
  let text = source.slice(start, i);
  if (flags.underscore) text = text.replace(/_/g, "");
  const next = source.charCodeAt(i);
  if (next === 95 || next === 46) {
    throw new EngineError(
      "syntax",
      `Unexpected ${show(source[i] as string)} in a number ${where(source, i)}`,
      i,
      1,
    );
  }
  tokens.push({ type: "number", text, start, end: i });
  return i;
}
