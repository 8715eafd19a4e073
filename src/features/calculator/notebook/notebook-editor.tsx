"use client";

import {
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
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
  const area = useRef<HTMLTextAreaElement | null>(null);
  const keepEarly = useEarlyInput(draft.text, area);
  // The textarea is uncontrolled, and after hydration it has no default value: React writes a
  // textarea's default value (its text node, the whole sheet) after every input event and render, a DOM
  // mutation as large as the sheet on each keystroke. The server renders the text as the default value;
  // on mount the value is assigned once (so later default-value writes leave it alone). Text that comes
  // from elsewhere (a link opened, a saved sheet loaded) is put in here; typed text is already there.
  const [initialText] = useState(draft.text);
  const mounted = useRef(false);
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    if (!mounted.current) {
      const typed = el.value;
      el.value = typed;
      mounted.current = true;
    } else if (el.value !== draft.text) {
      el.value = draft.text;
    }
  }, [draft.text]);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // evaluated in the keystroke's own render: after an edit only the changed lines and their readers
  // run (a few milliseconds), so the text and its results are painted in the same frame
  const text = draft.text;
  const precision = parsePrecision(draft.precisionText);
  const lastPrecision = useRef(precision ?? 20);
  if (precision !== null) lastPrecision.current = precision;
  const p = precision ?? lastPrecision.current;
  // the engine is not on the page's first load: it comes with the first sheet, focus or pointer
  const [engine, setEngine] = useState<typeof import("./sheet-run") | null>(null);
  const loadEngine = useCallback(() => {
    void import("./sheet-run").then(setEngine);
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
  const stale = !engine && text.trim() !== "";
  const rows = Math.max(lines.length, 8) + 1;
  const editorId = `${ids}-sheet`;
  const errors = results.filter((r) => r.kind === "error").length;
  // the settings and export buttons take callbacks that read the latest draft, so that typing in the
  // sheet does not render them again
  const latest = useRef({ draft, onChange, exporting: { title, text, results } as SheetExport });
  latest.current = { draft, onChange, exporting: { title, text, results } };
  const readExport = useCallback(() => latest.current.exporting, []);
  const onPrecision = useCallback(
    (precisionText: string) => latest.current.onChange({ ...latest.current.draft, precisionText }),
    [],
  );
  const onRounding = useCallback(
    (rounding: RoundingMode) => latest.current.onChange({ ...latest.current.draft, rounding }),
    [],
  );
  const grid = useRef<HTMLDivElement>(null);
  const shown = useRowWindow(grid, lines.length);

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
          <ExportMenu read={readExport} empty={text.trim() === ""} />
        </div>
      </div>
      {notice}
      {/* Left out of session replays (sentry-block): its text is masked there anyway, and recording it
          cost every keystroke a masked copy of the whole sheet and a walk of the mutated rows. */}
      <div
        ref={grid}
        className="sentry-block relative mt-3 grid grid-cols-[minmax(0,1fr)_9.5rem] overflow-hidden rounded-md border border-input bg-background sm:grid-cols-[minmax(0,1fr)_17rem]"
        data-testid="notebook"
        data-sheet-evaluated={engine ? evaluator.current?.evaluated : undefined}
      >
        <div className="relative min-w-0">
          <div
            ref={mirror}
            aria-hidden
            className="pointer-events-none absolute inset-0 overflow-hidden px-3 py-2 font-mono text-base leading-7 whitespace-pre"
          >
            <div data-mirror style={{ paddingTop: `${shown.from * ROW_REM}rem` }}>
              {chunkStarts(shown).map((from) => (
                <MirrorChunk key={from} from={from} lines={lines} results={results} />
              ))}
            </div>
          </div>
          <textarea
            ref={keepEarly}
            id={editorId}
            defaultValue={hydrated ? undefined : initialText}
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
          className={cn("min-w-0 border-l border-border bg-muted/40 py-2", stale && "opacity-80")}
          aria-busy={stale || undefined}
          style={{ paddingTop: `${0.5 + shown.from * ROW_REM}rem` }}
        >
          {chunkStarts(shown).map((from) => (
            <ResultChunk key={from} from={from} lines={lines} results={results} />
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
      <SheetSettings
        id={ids}
        precisionText={draft.precisionText}
        rounding={draft.rounding}
        onPrecision={onPrecision}
        onRounding={onRounding}
      />
    </section>
  );
}

const SheetSettings = memo(NumberSettings);

// Rows are rendered in memoized chunks of lines: after an edit the engine hands back the same result
// objects for the lines it did not evaluate again, so React compares a few chunks and renders the one
// (or the few) with a changed line or result.
const CHUNK = 32;
/** Every row is h-7: 1.75rem, the textarea's line height. */
const ROW_REM = 1.75;
/** The rows drawn before the page has measured where the sheet is (and on the server). */
const FIRST_ROWS = 3 * CHUNK;

/** The rows drawn: whole chunks, [from, to). */
interface RowWindow {
  readonly from: number;
  readonly to: number;
}

function chunkStarts({ from, to }: RowWindow): number[] {
  const starts: number[] = [];
  for (let start = from; start < to; start += CHUNK) starts.push(start);
  return starts;
}

/**
 * Only the rows near the viewport are drawn (the mirror's and the results'): the chunks in view and one
 * chunk either side. The textarea holds the whole sheet and the page scrolls it, so an edit in a long
 * sheet costs the browser a hundred rows or so, not all of them. Each drawn result row says its place in
 * the whole list (aria-posinset and aria-setsize) and the summary below counts every line.
 */
function useRowWindow(grid: RefObject<HTMLElement | null>, lineCount: number): RowWindow {
  const [shown, setShown] = useState<RowWindow>({ from: 0, to: FIRST_ROWS });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a line added or removed moves what follows it, and the page may not scroll: measured again
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const rowPx = ROW_REM * Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
      // the rows start below the grid's padding (py-2, a third of a row) and its border
      const top = el.getBoundingClientRect().top + rowPx * (0.5 / ROW_REM);
      const first = Math.floor(-top / rowPx);
      const last = Math.ceil((window.innerHeight - top) / rowPx);
      const from = Math.max(0, (Math.floor(first / CHUNK) - 1) * CHUNK);
      const to = Math.max(from + CHUNK, (Math.ceil(last / CHUNK) + 1) * CHUNK);
      setShown((now) => (now.from === from && now.to === to ? now : { from, to }));
    };
    const later = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    // capture: a scroll of any container the sheet is in
    window.addEventListener("scroll", later, { capture: true, passive: true });
    window.addEventListener("resize", later, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", later, { capture: true });
      window.removeEventListener("resize", later);
    };
  }, [grid, lineCount]);
  // lines added or removed: the window stays where it is, within the sheet
  const to = Math.min(shown.to, Math.max(CHUNK, Math.ceil(lineCount / CHUNK) * CHUNK));
  const from = Math.min(shown.from, Math.max(0, to - CHUNK));
  return from === shown.from && to === shown.to ? shown : { from, to };
}

interface ChunkProps {
  readonly from: number;
  readonly lines: readonly string[];
  readonly results: readonly LineResult[];
}

function sameChunk(a: ChunkProps, b: ChunkProps): boolean {
  if (a.from !== b.from) return false;
  for (let i = a.from; i < a.from + CHUNK; i++) {
    if (a.lines[i] !== b.lines[i] || a.results[i] !== b.results[i]) return false;
  }
  return true;
}

// Inside a chunk that changed, each line's result is memoized too: only the results that changed
// render again.
const MirrorChunk = memo(function MirrorChunk({ from, lines, results }: ChunkProps) {
  const shown = lines.slice(from, from + CHUNK);
  return (
    <div>
      {shown.map((line, k) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line is its position in the sheet
        <div key={k} className={cn("h-7", lineClass(line, results[from + k]))}>
          {line || " "}
        </div>
      ))}
    </div>
  );
}, sameChunk);

const RESULT_ROW = "flex h-7 min-w-0 items-center justify-end gap-1.5 px-2 sm:px-3";

const ResultChunk = memo(function ResultChunk({ from, lines, results }: ChunkProps) {
  return lines.slice(from, from + CHUNK).map((_, k) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a line is its position in the sheet
    <li key={k} className={RESULT_ROW} aria-posinset={from + k + 1} aria-setsize={lines.length}>
      <LineResultView result={results[from + k]} lineNo={from + k + 1} />
    </li>
  ));
}, sameChunk);

function lineClass(line: string, result: LineResult | undefined): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("#")) return "font-semibold text-foreground";
  if (trimmed.startsWith("//")) return "text-muted-foreground italic";
  if (result?.kind === "error") return "text-foreground underline decoration-destructive decoration-wavy";
  return "text-foreground";
}

/** One line's result: the value (a button that copies it) and its badge, or the error with its column. */
const LineResultView = memo(function LineResultView({
  result,
  lineNo,
}: {
  result: LineResult | undefined;
  lineNo: number;
}) {
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
      ? `leaves out ${skipped.length === 1 ? "line" : "lines"} ${skipped.join(", ")}: not what most lines it adds measure`
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
});

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(`Copied ${text}`);
  } catch {
    notify.error("Could not copy: the browser refused access to the clipboard");
  }
}
