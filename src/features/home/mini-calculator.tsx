"use client";

import { useId, useState } from "react";
import { useEarlyInput } from "@/components/ui/early-input";
import { type MiniResult, miniCompute } from "./mini-compute";

/**
 * The home page's live calculator. The first result is computed on the server (the page is
 * static); decimal.js is fetched only when the visitor starts typing, so it is not in the first
 * load.
 */
export function MiniCalculator({ initial, initialResult }: { initial: string; initialResult: MiniResult }) {
  const [expression, setExpression] = useState(initial);
  const [result, setResult] = useState(initialResult);
  const keepEarly = useEarlyInput<HTMLInputElement>(expression);
  const id = useId();

  function onChange(value: string) {
    setExpression(value);
    void import("decimal.js").then(({ default: Decimal }) => {
      setExpression((current) => {
        if (current === value) setResult(miniCompute(Decimal, value));
        return current;
      });
    });
  }

  return (
    <div className="rounded-lg border border-border bg-card p-5 shadow-sm">
      <label htmlFor={id} className="text-sm font-medium text-muted-foreground">
        Try it
      </label>
      <input
        ref={keepEarly}
        id={id}
        value={expression}
        onChange={(event) => onChange(event.target.value)}
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
