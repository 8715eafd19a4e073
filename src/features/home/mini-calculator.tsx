"use client";

import Decimal from "decimal.js";
import { useId, useState } from "react";

const D = Decimal.clone({ precision: 20, rounding: Decimal.ROUND_HALF_EVEN });
const PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*([+\-*/×÷])\s*(-?\d+(?:\.\d+)?)\s*$/;

function compute(expression: string): { ok: true; value: string } | { ok: false; message: string } {
  const match = PATTERN.exec(expression);
  if (!match) return { ok: false, message: "Type two numbers and an operator, like 0.1 + 0.2" };
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

/** The home page's live calculator: decimal arithmetic at 20 significant digits. */
export function MiniCalculator() {
  const [expression, setExpression] = useState("0.1 + 0.2");
  const id = useId();
  const result = compute(expression);
  return (
    <div className="rounded-lg border border-border bg-card p-5 shadow-sm">
      <label htmlFor={id} className="text-sm font-medium text-muted-foreground">
        Try it
      </label>
      <input
        id={id}
        value={expression}
        onChange={(event) => setExpression(event.target.value)}
        spellCheck={false}
        autoComplete="off"
        className="mt-2 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-lg tabular focus-visible:outline-2 focus-visible:outline-ring"
      />
      <output
        htmlFor={id}
        aria-live="polite"
        className="mt-3 flex min-h-9 items-baseline gap-2 font-mono text-2xl tabular"
        data-testid="mini-result"
      >
        {result.ok ? (
          <>
            <span className="text-muted-foreground">=</span>
            <span className="break-all">{result.value}</span>
          </>
        ) : (
          <span className="font-sans text-sm text-muted-foreground">{result.message}</span>
        )}
      </output>
      <p className="mt-2 text-xs text-muted-foreground">
        A spreadsheet or JavaScript says 0.30000000000000004. Abacus computes in decimal.
      </p>
    </div>
  );
}
