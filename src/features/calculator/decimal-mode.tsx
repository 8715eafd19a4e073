"use client";

import { Check, Copy } from "lucide-react";
import { useDeferredValue, useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { useEarlyInput } from "@/components/ui/early-input";
import { Label } from "@/components/ui/input";
import { type EvalResult, evaluate, LIMITS } from "@/core/decimal";
import type { RateTable } from "@/core/money/fx";
import { SaveCalculation } from "@/features/history";
import { hasSessionValues, initialSession, readSessionLink, sessionReducer } from "./decimal-session";
import type { CalculatorDefaults } from "./defaults";
import { NumberSettings } from "./number-settings";
import { ResultView } from "./result-view";
import { SessionHistory } from "./session-history";
import { SyntaxHelp } from "./syntax-help";

/**
 * Decimal mode: an expression box evaluated on every keystroke, precision/rounding/notation settings,
 * and the session's history, `ans` and variables (decimal-session.ts), kept in memory only.
 */
export function DecimalMode({
  rates,
  defaults = null,
}: {
  rates: RateTable | null;
  defaults?: CalculatorDefaults | null;
}) {
  const ids = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [session, dispatch] = useReducer(sessionReducer, defaults, initialSession);
  const { source, precision, rounding, notation, ans, variables } = session;
  const keepEarly = useEarlyInput(source, inputRef);

  // a saved calculation re-opened from the dashboard carries its expression and settings in the link
  useEffect(() => {
    const link = readSessionLink(window.location.search);
    if (link) dispatch({ type: "open", link });
  }, []);

  const deferredSource = useDeferredValue(source);
  const result: EvalResult | null = useMemo(
    () =>
      deferredSource.trim() === ""
        ? null
        : evaluate(deferredSource, { precision, rounding, notation, ans, variables, rates }),
    [deferredSource, precision, rounding, notation, ans, variables, rates],
  );
  const stale = deferredSource !== source;

  function commit() {
    if (source.trim() === "") return;
    // evaluate the current text, not the deferred one, so that a fast Enter commits what is shown next
    const r = evaluate(source, { precision, rounding, notation, ans, variables, rates });
    if (r.ok) dispatch({ type: "keep", source, result: r });
    inputRef.current?.focus();
  }

  /** Puts text in the expression box (a history entry or an example) with the cursor at its end. */
  function load(text: string) {
    dispatch({ type: "edit", source: text });
    const el = inputRef.current;
    if (el) {
      el.focus();
      requestAnimationFrame(() => el.setSelectionRange(text.length, text.length));
    }
  }

  function clearSession() {
    if (!window.confirm("Clear the history, ans and variables of this session?")) return;
    dispatch({ type: "clear" });
    notify.info("History cleared");
  }

  const inputId = `${ids}-expression`;

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <section
        aria-labelledby={`${ids}-heading`}
        className="min-w-0 rounded-lg border border-border bg-card p-4 sm:p-6"
      >
        <h2 id={`${ids}-heading`} className="sr-only">
          Decimal calculator
        </h2>
        <div className="flex items-baseline justify-between gap-4">
          <Label htmlFor={inputId}>Expression</Label>
          <p id={`${ids}-keys`} className="hidden text-xs text-muted-foreground sm:block">
            Enter keeps the result · Shift+Enter starts a new line
          </p>
        </div>
        <textarea
          ref={keepEarly}
          id={inputId}
          value={source}
          onChange={(event) => dispatch({ type: "edit", source: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              commit();
            }
          }}
          rows={3}
          maxLength={LIMITS.maxLength}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          placeholder="Type an expression"
          aria-describedby={`${ids}-keys ${ids}-rates`}
          aria-invalid={result && !result.ok && result.error.code !== "empty" ? true : undefined}
          className="mt-2 block min-h-24 w-full resize-y rounded-md border border-input bg-background px-3 py-2 font-mono text-lg leading-7 text-foreground shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
        />

        <div className="mt-4 flex items-start gap-3">
          <ResultView
            result={result}
            ans={ans}
            stale={stale}
            source={deferredSource}
            notation={notation}
            id={`${ids}-result`}
          />
          <div className="flex shrink-0 flex-col gap-2">
            <CopyResult text={result?.ok ? result.display : null} />
            <Button
              type="button"
              size="icon"
              onClick={commit}
              disabled={!result?.ok}
              aria-label="Keep in history (=)"
              title="Keep in history (Enter)"
            >
              <span aria-hidden className="text-lg font-semibold">
                =
              </span>
            </Button>
          </div>
        </div>

        <div className="mt-3">
          <SaveCalculation
            calculation={
              result?.ok
                ? { mode: "decimal", expression: deferredSource.trim(), precision, rounding, notation }
                : null
            }
          />
        </div>

        <NumberSettings
          id={ids}
          precisionText={session.precisionText}
          rounding={rounding}
          notation={notation}
          onPrecision={(text) => dispatch({ type: "precision", text })}
          onRounding={(r) => dispatch({ type: "rounding", rounding: r })}
          onNotation={(n) => dispatch({ type: "notation", notation: n })}
        />

        <p id={`${ids}-rates`} className="mt-2 text-xs text-muted-foreground">
          {rates?.date ? (
            <>
              Money: <code className="font-mono">120 USD + 45 EUR in JPY</code>. Exchange rates: ECB euro
              reference rates of <time dateTime={rates.date}>{rates.date}</time>.
            </>
          ) : (
            "Exchange rates could not be loaded: money conversion is unavailable."
          )}
        </p>
      </section>

      <aside className="grid min-w-0 content-start gap-6">
        <SessionHistory
          id={`${ids}-history`}
          history={session.history}
          ans={ans}
          variables={variables}
          onLoad={load}
          onClear={hasSessionValues(session) ? clearSession : undefined}
        />
        <SyntaxHelp onExample={load} />
      </aside>
    </div>
  );
}

/** The result's copy button: an icon that turns into a tick for a moment, and a toast. */
function CopyResult({ text }: { text: string | null }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  async function copy() {
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      notify.success("Result copied");
    } catch {
      notify.error("Could not copy: the browser refused access to the clipboard");
    }
  }
  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      onClick={copy}
      disabled={text === null}
      aria-label="Copy result"
      title="Copy result"
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
    </Button>
  );
}
