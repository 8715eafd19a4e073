/**
 * Parser (Pratt / precedence climbing) from tokens to an AST.
 *
 * Grammar, loosest first:
 *   program    := statement ((";" | newline) statement)*
 *   statement  := name "=" conversion | conversion | (empty)
 *   conversion := sum (("in" | "to") (CODE "cash"? | "cash")     120 USD + 45 EUR in JPY; 100 CHF / 3 in cash
 *                 | "as" "%" "of" sum                           30 as % of 120
 *                 | "is" percent ("of" | "on" | "off") "what")*  36 is 20% of what
 *   sum        := sum ("+" | "-") partOf | partOf                left-associative
 *   partOf     := percent ("of" | "on" | "off") partOf | product 20% of 150, 20% off 150
 *   product    := product ("*" | "/" | "%") unary | unary        % between operands is the remainder
 *   unary      := ("-" | "+") unary | money                      -2^2 = -(2^2) = -4
 *   money      := power (CODE ("/" units)? | units)?             12.50 USD, 45 USD/h, (2 + 3) eur, 1.5 km
 *   units      := UNIT ("^" "-"? INT)? ("/" UNIT ("^" "-"? INT)?)*   km/h, m/s^2, m², EUR/kWh
 *                 (a quantity followed by another adds: 3 h 20 min; `in units` converts: 90 min in h,
 *                 50 km/h in m/s; `in CODE/units` converts a rate: 1200 USD/month in USD/day)
 *   power      := postfix ("^" unary)?                           right-associative: 2^3^2 = 2^9
 *   postfix    := primary "%"*                                   12% = 0.12
 *   primary    := number | date | name | name "(" args ")" | "(" conversion ")"
 *                 | "days" "between" sum "and" sum              days between 2026-11-25 and 2027-01-31
 *                 | "weekday" conversion                        weekday 2026-12-25 (everything after it)
 *
 * A unit name alone is one of that unit (`USD / h`), unless a variable has that name. A unit written
 * after a number takes the `/ UNIT` and `^ INT` that follow it (`1 GB / 10 MB/s` divides by a data
 * rate, `3 m^2` is three square metres), as a currency takes a rate's `/ UNIT`. Dates are
 * `YYYY-MM-DD` (lexer.ts).
 *
 * A `%` is the percent suffix when nothing that can start an operand follows it (`12%`, `12% * 3`,
 * `(1+2)%`), or when it is written right after a number and a sign follows (`50% - 10%`); otherwise it is
 * the remainder operator (`10 % 3`, `10%3`). Names are case-sensitive; currency codes are not.
 *
 * Percentages mean what people mean by them, and this is the one place that says so:
 *   a + b%  →  a × (1 + b/100)      a - b%  →  a × (1 - b/100)      (b% the whole right operand and a
 *                                                                    not itself a percentage)
 *   a * b%  →  a × b/100            b% of a  →  a × b/100
 *   b% on a →  a × (1 + b/100)      b% off a →  a × (1 - b/100)
 *   a as % of b  →  a / b, shown as a percentage
 *   a is b% of what  →  a / (b/100);  `on what` → a / (1 + b/100);  `off what` → a / (1 - b/100)
 * Between two percentages `+` and `-` stay plain (`50% - 10%` = 40%): points, not a change of a change.
 */
import { getCurrency } from "../money/currencies";
import { formatTerms, MAX_UNIT_EXPONENT, type Term } from "./dimensions";
import { EngineError, where } from "./errors";
import { show, type Token, tokenize } from "./lexer";
import { LIMITS } from "./limits";
import { unitNamed } from "./registry";

export type BinaryOp = "+" | "-" | "*" | "/" | "^" | "%";

export type Node =
  | { readonly kind: "num"; readonly text: string; readonly pos: number; readonly len: number }
  | { readonly kind: "percent"; readonly operand: Node; readonly pos: number; readonly len: number }
  | { readonly kind: "var"; readonly name: string; readonly pos: number; readonly len: number }
  | {
      readonly kind: "unary";
      readonly op: "-" | "+";
      readonly operand: Node;
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: "binary";
      readonly op: BinaryOp;
      readonly left: Node;
      readonly right: Node;
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: "call";
      readonly name: string;
      readonly args: readonly Node[];
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: "money";
      readonly amount: Node;
      readonly currency: string;
      /** A rate: so much money per one of this unit (`45 USD/h`). */
      readonly per?: string;
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: "convert";
      readonly operand: Node;
      /** null: `in cash`, the operand's own currency. */
      readonly currency: string | null;
      /** `in CHF cash`: rounded to the currency's cash increment rather than its minor unit. */
      readonly cash: boolean;
      /** `in USD/day`: a rate, shown per one of this unit. */
      readonly per?: string;
      readonly pos: number;
      readonly len: number;
    }
  /** A quantity: `1.5 km`, `20 min` (units.ts). */
  | {
      readonly kind: "unit";
      readonly amount: Node;
      readonly unit: string;
      readonly pos: number;
      readonly len: number;
    }
  /** A calendar date `2026-12-01`. */
  | { readonly kind: "date"; readonly text: string; readonly pos: number; readonly len: number }
  /** `weekday 2026-12-25`: the date, shown as its weekday. */
  | { readonly kind: "weekday"; readonly operand: Node; readonly pos: number; readonly len: number }
  /** `days between a and b`: b − a in days. */
  | {
      readonly kind: "daysBetween";
      readonly from: Node;
      readonly to: Node;
      readonly pos: number;
      readonly len: number;
    }
  /** `… in m`: a quantity shown in another unit of its dimension. */
  | {
      readonly kind: "toUnit";
      readonly operand: Node;
      readonly unit: string;
      readonly pos: number;
      readonly len: number;
    }
  /** base × (1 + sign × percent): `a + b%`, `a - b%`, `b% on a`, `b% off a`. */
  | {
      readonly kind: "percentChange";
      readonly base: Node;
      readonly percent: Node;
      readonly sign: 1 | -1;
      readonly pos: number;
      readonly len: number;
    }
  /** part / whole, shown as a percentage: `a as % of b`. */
  | {
      readonly kind: "asPercent";
      readonly part: Node;
      readonly whole: Node;
      readonly pos: number;
      readonly len: number;
    }
  /** The base a percentage was taken of: value / percent (sign 0), value / (1 ± percent) (on, off). */
  | {
      readonly kind: "percentBase";
      readonly value: Node;
      readonly percent: Node;
      readonly sign: 0 | 1 | -1;
      readonly pos: number;
      readonly len: number;
    };

export type Statement =
  | {
      readonly kind: "assign";
      readonly name: string;
      readonly expr: Node;
      readonly pos: number;
      readonly len: number;
    }
  | { readonly kind: "expr"; readonly expr: Node };

export const FUNCTIONS: Readonly<Record<string, { readonly min: number; readonly max: number }>> = {
  abs: { min: 1, max: 1 },
  sqrt: { min: 1, max: 1 },
  cbrt: { min: 1, max: 1 },
  exp: { min: 1, max: 1 },
  ln: { min: 1, max: 1 },
  log10: { min: 1, max: 1 },
  log2: { min: 1, max: 1 },
  log: { min: 1, max: 2 },
  pow: { min: 2, max: 2 },
  round: { min: 1, max: 2 },
  floor: { min: 1, max: 1 },
  ceil: { min: 1, max: 1 },
  trunc: { min: 1, max: 1 },
  min: { min: 1, max: LIMITS.maxArgs },
  max: { min: 1, max: LIMITS.maxArgs },
  sin: { min: 1, max: 1 },
  cos: { min: 1, max: 1 },
  tan: { min: 1, max: 1 },
  asin: { min: 1, max: 1 },
  acos: { min: 1, max: 1 },
  atan: { min: 1, max: 1 },
  atan2: { min: 2, max: 2 },
  sinh: { min: 1, max: 1 },
  cosh: { min: 1, max: 1 },
  tanh: { min: 1, max: 1 },
  asinh: { min: 1, max: 1 },
  acosh: { min: 1, max: 1 },
  atanh: { min: 1, max: 1 },
};

export const CONSTANTS: readonly string[] = ["pi", "e"];
/** Conversion words. */
const CONVERT_WORDS = new Set(["in", "to"]);
/** Words after a percentage: `20% of 150`. */
const PART_WORDS: ReadonlyMap<string, 0 | 1 | -1> = new Map([
  ["of", 0],
  ["on", 1],
  ["off", -1],
]);
/** Every reserved word: none of them can name a variable or be read as a currency code. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  ...CONVERT_WORDS,
  ...PART_WORDS.keys(),
  "as",
  "is",
  "between",
  "and",
]);

const BP_SUM = 10;
/** `of`, `on`, `off`: looser than `*` (20% of 2 * 75 is 20% of 150), tighter than `+`. */
const BP_PART = 15;
const BP_PRODUCT = 20;
const BP_UNARY = 30;
const BP_MONEY = 35;
const BP_POWER = 40;
const BP_PERCENT = 45;

function word(t: Token): string | undefined {
  if (t.type !== "ident") return undefined;
  const w = t.text.toLowerCase();
  return KEYWORDS.has(w) ? w : undefined;
}

function isKeyword(t: Token): boolean {
  return word(t) !== undefined;
}

/** A quantity or a sum of quantities written side by side (`3 h 20 min`). */
function endsInUnit(n: Node): boolean {
  return n.kind === "unit" || (n.kind === "binary" && n.op === "+" && endsInUnit(n.right));
}

/** `cash` after a conversion: `in CHF cash`, `in cash` (not reserved elsewhere). */
function isCash(t: Token): boolean {
  return t.type === "ident" && t.text.toLowerCase() === "cash";
}

/** A percentage, possibly signed: the operand that makes `+`, `-`, `of`, `on` and `off` percentage rules. */
function isPercentage(n: Node): boolean {
  return n.kind === "percent" || (n.kind === "unary" && isPercentage(n.operand));
}

function canStartOperand(t: Token): boolean {
  return (
    t.type === "number" ||
    t.type === "date" ||
    t.type === "(" ||
    (t.type === "ident" && !isKeyword(t)) ||
    (t.type === "op" && (t.text === "-" || t.text === "+"))
  );
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: readonly Token[],
  ) {}

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  private unexpected(t: Token): EngineError {
    if (t.type === "eof") return new EngineError("syntax", "Unexpected end of input", t.start, 1);
    if (t.type === "sep") {
      return new EngineError(
        "syntax",
        `Unexpected ${t.text === ";" ? "';'" : "end of line"} ${where(this.source, t.start)}`,
        t.start,
      );
    }
    return new EngineError(
      "syntax",
      `Unexpected ${show(t.text)} ${where(this.source, t.start)}`,
      t.start,
      t.end - t.start,
    );
  }

  private expect(type: Token["type"], what: string): Token {
    const t = this.peek();
    if (t.type !== type) {
      throw new EngineError(
        "syntax",
        `Expected ${what} ${where(this.source, t.start)}`,
        t.start,
        Math.max(1, t.end - t.start),
      );
    }
    return this.next();
  }

  program(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === "eof") break;
      if (t.type === "sep") {
        this.next();
        continue;
      }
      if (statements.length >= LIMITS.maxStatements) {
        throw new EngineError("limit", `Too many statements (at most ${LIMITS.maxStatements})`, t.start);
      }
      statements.push(this.statement());
      const after = this.peek();
      if (after.type !== "sep" && after.type !== "eof") throw this.unexpected(after);
    }
    return statements;
  }

  private statement(): Statement {
    const t = this.peek();
    if (t.type === "ident" && this.peek(1).type === "=") {
      this.next();
      this.next();
      const name = t.text;
      const span = t.end - t.start;
      if (CONSTANTS.includes(name)) {
        throw new EngineError(
          "syntax",
          `Cannot assign to the constant ${name} ${where(this.source, t.start)}`,
          t.start,
          span,
        );
      }
      if (name === "ans")
        throw new EngineError("syntax", `Cannot assign to ans ${where(this.source, t.start)}`, t.start, span);
      if (isKeyword(t)) throw this.unexpected(t);
      if (Object.hasOwn(FUNCTIONS, name)) {
        throw new EngineError(
          "syntax",
          `Cannot assign to ${name}: it is a function ${where(this.source, t.start)}`,
          t.start,
          span,
        );
      }
      const expr = this.conversion();
      return { kind: "assign", name, expr, pos: t.start, len: span };
    }
    return { kind: "expr", expr: this.conversion() };
  }

  private conversion(): Node {
    let node = this.expr(0);
    let chained = 0;
    for (;;) {
      const w = word(this.peek());
      if (w === undefined) break;
      if (!CONVERT_WORDS.has(w) && w !== "as" && w !== "is") throw this.unexpected(this.peek());
      const kw = this.next();
      this.enter(kw);
      chained++;
      if (w === "as") {
        node = this.asPercent(node, kw);
        continue;
      }
      if (w === "is") {
        node = this.percentBase(node, kw);
        continue;
      }
      const code = this.peek();
      if (isCash(code)) {
        this.next();
        node = {
          kind: "convert",
          operand: node,
          currency: null,
          cash: true,
          pos: kw.start,
          len: code.end - kw.start,
        };
        continue;
      }
      if (
        code.type === "ident" &&
        !isKeyword(code) &&
        unitNamed(code.text, code.start, code.end - code.start)
      ) {
        this.next();
        const { name, end } = this.units(code, true);
        node = { kind: "toUnit", operand: node, unit: name, pos: kw.start, len: end - kw.start };
        continue;
      }
      if (code.type !== "ident" || isKeyword(code)) {
        throw new EngineError(
          "syntax",
          `Expected a currency code after '${kw.text}' ${where(this.source, code.start)}`,
          code.start,
          Math.max(1, code.end - code.start),
        );
      }
      this.next();
      const currency = this.currency(code);
      const per = this.perUnit();
      const cash = per === undefined && isCash(this.peek());
      const end = cash ? this.next().end : (this.tokens[this.i - 1]?.end ?? code.end);
      node = {
        kind: "convert",
        operand: node,
        currency,
        cash,
        pos: kw.start,
        len: end - kw.start,
        ...(per ? { per } : {}),
      };
    }
    this.depth -= chained;
    return node;
  }

  /** `a as % of b`, after `as`. */
  private asPercent(part: Node, kw: Token): Node {
    const pct = this.peek();
    if (pct.type !== "op" || pct.text !== "%" || word(this.peek(1)) !== "of") {
      throw new EngineError(
        "syntax",
        `Expected '% of' after 'as' ${where(this.source, pct.start)}`,
        pct.start,
        Math.max(1, pct.end - pct.start),
      );
    }
    this.next();
    this.next();
    const whole = this.expr(0);
    return { kind: "asPercent", part, whole, pos: kw.start, len: kw.end - kw.start };
  }

  /** `a is b% of what` (or `on what`, `off what`), after `is`. */
  private percentBase(value: Node, kw: Token): Node {
    const start = this.peek();
    const percent = this.expr(BP_PART);
    if (!isPercentage(percent)) {
      throw new EngineError(
        "syntax",
        `Expected a percentage after 'is', as in 36 is 20% of what ${where(this.source, start.start)}`,
        start.start,
        Math.max(1, start.end - start.start),
      );
    }
    const how = this.peek();
    const sign = PART_WORDS.get(word(how) ?? "");
    const what = this.peek(1);
    if (sign === undefined || what.type !== "ident" || what.text.toLowerCase() !== "what") {
      const at = sign === undefined ? how : what;
      throw new EngineError(
        "syntax",
        `Expected 'of what', 'on what' or 'off what' ${where(this.source, at.start)}`,
        at.start,
        Math.max(1, at.end - at.start),
      );
    }
    this.next();
    this.next();
    return { kind: "percentBase", value, percent, sign, pos: kw.start, len: what.end - kw.start };
  }

  /** `/ units` after a currency code (a rate: `45 USD/h`, `0.30 EUR/kWh`), consumed; undefined when none follows. */
  private perUnit(): string | undefined {
    // a temperature too (`45 USD/°C`), for the evaluator to refuse by name
    if (!this.unitFollows(0, true)) return undefined;
    this.next();
    return this.units(this.next()).name;
  }

  /** `/ UNIT` at peek(k): a unit that can be part of a compound one (not `/ min(…)`; `/ °C` only if any). */
  private unitFollows(k: number, any = false, op = "/"): boolean {
    const slash = this.peek(k);
    const u = this.peek(k + 1);
    if (slash.type !== "op" || slash.text !== op || u.type !== "ident" || isKeyword(u)) return false;
    if (this.peek(k + 2).type === "(") return false;
    const unit = unitNamed(u.text, u.start, u.end - u.start);
    return unit !== undefined && (any || unit.exps !== undefined);
  }

  /** `^ INT` or `^ -INT` at peek(): a unit's whole power, consumed; 1 when none follows. */
  private unitPower(): number {
    const caret = this.peek();
    if (caret.type !== "op" || caret.text !== "^") return 1;
    const minus = this.peek(1).type === "op" && this.peek(1).text === "-";
    const n = this.peek(minus ? 2 : 1);
    if (n.type !== "number" || !/^\d{1,3}$/.test(n.text)) return 1;
    const e = Number(n.text);
    if (e === 0 || e > MAX_UNIT_EXPONENT) {
      throw new EngineError(
        "syntax",
        `A unit's power must be a whole number from 1 to ${MAX_UNIT_EXPONENT} ${where(this.source, n.start)}`,
        n.start,
        n.end - n.start,
      );
    }
    this.next();
    if (minus) this.next();
    this.next();
    return minus ? -e : e;
  }

  /**
   * The rest of a unit after its first name (consumed): its power and the `/ UNIT` that follow
   * (`km/h`, `m/s^2`); in a conversion's target also `* UNIT` or `· UNIT` (`in kW·h`). The name is
   * the compound unit's (formatTerms), resolved by the unit table.
   */
  private units(first: Token, target = false): { name: string; end: number } {
    const u = unitNamed(first.text, first.start, first.end - first.start);
    if (u?.exps === undefined) return { name: first.text, end: first.end };
    const terms: Term[] = [[first.text, this.unitPower()]];
    for (;;) {
      const times = target && this.unitFollows(0, false, "*");
      if ((!times && !this.unitFollows(0)) || terms.length >= 20) break;
      this.next();
      const name = this.next().text;
      const e = this.unitPower();
      terms.push([name, times ? e : -e]);
    }
    const end = (this.tokens[this.i - 1] as Token).end;
    const only = terms[0] as Term;
    return { name: terms.length === 1 && only[1] === 1 ? only[0] : formatTerms(terms), end };
  }

  /** A name after a number that is neither a unit nor a currency code: `3 parsecs`, `in furlongs`. */
  private unknownUnit(t: Token): EngineError {
    if (CONSTANTS.includes(t.text) || Object.hasOwn(FUNCTIONS, t.text)) return this.unexpected(t);
    return new EngineError(
      "unknown_unit",
      `Unknown unit ${show(t.text)} ${where(this.source, t.start)}`,
      t.start,
      t.end - t.start,
    );
  }

  private currency(t: Token): string {
    if (t.text.length !== 3 && !isKeyword(t)) throw this.unknownUnit(t);
    const c = t.text.length === 3 ? getCurrency(t.text) : undefined;
    if (!c) {
      throw new EngineError(
        "unknown_currency",
        `Unknown currency ${t.text.toUpperCase()}`,
        t.start,
        t.end - t.start,
      );
    }
    return c.code;
  }

  private enter(t: Token): void {
    if (++this.depth > LIMITS.maxDepth) {
      throw new EngineError(
        "limit",
        `Expression is nested too deeply (more than ${LIMITS.maxDepth} levels)`,
        t.start,
      );
    }
  }

  private expr(minBp: number): Node {
    this.enter(this.peek());
    let postfix = 0; // percent and currency suffixes nest too: count them towards the depth
    let left = this.nud();
    for (;;) {
      const t = this.peek();
      if (t.type === "op") {
        const op = t.text as BinaryOp;
        if (op === "%" && this.isPercent(t)) {
          if (BP_PERCENT <= minBp) break;
          this.next();
          this.enter(t);
          postfix++;
          left = { kind: "percent", operand: left, pos: t.start, len: 1 };
          continue;
        }
        const bp = op === "+" || op === "-" ? BP_SUM : op === "^" ? BP_POWER : BP_PRODUCT;
        if (bp <= minBp) break;
        this.next();
        const right = this.expr(op === "^" ? BP_POWER - 1 : bp);
        left =
          (op === "+" || op === "-") && isPercentage(right) && !isPercentage(left)
            ? {
                kind: "percentChange",
                base: left,
                percent: right,
                sign: op === "+" ? 1 : -1,
                pos: t.start,
                len: 1,
              }
            : { kind: "binary", op, left, right, pos: t.start, len: 1 };
        continue;
      }
      const part = PART_WORDS.get(word(t) ?? "");
      if (part !== undefined) {
        if (BP_PART <= minBp) break;
        if (!isPercentage(left)) {
          throw new EngineError(
            "syntax",
            `'${t.text}' needs a percentage before it, as in 20% ${t.text.toLowerCase()} 150 ${where(this.source, t.start)}`,
            t.start,
            t.end - t.start,
          );
        }
        this.next();
        const base = this.expr(BP_PART);
        const len = t.end - t.start;
        left =
          part === 0
            ? { kind: "binary", op: "*", left, right: base, pos: t.start, len }
            : { kind: "percentChange", base, percent: left, sign: part, pos: t.start, len };
        continue;
      }
      if (
        t.type === "ident" &&
        !isKeyword(t) &&
        this.peek(1).type !== "(" &&
        unitNamed(t.text, t.start, t.end - t.start)
      ) {
        if (BP_MONEY <= minBp) break;
        this.next();
        this.enter(t);
        postfix++;
        const { name, end } = this.units(t);
        left = { kind: "unit", amount: left, unit: name, pos: t.start, len: end - t.start };
        continue;
      }
      // `3 h 20 min`, `1 km 200 m`: a quantity followed by another is their sum, one compound quantity
      // (2 * 3 h 20 min is 2 × 200 min)
      if (
        t.type === "number" &&
        endsInUnit(left) &&
        this.peek(1).type === "ident" &&
        unitNamed(this.peek(1).text, this.peek(1).start, this.peek(1).end - this.peek(1).start) &&
        this.peek(2).type !== "("
      ) {
        if (BP_MONEY <= minBp) break;
        const right = this.expr(BP_UNARY);
        left = { kind: "binary", op: "+", left, right, pos: t.start, len: t.end - t.start };
        continue;
      }
      if (t.type === "ident" && !isKeyword(t) && this.peek(1).type !== "(") {
        if (t.text.length !== 3 || !/^[A-Za-z]{3}$/.test(t.text)) throw this.unknownUnit(t);
        if (BP_MONEY <= minBp) break;
        this.next();
        this.enter(t);
        postfix++;
        const currency = this.currency(t);
        const per = this.perUnit();
        left = {
          kind: "money",
          amount: left,
          currency,
          pos: t.start,
          len: (per ? (this.tokens[this.i - 1] as Token).end : t.end) - t.start,
          ...(per ? { per } : {}),
        };
        continue;
      }
      if (t.type === "number" || t.type === "date" || t.type === "(" || (t.type === "ident" && !isKeyword(t)))
        throw this.unexpected(t);
      break;
    }
    this.depth -= 1 + postfix;
    return left;
  }

  /** `days between a and b`, after `days`. */
  private daysBetween(t: Token): Node {
    this.next();
    const from = this.expr(0);
    const and = this.peek();
    if (word(and) !== "and") {
      throw new EngineError(
        "syntax",
        `Expected 'and', as in days between 2026-11-25 and 2027-01-31 ${where(this.source, and.start)}`,
        and.start,
        Math.max(1, and.end - and.start),
      );
    }
    this.next();
    const to = this.expr(0);
    return { kind: "daysBetween", from, to, pos: t.start, len: t.end - t.start };
  }

  private isPercent(t: Token): boolean {
    const after = this.peek(1);
    if (!canStartOperand(after)) return true;
    const before = this.tokens[this.i - 1];
    return (
      before !== undefined &&
      before.type === "number" &&
      before.end === t.start &&
      after.type === "op" &&
      (after.text === "-" || after.text === "+")
    );
  }

  private nud(): Node {
    const t = this.next();
    switch (t.type) {
      case "number":
        return { kind: "num", text: t.text, pos: t.start, len: t.end - t.start };
      case "date":
        return { kind: "date", text: t.text, pos: t.start, len: t.end - t.start };
      case "ident": {
        if (isKeyword(t)) throw this.unexpected(t);
        if (t.text === "days" && word(this.peek()) === "between") return this.daysBetween(t);
        if (t.text === "weekday" && canStartOperand(this.peek()) && this.peek().type !== "op") {
          const operand = this.conversion();
          return { kind: "weekday", operand, pos: t.start, len: t.end - t.start };
        }
        if (this.peek().type === "(") {
          this.next();
          const args: Node[] = [];
          if (this.peek().type !== ")") {
            for (;;) {
              if (args.length >= LIMITS.maxArgs) {
                throw new EngineError(
                  "limit",
                  `Too many arguments (at most ${LIMITS.maxArgs})`,
                  this.peek().start,
                );
              }
              args.push(this.conversion());
              if (this.peek().type === ",") {
                this.next();
                continue;
              }
              break;
            }
          }
          const close = this.peek();
          if (close.type !== ")") {
            throw new EngineError(
              "syntax",
              `Expected ',' or ')' ${where(this.source, close.start)}`,
              close.start,
              Math.max(1, close.end - close.start),
            );
          }
          this.next();
          return { kind: "call", name: t.text, args, pos: t.start, len: t.end - t.start };
        }
        if (Object.hasOwn(FUNCTIONS, t.text)) {
          const n = this.peek();
          throw new EngineError(
            "syntax",
            `Expected '(' after ${t.text} ${where(this.source, n.start)}`,
            n.start,
            Math.max(1, n.end - n.start),
          );
        }
        return { kind: "var", name: t.text, pos: t.start, len: t.end - t.start };
      }
      case "(": {
        const inner = this.conversion();
        this.expect(")", "')'");
        return inner;
      }
      case "op":
        if (t.text === "-" || t.text === "+") {
          const operand = this.expr(BP_UNARY);
          return { kind: "unary", op: t.text, operand, pos: t.start, len: 1 };
        }
        throw this.unexpected(t);
      default:
        throw this.unexpected(t);
    }
  }
}

/** Parses a program; throws EngineError on a syntax error. */
export function parse(source: string): Statement[] {
  if (source.length > LIMITS.maxLength) {
    throw new EngineError(
      "limit",
      `Expression is too long (at most ${LIMITS.maxLength} characters)`,
      LIMITS.maxLength,
    );
  }
  return new Parser(source, tokenize(source)).program();
}
