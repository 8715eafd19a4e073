import type Decimal from "decimal.js";

export type MiniResult = { ok: true; value: string } | { ok: false; message: string };

const PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*([+\-*/×÷])\s*(-?\d+(?:\.\d+)?)\s*$/;

/** `a op b` at 20 significant digits, half-even: the home page's teaser, not the full engine. */
export function miniCompute(DecimalCtor: typeof Decimal, expression: string): MiniResult {
  const match = PATTERN.exec(expression);
  if (!match) return { ok: false, message: "Type two numbers and an operator, like 0.1 + 0.2" };
  const D = DecimalCtor.clone({ precision: 20, rounding: DecimalCtor.ROUND_HALF_EVEN });
  const [, left = "0", operator, right = "0"] = match;
  const a = new D(left);
  const b = new D(right);
  switch (operator) {
    case "+":
      return { ok: true, value: a.plus(b).toString() };
    case "-":
      return { ok: true, value: a.minus(b).toString() };
    case "*":
    case "×":
      return { ok: true, value: a.times(b).toString() };
    default:
      return b.isZero()
        ? { ok: false, message: "Division by zero" }
        : { ok: true, value: a.div(b).toString() };
  }
}
