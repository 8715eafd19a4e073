import type { EvalResult, Notation, Value } from "@/core/decimal";
import { cn } from "@/lib/utils";
import { valueText } from "./decimal-session";
import { Exactness } from "./exactness";
import { ExpressionErrorView } from "./expression-error";

/** The live result of the expression box: a hint while it is empty, the value, or the error. */
export function ResultView({
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
        <ExpressionErrorView error={result.error} source={source} />
      )}
    </section>
  );
}
