import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { Value } from "@/core/decimal";
import type { HistoryEntry } from "./decimal-session";
import { valueText } from "./decimal-session";

/** The session's kept results (newest first), `ans` and variables; an entry click loads it back. */
export function SessionHistory({
  id,
  history,
  ans,
  variables,
  onLoad,
  onClear,
}: {
  id: string;
  history: readonly HistoryEntry[];
  ans: Value | null;
  variables: Readonly<Record<string, Value>>;
  onLoad: (source: string) => void;
  /** Absent when there is nothing to clear. */
  onClear?: () => void;
}) {
  const variableNames = Object.keys(variables);
  return (
    <section aria-labelledby={id} className="rounded-lg border border-border bg-card p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="text-sm font-semibold">
          History
        </h2>
        {onClear ? (
          <Button type="button" variant="ghost" size="sm" onClick={onClear}>
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
                onClick={() => onLoad(entry.source)}
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
  );
}
