"use client";

import { Check, Copy, Trash2 } from "lucide-react";
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { RoundingSelect } from "@/components/money/rounding-select";
import { Button } from "@/components/ui/button";
import { useEarlyInput } from "@/components/ui/early-input";
import { Input, Label } from "@/components/ui/input";
import {
  type EvalResult,
  type EvalSuccess,
  type ExpressionError,
  evaluate,
  LIMITS,
  type Notation,
  ROUNDING_MODES,
  type RoundingMode,
  type Value,
} from "@/core/decimal";
import type { RateTable } from "@/core/money/fx";
import { SaveCalculation } from "@/features/history";
import { cn } from "@/lib/utils";
import { Segmented } from "./controls";
import type { CalculatorDefaults } from "./defaults";
import { SyntaxHelp } from "./syntax-help";

/** The engine's default rounding mode (decimal.js's): half up. */
const DEFAULT_ROUNDING: RoundingMode = "half-up";
const MAX_HISTORY = 100;

interface HistoryEntry {
  readonly id: number;
  readonly source: string;
  readonly display: string;
  readonly value: Value;
}

function valueText(v: Value): string {
  return v.kind === "money" ? `${v.value} ${v.currency}` : v.value;
}

/**
 * Decimal mode: an expression box evaluated on every keystroke, precision/rounding/notation settings,
 * and the session's history, `ans` and variables, kept in memory only (a reload forgets them).
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
  const [source, setSource] = useState("");
  const keepEarly = useEarlyInput(source, inputRef);
  const startPrecision = defaults?.precision ?? LIMITS.defaultPrecision;
  const [precisionText, setPrecisionText] = useState(String(startPrecision));
  const [precision, setPrecision] = useState<number>(startPrecision);
  const [rounding, setRounding] = useState<RoundingMode>(defaults?.roundingMode ?? DEFAULT_ROUNDING);
  const [notation, setNotation] = useState<Notation>("plain");
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [ans, setAns] = useState<Value | null>(null);
  const [variables, setVariables] = useState<Record<string, Value>>({});
  const [copied, setCopied] = useState(false);
  const nextId = useRef(1);

  // A saved calculation re-opened from the dashboard: /calculator?mode=decimal&expr=…&precision=…&rounding=…
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const expr = params.get("expr");
    if (!expr) return;
    setSource(expr.slice(0, 10_000));
    const p = Number(params.get("precision"));
    if (Number.isInteger(p) && p >= LIMITS.minPrecision && p <= LIMITS.maxPrecision) {
      setPrecision(p);
      setPrecisionText(String(p));
    }
    const r = params.get("rounding");
    if (r && (ROUNDING_MODES as readonly string[]).includes(r)) setRounding(r as RoundingMode);
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

  const precisionError =
    /^\d{1,4}$/.test(precisionText.trim()) &&
    Number(precisionText) >= LIMITS.minPrecision &&
    Number(precisionText) <= LIMITS.maxPrecision
      ? undefined
      : `Enter a whole number from ${LIMITS.minPrecision} to ${LIMITS.maxPrecision}`;

  function onPrecision(text: string) {
    setPrecisionText(text);
    const n = Number(text);
    if (/^\d{1,4}$/.test(text.trim()) && n >= LIMITS.minPrecision && n <= LIMITS.maxPrecision) {
      setPrecision(n);
    }
  }

  function commit() {
    if (source.trim() === "") return;
    // evaluate the current text, not the deferred one, so that a fast Enter commits what is shown next
    const r = evaluate(source, { precision, rounding, notation, ans, variables, rates });
    if (!r.ok) {
      inputRef.current?.focus();
      return;
    }
    const entry: HistoryEntry = { id: nextId.current++, source, display: r.display, value: r.value };
    setHistory((h) => [entry, ...h].slice(0, MAX_HISTORY));
    setAns(r.value);
    setVariables({ ...r.variables });
    setSource("");
    inputRef.current?.focus();
  }

  /** Puts text in the expression box (a history entry or an example) with the cursor at its end. */
  function load(text: string) {
    setSource(text);
    const el = inputRef.current;
    if (el) {
      el.focus();
      requestAnimationFrame(() => el.setSelectionRange(text.length, text.length));
    }
  }

  function clearSession() {
    if (!window.confirm("Clear the history, ans and variables of this session?")) return;
    setHistory([]);
    setAns(null);
    setVariables({});
    notify.info("History cleared");
  }

  async function copy() {
    if (!result?.ok) return;
    try {
      await navigator.clipboard.writeText(result.display);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
      notify.success("Result copied");
    } catch {
      notify.error("Could not copy: the browser refused access to the clipboard");
    }
  }

  const variableNames = Object.keys(variables);
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
          onChange={(event) => setSource(event.target.value)}
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
            <Button
              type="button"
              variant="outline"
              size="icon"
              onClick={copy}
              disabled={!result?.ok}
              aria-label="Copy result"
              title="Copy result"
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            </Button>
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
                ? {
                    mode: "decimal",
                    expression: deferredSource.trim(),
                    precision,
                    rounding,
                    notation,
                  }
                : null
            }
          />
        </div>

        <div className="mt-6 grid grid-cols-[minmax(0,1fr)_auto] gap-4 sm:grid-cols-[8rem_minmax(0,1fr)_auto]">
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-precision`}>Precision</Label>
            <Input
              id={`${ids}-precision`}
              type="number"
              inputMode="numeric"
              min={LIMITS.minPrecision}
              max={LIMITS.maxPrecision}
              step={1}
              value={precisionText}
              onChange={(event) => onPrecision(event.target.value)}
              aria-invalid={precisionError ? true : undefined}
              aria-describedby={`${ids}-precision-hint`}
              className="tabular"
            />
          </div>
          <div className="order-1 col-span-2 grid min-w-0 gap-2 sm:order-none sm:col-span-1">
            <Label htmlFor={`${ids}-rounding`}>Rounding</Label>
            <RoundingSelect id={`${ids}-rounding`} value={rounding} onValueChange={setRounding} />
          </div>
          <Segmented
            legend="Notation"
            name={`${ids}-notation`}
            value={notation}
            onChange={setNotation}
            options={[
              { value: "plain", label: "Plain" },
              { value: "scientific", label: "Scientific" },
            ]}
          />
          <p
            id={`${ids}-precision-hint`}
            className={cn(
              "order-2 col-span-2 min-h-5 text-xs sm:order-none sm:col-span-3",
              precisionError ? "text-destructive" : "text-muted-foreground",
            )}
            aria-live="polite"
          >
            {precisionError ??
              "Significant digits, from 1 to 1000. The exact result is rounded once, to them."}
          </p>
        </div>

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
        <section aria-labelledby={`${ids}-history`} className="rounded-lg border border-border bg-card p-4">
          <div className="flex items-center justify-between gap-2">
            <h2 id={`${ids}-history`} className="text-sm font-semibold">
              History
            </h2>
            {history.length > 0 || ans || variableNames.length > 0 ? (
              <Button type="button" variant="ghost" size="sm" onClick={clearSession}>
                <Trash2 aria-hidden />
                Clear
              </Button>
            ) : null}
          </div>
          {history.length === 0 ? (
            <p className="mt-3 text-sm text-muted-foreground">
              Nothing yet. Press Enter or <span aria-hidden>“=”</span>
              <span className="sr-only">the keep button</span> to keep a result here; click an entry to use it
              again. It lasts until you leave the page.
            </p>
          ) : (
            <ol className="mt-3 grid max-h-96 gap-1 overflow-y-auto" aria-label="Previous calculations">
              {history.map((entry) => (
                <li key={entry.id}>
                  <button
                    type="button"
                    onClick={() => load(entry.source)}
                    className="group grid w-full gap-0.5 rounded-md px-2 py-1.5 text-left font-mono text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <span className="truncate whitespace-pre text-muted-foreground">
                      {entry.source.replace(/\n/g, " ⏎ ")}
                    </span>
                    <span className="break-all tabular">
                      <span aria-hidden className="text-muted-foreground">
                        ={" "}
                      </span>
                      <span className="sr-only">equals </span>
                      {entry.display}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          )}
          {ans || variableNames.length > 0 ? (
            <dl
              className="mt-3 grid gap-1 border-t border-border pt-3 font-mono text-xs"
              aria-label="Session values"
            >
              {ans ? (
                <div className="flex gap-2">
                  <dt className="text-muted-foreground">ans</dt>
                  <dd className="break-all tabular">{valueText(ans)}</dd>
                </div>
              ) : null}
              {variableNames.map((name) => {
                const v = variables[name];
                return v ? (
                  <div key={name} className="flex gap-2">
                    <dt className="text-muted-foreground">{name}</dt>
                    <dd className="break-all tabular">{valueText(v)}</dd>
                  </div>
                ) : null;
              })}
            </dl>
          ) : null}
        </section>
        <SyntaxHelp onExample={load} />
      </aside>
    </div>
  );
}

function ResultView({
  result,
  ans,
  stale,
  source,
  notation,
  id,
}: {
  result: EvalResult | null;
  ans: Value | null;
  stale: boolean;
  source: string;
  notation: Notation;
  id: string;
}) {
  return (
    <section
      id={id}
      aria-label="Result"
      aria-live="polite"
      aria-busy={stale || undefined}
      className={cn(
        "min-h-28 min-w-0 flex-1 rounded-md border border-border bg-muted/40 px-4 py-3",
        stale && "opacity-80",
      )}
    >
      {result === null ? (
        <p className="text-sm text-muted-foreground">
          {ans ? (
            <>
              <span className="font-mono">ans</span> ={" "}
              <span className="font-mono tabular text-foreground">{valueText(ans)}</span>. Type an expression;
              it can use <span className="font-mono">ans</span>.
            </>
          ) : (
            <>
              Type an expression, for example <span className="font-mono">0.1 + 0.2</span>. The result updates
              as you type.
            </>
          )}
        </p>
      ) : result.ok ? (
        <div className="grid gap-1">
          <p className="flex items-baseline gap-2 font-mono text-2xl">
            <span aria-hidden className="text-muted-foreground">
              {result.exact ? "=" : "≈"}
            </span>
            <span data-testid="result-value" className="min-w-0 break-all tabular">
              {result.money ? (
                <>
                  {result.money.amount}{" "}
                  {/* a long amount wraps between digits or before its code, never inside the code */}
                  <span className="whitespace-nowrap">{result.money.currency}</span>
                </>
              ) : (
                result.display
              )}
            </span>
          </p>
          <Exactness result={result} />
          {result.money && !result.exact ? (
            <p className="grid gap-0.5 text-xs text-muted-foreground">
              <span>Before rounding:</span>
              {/* on its own line, so a long value wraps only where the line ends */}
              <span data-testid="result-exact" className="break-all font-mono tabular text-foreground">
                {result.fullExact ? "" : "≈ "}
                {result.full} {/* the line may break before the code, never inside it */}
                <span className="whitespace-nowrap">{result.money.currency}</span>
              </span>
            </p>
          ) : null}
          {!result.money && !result.exact && notation === "plain" && /e[+-]/.test(result.display) ? (
            <p className="text-xs text-muted-foreground" data-testid="result-scientific-why">
              In scientific notation: written out in full, the digits beyond the precision would be made-up
              zeros. Raise the precision to see more of them.
            </p>
          ) : null}
        </div>
      ) : (
        <ErrorView error={result.error} source={source} />
      )}
    </section>
  );
}

/**
 * Says, with one badge, whether the shown result is the exact value, and shows a repeating decimal's
 * cycle. A money result is either exact or rounded once to its currency's minor units.
 */
function Exactness({ result }: { result: EvalSuccess }) {
  const rep = result.money ? undefined : result.repeating;
  return (
    <p
      className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs text-muted-foreground"
      data-testid="result-exactness"
    >
      <span
        className={cn(
          "rounded-sm border px-1.5 py-0.5 font-medium",
          result.exact ? "border-success/40 text-success" : "border-border text-foreground",
        )}
      >
        {result.exact ? "Exact" : "Rounded"}
      </span>
      {result.bound ? (
        <span>Could not be told apart from zero: the value is {result.bound}.</span>
      ) : rep ? (
        <span>
          Exactly{" "}
          <span className="font-mono tabular text-foreground" data-testid="result-repeating">
            {rep.sign}
            {rep.int}.{rep.pre}
            <span className="overline" title={`${rep.cycle} repeats`}>
              {rep.cycle}
            </span>
          </span>
          <span className="sr-only"> with {rep.cycle} repeating</span>
        </span>
      ) : result.exact ? (
        <span>This is the exact value.</span>
      ) : result.money ? (
        <span>The exact value, rounded once to {result.money.currency}'s minor units.</span>
      ) : (
        <span>The exact value, rounded once to the precision.</span>
      )}
    </p>
  );
}

/** How many characters of the offending line to show on each side of the error. */
const CONTEXT = 36;

function ErrorView({ error, source }: { error: ExpressionError; source: string }) {
  if (error.code === "empty") return <p className="text-sm text-muted-foreground">{error.message}</p>;
  const lines = source.split("\n");
  const line = (lines[error.line - 1] ?? "").replace(/\t/g, " ");
  const at = Math.max(0, error.column - 1);
  const start = at > CONTEXT ? at - CONTEXT : 0;
  const end = Math.min(line.length, at + Math.max(error.length, 1) + CONTEXT);
  const shown = `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
  const caretAt = at - start + (start > 0 ? 1 : 0);
  const caretLength = Math.max(1, Math.min(error.length, end - at));
  const where = lines.length > 1 ? `line ${error.line}, column ${error.column}` : `column ${error.column}`;
  const named = /column \d+/.test(error.message);
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium text-destructive" data-testid="result-error">
        {error.message}
        {named ? (lines.length > 1 ? ` (line ${error.line})` : "") : ` (${where})`}
      </p>
      {line.trim() !== "" ? (
        <pre aria-hidden className="overflow-x-auto font-mono text-sm leading-5">
          <span className="text-foreground">{shown}</span>
          {"\n"}
          <span className="font-bold text-destructive" data-testid="error-caret">
            {" ".repeat(caretAt)}
            {"^".repeat(caretLength)}
          </span>
        </pre>
      ) : null}
    </div>
  );
}
