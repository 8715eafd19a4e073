/** Errors of the expression engine: returned to callers as values, thrown only inside the engine. */

export type EvalErrorCode =
  /** Nothing to evaluate (empty or only blanks). */
  | "empty"
  /** The text does not follow the grammar. */
  | "syntax"
  | "unknown_function"
  | "unknown_variable"
  | "unknown_currency"
  /** A name after a number, or after `in`, that is neither a unit nor a currency code. */
  | "unknown_unit"
  | "division_by_zero"
  /** A function or operator outside its domain: sqrt(-1), ln(0), asin(2), (-8)^(1/3). */
  | "domain"
  /** A number or result beyond the exponent range. */
  | "overflow"
  /** Money where a number is needed, or currencies that cannot be combined. */
  | "type"
  /** A function called with the wrong number of arguments. */
  | "arity"
  /** A conversion without exchange rates, or a currency missing from them. */
  | "no_rate"
  /** A bound was reached: input length, nesting, statements, precision of a slow function, time. */
  | "limit"
  /** Units or dates are needed and not loaded yet (the lazy entry before `prepare`): try again. */
  | "loading"
  /** An option (precision, rounding, notation, variables, ans) is invalid. */
  | "invalid_option"
  /** A bug: please report it. */
  | "internal";

export interface ExpressionError {
  readonly code: EvalErrorCode;
  /** A sentence naming what and where: "Unexpected ')' at column 7", "Division by zero". */
  readonly message: string;
  /** 1-based line of the error in the source. */
  readonly line: number;
  /** 1-based column of the error within its line (for a caret under the input). */
  readonly column: number;
  /** 0-based index of the error's first character in the source. */
  readonly offset: number;
  /** Number of characters the error covers (at least 1). */
  readonly length: number;
}

/** Internal exception carrying an error code and a source span; converted to ExpressionError at the API edge. */
export class EngineError extends Error {
  constructor(
    readonly code: EvalErrorCode,
    message: string,
    readonly offset: number,
    readonly length = 1,
  ) {
    super(message);
  }
}

/** 1-based line and column of a 0-based offset. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** "at column 7" for one-line sources, "at line 2, column 7" otherwise. */
export function where(source: string, offset: number): string {
  const { line, column } = lineColumn(source, offset);
  return source.includes("\n") ? `at line ${line}, column ${column}` : `at column ${column}`;
}
