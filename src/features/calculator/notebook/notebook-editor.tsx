"use client";

import {
  memo,
  type ReactNode,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { notify } from "@/components/hooks/notify";
import { useEarlyInput } from "@/components/ui/early-input";
import { parsePrecision } from "@/core/decimal/limits";
import type { LineResult, SheetEvaluator } from "@/core/decimal/sheet";
import type { RateTable } from "@/core/money/fx";
import type { RoundingMode } from "@/core/rounding";
import { cn } from "@/lib/utils";
import { ExactBadge } from "../exactness";
import { NumberSettings } from "../number-settings";
import type { SheetExport } from "./export-menu";
import { ExportMenu } from "./export-menu";

/** What a notebook edits: its text and its one precision and rounding. */
export interface SheetDraft {
  readonly text: string;
  readonly precisionText: string;
  readonly rounding: RoundingMode;
}

export const EXAMPLE_SHEET = [
  "# Budget",
  "rent = 1,250 EUR",
  "food = 420 EUR // groceries",
  "transport = 86.40 EUR",
  "subtotal",
  "",
  "# Savings",
  "rent * 10%",
  "total in USD",
].join("\n");

/**
 * The notebook: a sheet typed on the left, each line's result on the right on the same row.
 * The text is drawn twice: by the textarea (transparent, it takes the typing) and by a mirror behind it
 * that styles headings, comments and errors. Only lines whose text or inputs changed are evaluated
 * again (the engine's SheetEvaluator keeps the others).
 */
export function NotebookEditor({
  draft,
  onChange,
  rates,
  title,
  toolbar,
  notice,
}: {
  draft: SheetDraft;
  onChange: (draft: SheetDraft) => void;
  rates: RateTable | null;
  /** For export file names and the Markdown heading. */
  title: string;
  toolbar?: ReactNode;
  notice?: ReactNode;
}) {
  const ids = useId();
  const evaluator = useRef<SheetEvaluator | null>(null);
  const mirror = useRef<HTMLDivElement>(null);
  // text typed before hydration is taken up as typing; until then the textarea draws its own text
  const keepEarly = useEarlyInput(draft.text);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const text = useDeferredValue(draft.text);
  const precision = parsePrecision(draft.precisionText);
  const lastPrecision = useRef(precision ?? 20);
  if (precision !== null) lastPrecision.current = precision;
  const p = precision ?? lastPrecision.current;
  // the engine is not on the page's first load: it comes with the first sheet, focus or pointer
  const [engine, setEngine] = useState<typeof import("@/core/decimal/sheet") | null>(null);
  const loadEngine = useCallback(() => {
    void import("@/core/decimal/sheet").then(setEngine);
  }, []);
  useEffect(() => {
    if (text.trim() !== "") loadEngine();
  }, [text, loadEngine]);
  const results: readonly LineResult[] = useMemo(() => {
    if (!engine) return [];
    evaluator.current ??= new engine.SheetEvaluator();
    return evaluator.current.run(text, { precision: p, rounding: draft.rounding, rates });
  }, [engine, text, p, draft.rounding, rates]);
  const lines = draft.text.split("\n");
  const stale = text !== draft.text || (!engine && text.trim() !== "");
  const rows = Math.max(lines.length, 8) + 1;
  const editorId = `${ids}-sheet`;
  const errors = results.filter((r) => r.kind === "error").length;
  const exporting: SheetExport = { title, text, results };

  return (
    <section
      aria-labelledby={`${ids}-heading`}
      className="min-w-0 rounded-lg border border-border bg-card p-3 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${ids}-heading`} className="sr-only">
          Notebook
        </h2>
        <label htmlFor={editorId} className="text-sm font-medium">
          Sheet
          <span className="ml-2 hidden font-normal text-muted-foreground sm:inline">
            {"one calculation per line · # heading · // comment · name = value · total"}
          </span>
        </label>
        <div className="flex flex-wrap items-center gap-2">
          {toolbar}
          <ExportMenu sheet={exporting} />
        </div>
      </div>
      {notice}
      <div
        className="relative mt-3 grid grid-cols-[minmax(0,1fr)_9.5rem] overflow-hidden rounded-md border border-input bg-background sm:grid-cols-[minmax(0,1fr)_17rem]"
        data-testid="notebook"
        data-sheet-evaluated={engine ? evaluator.current?.evaluated : undefined}
      >
        <div className="relative min-w-0">
          <div
            ref={mirror}
            aria-hidden
            className="pointer-events-none absolute inset-0 overflow-hidden px-3 py-2 font-mono text-base leading-7 whitespace-pre"
          >
            <div data-mirror>
              {lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a line is its position in the sheet
                <MirrorLine key={i} line={line} className={lineClass(line, results[i])} />
              ))}
            </div>
          </div>
          <textarea
            ref={keepEarly}
            id={editorId}
            value={draft.text}
            onChange={(event) => onChange({ ...draft, text: event.target.value })}
            onFocus={loadEngine}
            onPointerEnter={loadEngine}
            onScroll={(event) => {
              const inner = mirror.current?.firstElementChild as HTMLElement | null;
              if (inner) inner.style.transform = `translateX(${-event.currentTarget.scrollLeft}px)`;
            }}
            rows={rows}
            wrap="off"
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={EXAMPLE_SHEET}
            aria-describedby={`${ids}-summary`}
            style={{ height: `calc(${rows} * 1.75rem + 1rem)` }}
            className={cn(
              "relative block w-full resize-none overflow-y-hidden bg-transparent px-3 py-2 font-mono text-base leading-7 caret-foreground placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring selection:bg-primary/25 selection:text-transparent",
              hydrated ? "text-transparent" : "text-foreground",
            )}
          />
        </div>
        <ol
          aria-label="Results"
          className={cn("min-w-0 border-l border-border bg-muted/40 py-2", !engine && stale && "opacity-80")}
          aria-busy={stale || undefined}
        >
          {lines.map((_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a line is its position in the sheet
            <ResultRow key={i} result={results[i]} lineNo={i + 1} />
          ))}
        </ol>
      </div>
      <p id={`${ids}-summary`} className="mt-2 min-h-5 text-xs text-muted-foreground" aria-live="polite">
        {lines.length} {lines.length === 1 ? "line" : "lines"}
        {errors > 0 ? ` · ${errors} ${errors === 1 ? "line has an error" : "lines have errors"}` : ""}
        {" · "}Money: <code className="font-mono">120 USD in EUR</code>
        {rates?.date ? (
          <>
            {" "}
            (ECB rates of <time dateTime={rates.date}>{rates.date}</time>)
          </>
        ) : (
          " is unavailable: the exchange rates could not be loaded"
        )}
      </p>
      <NumberSettings
        id={ids}
        precisionText={draft.precisionText}
        rounding={draft.rounding}
        onPrecision={(precisionText) => onChange({ ...draft, precisionText })}
        onRounding={(rounding) => onChange({ ...draft, rounding })}
      />
    </section>
  );
}

// Rows are memoized: after an edit the engine hands back the same result objects for the lines it did
// not evaluate again, so only the changed rows render (a 500-line sheet stays responsive).
const MirrorLine = memo(function MirrorLine({ line, className }: { line: string; className: string }) {
  return <div className={cn("h-7", className)}>{line || " "}</div>;
});

const ResultRow = memo(function ResultRow({
  result,
  lineNo,
}: {
  result: LineResult | undefined;
  lineNo: number;
}) {
  return (
    <li className="flex h-7 min-w-0 items-center justify-end gap-1.5 px-2 sm:px-3">
      <LineResultView result={result} lineNo={lineNo} />
    </li>
  );
});

function lineClass(line: string, result: LineResult | undefined): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("#")) return "font-semibold text-foreground";
  if (trimmed.startsWith("//")) return "text-muted-foreground italic";
  if (result?.kind === "error") return "text-foreground underline decoration-destructive decoration-wavy";
  return "text-foreground";
}

/** One line's result: the value (a button that copies it) and its badge, or the error with its column. */
function LineResultView({ result, lineNo }: { result: LineResult | undefined; lineNo: number }) {
  if (!result) return null;
  if (result.kind === "heading") return <span className="h-px w-6 bg-border" aria-hidden />;
  if (result.kind === "error") {
    const { column, message } = result.error;
    return (
      <span
        className="truncate text-xs text-destructive"
        title={`Line ${lineNo}, column ${column}: ${message}`}
        data-testid={`line-${lineNo}-error`}
      >
        <span className="sr-only">Line {lineNo}: </span>col {column}: {message}
      </span>
    );
  }
  if (result.kind !== "value") return null;
  const { display, exact } = result.result;
  const skipped = result.skipped ?? [];
  const leftOut =
    skipped.length > 0
      ? `leaves out ${skipped.length === 1 ? "line" : "lines"} ${skipped.join(", ")}: plain ${skipped.length === 1 ? "number" : "numbers"} beside amounts`
      : "";
  return (
    <>
      {leftOut ? (
        <span
          className="shrink-0 text-xs text-muted-foreground"
          title={`This ${leftOut}`}
          data-testid={`line-${lineNo}-skipped`}
        >
          <span aria-hidden>−{skipped.length}</span>
          <span className="sr-only">{leftOut}</span>
        </span>
      ) : null}
      <button
        type="button"
        className="min-w-0 truncate rounded-sm font-mono text-sm tabular text-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
        title={`${display}${leftOut ? ` (${leftOut})` : ""} (click to copy)`}
        aria-label={`Line ${lineNo}: ${display}, ${exact ? "exact" : "rounded"}. Copy`}
        data-testid={`line-${lineNo}-result`}
        onClick={() => copy(display)}
      >
        {result.name ? <span className="hidden text-muted-foreground sm:inline">{result.name} </span> : null}
        {display}
      </button>
      <ExactBadge exact={exact} className="hidden shrink-0 text-[0.65rem] sm:inline" />
      <span
        aria-hidden
        title={exact ? "Exact" : "Rounded"}
        className="shrink-0 text-xs text-muted-foreground sm:hidden"
      >
        {exact ? "=" : "≈"}
      </span>
    </>
  );
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(`Copied ${text}`);
  } catch {
    notify.error("Could not copy: the browser refused access to the clipboard");
  }
}
