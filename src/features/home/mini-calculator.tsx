"use client";

import Link from "next/link";
import { useId, useRef, useState } from "react";
import { useEarlyInput } from "@/components/ui/early-input";
import type { RateTable } from "@/core/money/fx";
import { calculatorHref, type MiniResult, toMiniResult } from "./mini-compute";

// The calculator's engine (with decimal.js) is fetched at the first keystroke, so it is not in the
// home page's first load; the unit table and the calendar only when an expression may need them
// (`prepare`, as in the calculator); the exchange rates only when an expression converts money.
let engine: Promise<typeof import("@/core/decimal/lazy")> | null = null;
const loadEngine = () => {
  engine ??= import("@/core/decimal/lazy");
  return engine;
};
let rates: Promise<RateTable | null> | null = null;
const loadRates = () => {
  rates ??= fetch("/api/v1/rates")
    .then((r) => (r.ok ? (r.json() as Promise<RateTable>) : null))
    .catch(() => null);
  return rates;
};

/**
 * The home page's live calculator: any expression the calculator takes, computed by the same engine
 * with the calculator's default precision and rounding. The first result is computed on the server
 * (the page is static).
 */
export function MiniCalculator({ initial, initialResult }: { initial: string; initialResult: MiniResult }) {
  const [expression, setExpression] = useState(initial);
  const [result, setResult] = useState(initialResult);
  const latest = useRef(initial);
  const keepEarly = useEarlyInput<HTMLInputElement>(expression);
  const id = useId();

  async function compute(value: string) {
    const { evaluate, prepare } = await loadEngine();
    const extensions = prepare(value);
    if (extensions) await extensions;
    let outcome = evaluate(value);
    if (!outcome.ok && outcome.error.code === "no_rate") {
      const table = await loadRates();
      if (table) outcome = evaluate(value, { rates: table });
    }
    // Only the newest text's result is shown (the rates may arrive after a later keystroke).
    if (latest.current === value) setResult(toMiniResult(outcome));
  }

  function onChange(value: string) {
    setExpression(value);
    latest.current = value;
    if (value.trim() === "") {
      setResult({ ok: false, message: "Type an expression, like 1/3*3 or 120 USD + 45 EUR in JPY" });
      return;
    }
    void compute(value);
  }

  return (
    <div className="min-w-0 rounded-lg border border-border bg-card p-5 shadow-sm">
      <label htmlFor={id} className="text-sm font-medium text-muted-foreground">
        Try it
      </label>
      <input
        ref={keepEarly}
        id={id}
        value={expression}
        onChange={(event) => onChange(event.target.value)}
        maxLength={500}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
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
            <span className="text-muted-foreground">{result.exact ? "=" : "≈"}</span>
            <span className="min-w-0 break-all">{result.value}</span>
          </>
        ) : (
          <span className="font-sans text-sm text-muted-foreground">{result.message}</span>
        )}
      </output>
      <p className="mt-2 text-xs text-muted-foreground">
        A spreadsheet or JavaScript says 0.30000000000000004. Abacus computes in decimal: try{" "}
        <code className="font-mono">1/3*3</code> or <code className="font-mono">120 USD + 45 EUR in JPY</code>
        .
      </p>
      <p className="mt-2 text-sm">
        <Link
          href={calculatorHref(expression)}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Open in the calculator
        </Link>
      </p>
    </div>
  );
}
