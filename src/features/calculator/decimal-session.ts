// limits and rounding by their own modules: the notebook imports this file before the engine loads
import type { EvalSuccess, Notation, Value } from "@/core/decimal";
import { LIMITS, PRECISION_RULE, parsePrecision } from "@/core/decimal/limits";
import { isRoundingMode, type RoundingMode } from "@/core/rounding";
import type { CalculatorDefaults } from "./defaults";

/** The engine's default rounding mode (decimal.js's): half up. */
export const DEFAULT_ROUNDING: RoundingMode = "half-up";
/** Most results kept in a session's history; older ones drop off the end. */
export const MAX_HISTORY = 100;

export interface HistoryEntry {
  readonly id: number;
  readonly source: string;
  readonly display: string;
  readonly value: Value;
}

/**
 * The decimal mode's session: the expression being typed, the settings, and what Enter kept (history,
 * `ans`, variables). It lives in memory only, so a reload forgets it.
 */
export interface DecimalSession {
  readonly source: string;
  /** The precision field as typed, which may be unfinished or wrong ("", "0", "12a"). */
  readonly precisionText: string;
  /** The precision evaluation uses: the last valid one typed, so a half-typed field keeps results. */
  readonly precision: number;
  readonly rounding: RoundingMode;
  readonly notation: Notation;
  /** Newest first. */
  readonly history: readonly HistoryEntry[];
  readonly ans: Value | null;
  readonly variables: Readonly<Record<string, Value>>;
  readonly nextId: number;
}

export type SessionAction =
  | { readonly type: "edit"; readonly source: string }
  | { readonly type: "precision"; readonly text: string }
  | { readonly type: "rounding"; readonly rounding: RoundingMode }
  | { readonly type: "notation"; readonly notation: Notation }
  /** Enter on a successful result: `result` is the evaluation of `source` as it is now. */
  | { readonly type: "keep"; readonly source: string; readonly result: EvalSuccess }
  | { readonly type: "clear" }
  /** A saved calculation re-opened from its link. */
  | { readonly type: "open"; readonly link: SessionLink };

export function initialSession(defaults: CalculatorDefaults | null = null): DecimalSession {
  const precision = defaults?.precision ?? LIMITS.defaultPrecision;
  return {
    source: "",
    precisionText: String(precision),
    precision,
    rounding: defaults?.roundingMode ?? DEFAULT_ROUNDING,
    notation: "plain",
    history: [],
    ans: null,
    variables: {},
    nextId: 1,
  };
}

export function sessionReducer(state: DecimalSession, action: SessionAction): DecimalSession {
  switch (action.type) {
    case "edit":
      return { ...state, source: action.source };
    case "precision": {
      const p = parsePrecision(action.text);
      return { ...state, precisionText: action.text, precision: p ?? state.precision };
    }
    case "rounding":
      return { ...state, rounding: action.rounding };
    case "notation":
      return { ...state, notation: action.notation };
    case "keep": {
      const { source, result } = action;
      if (source.trim() === "") return state;
      const entry: HistoryEntry = { id: state.nextId, source, display: result.display, value: result.value };
      return {
        ...state,
        source: "",
        history: [entry, ...state.history].slice(0, MAX_HISTORY),
        ans: result.value,
        variables: { ...result.variables },
        nextId: state.nextId + 1,
      };
    }
    case "clear":
      return { ...state, history: [], ans: null, variables: {} };
    case "open": {
      const { expression, precision, rounding } = action.link;
      return {
        ...state,
        source: expression,
        ...(precision === undefined ? {} : { precision, precisionText: String(precision) }),
        ...(rounding === undefined ? {} : { rounding }),
      };
    }
  }
}

/** The precision field's complaint, or undefined when what is typed is a precision. */
export function precisionProblem(text: string): string | undefined {
  return parsePrecision(text) === null ? `Enter ${PRECISION_RULE}` : undefined;
}

/** Whether there is anything for "Clear" to clear. */
export function hasSessionValues(state: DecimalSession): boolean {
  return state.history.length > 0 || state.ans !== null || Object.keys(state.variables).length > 0;
}

/** A value as one line of text: "12.5" or "12.50 USD". */
export function valueText(v: Value): string {
  return v.kind === "money" ? `${v.value} ${v.currency}` : v.value;
}

/** What a saved calculation's link carries: /calculator?mode=decimal&expr=…&precision=…&rounding=… */
export interface SessionLink {
  readonly expression: string;
  readonly precision?: number;
  readonly rounding?: RoundingMode;
}

/**
 * Reads a saved calculation's link. A wrong precision or rounding is ignored (the session's own stays),
 * not refused: the expression is what the person came for.
 */
export function readSessionLink(search: string): SessionLink | null {
  const params = new URLSearchParams(search);
  const expr = params.get("expr");
  if (!expr) return null;
  const precision = parsePrecision(params.get("precision") ?? "");
  const rounding = params.get("rounding");
  return {
    expression: expr.slice(0, LIMITS.maxLength),
    ...(precision === null ? {} : { precision }),
    ...(rounding && isRoundingMode(rounding) ? { rounding } : {}),
  };
}
