import { describe, expect, it } from "vitest";
import { type EvalSuccess, evaluate, LIMITS, parsePrecision } from "@/core/decimal";
import {
  type DecimalSession,
  hasSessionValues,
  initialSession,
  MAX_HISTORY,
  precisionProblem,
  readSessionLink,
  type SessionAction,
  sessionReducer,
} from "./decimal-session";

function run(state: DecimalSession, ...actions: SessionAction[]): DecimalSession {
  return actions.reduce(sessionReducer, state);
}

function success(source: string, state: DecimalSession): EvalSuccess {
  const r = evaluate(source, { precision: state.precision, ans: state.ans, variables: state.variables });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

function keep(state: DecimalSession, source: string): DecimalSession {
  return sessionReducer(state, { type: "keep", source, result: success(source, state) });
}

describe("the decimal mode's session", () => {
  it("starts from the organization's defaults, or the engine's", () => {
    expect(initialSession()).toMatchObject({
      precision: LIMITS.defaultPrecision,
      precisionText: String(LIMITS.defaultPrecision),
      rounding: "half-up",
      notation: "plain",
      history: [],
      ans: null,
    });
    expect(
      initialSession({ defaultCurrency: "CHF", roundingMode: "half-even", precision: 34 }),
    ).toMatchObject({ precision: 34, precisionText: "34", rounding: "half-even" });
  });

  it("keeps the last valid precision while the field holds something else, and says what is wrong", () => {
    let s = run(initialSession(), { type: "precision", text: "" });
    expect(s).toMatchObject({ precisionText: "", precision: 20 });
    expect(precisionProblem(s.precisionText)).toBe("Enter a whole number from 1 to 1000");
    s = run(s, { type: "precision", text: "3" }, { type: "precision", text: "35" });
    expect(s).toMatchObject({ precisionText: "35", precision: 35 });
    expect(precisionProblem("35")).toBeUndefined();
    for (const bad of ["0", "1001", "12.5", "1e2", "-3", "+3", "0x10", "12a", "99999"]) {
      expect(run(s, { type: "precision", text: bad }).precision, bad).toBe(35);
      expect(precisionProblem(bad), bad).toBeDefined();
    }
    expect(run(s, { type: "precision", text: " 1000 " }).precision).toBe(1000);
  });

  it("keeps a result: history newest first, ans, variables, and an empty box", () => {
    let s = run(initialSession(), { type: "edit", source: "x = 10 / 4" });
    s = keep(s, s.source);
    expect(s.source).toBe("");
    expect(s.ans).toMatchObject({ kind: "number", value: "2.5" });
    expect(s.variables.x).toMatchObject({ value: "2.5" });
    s = keep(s, "ans * x");
    expect(s.history.map((e) => [e.source, e.display])).toEqual([
      ["ans * x", "6.25"],
      ["x = 10 / 4", "2.5"],
    ]);
    expect(new Set(s.history.map((e) => e.id)).size).toBe(2);
    expect(hasSessionValues(s)).toBe(true);
  });

  it("ignores a blank keep and caps the history", () => {
    const s = initialSession();
    expect(sessionReducer(s, { type: "keep", source: "  ", result: success("1", s) })).toBe(s);
    let t = s;
    for (let i = 0; i < MAX_HISTORY + 5; i++) t = keep(t, String(i));
    expect(t.history).toHaveLength(MAX_HISTORY);
    expect(t.history[0]?.source).toBe(String(MAX_HISTORY + 4));
  });

  it("clears history, ans and variables, but not the settings or the box", () => {
    let s = keep(run(initialSession(), { type: "precision", text: "30" }), "y = 2");
    s = run(s, { type: "edit", source: "y + 1" }, { type: "clear" });
    expect(s).toMatchObject({ history: [], ans: null, variables: {}, precision: 30, source: "y + 1" });
    expect(hasSessionValues(s)).toBe(false);
  });

  it("opens a saved calculation's link, ignoring a wrong precision or rounding", () => {
    expect(readSessionLink("?mode=decimal")).toBeNull();
    const link = readSessionLink("?mode=decimal&expr=1%2F3&precision=40&rounding=down");
    expect(link).toEqual({ expression: "1/3", precision: 40, rounding: "down" });
    const s = run(initialSession(), { type: "open", link: link ?? { expression: "" } });
    expect(s).toMatchObject({ source: "1/3", precision: 40, precisionText: "40", rounding: "down" });
    expect(readSessionLink("?expr=2&precision=5000&rounding=sideways")).toEqual({ expression: "2" });
    expect(readSessionLink("?expr=2&precision=1e2")).toEqual({ expression: "2" });
    expect(readSessionLink(`?expr=${"9".repeat(LIMITS.maxLength + 50)}`)?.expression).toHaveLength(
      LIMITS.maxLength,
    );
  });
});

describe("precision as text, parsed in one place", () => {
  it.each([
    ["1", 1],
    ["20", 20],
    ["1000", 1000],
    [" 7 ", 7],
    ["0", null],
    ["1001", null],
    ["", null],
    ["2.0", null],
    ["1e3", null],
    ["-1", null],
    ["Infinity", null],
  ] as const)("%j → %s", (text, expected) => {
    expect(parsePrecision(text)).toBe(expected);
  });
});
