import type { EvalSuccess } from "@/core/decimal";
import { cn } from "@/lib/utils";

/**
 * Says, with one badge, whether the shown result is the exact value, and shows a repeating decimal's
 * cycle. A money result is either exact or rounded once to its currency's minor units.
 */
export function Exactness({ result }: { result: EvalSuccess }) {
  const rep = result.money ? undefined : result.repeating;
  return (
    <p
      className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs text-muted-foreground"
      data-testid="result-exactness"
    >
      <ExactBadge exact={result.exact} />
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
      ) : result.money?.cash ? (
        <span>
          The exact value, rounded once to {result.money.currency}'s cash increment, {result.money.cash}.
        </span>
      ) : result.money ? (
        <span>The exact value, rounded once to {result.money.currency}'s minor units.</span>
      ) : (
        <span>The exact value, rounded once to the precision.</span>
      )}
    </p>
  );
}

/** "Exact" or "Rounded": whether a shown result equals the value. */
export function ExactBadge({ exact, className }: { exact: boolean; className?: string }) {
  return (
    <span
      className={cn(
        "rounded-sm border px-1.5 py-0.5 font-medium",
        exact ? "border-success/40 text-success" : "border-border text-foreground",
        className,
      )}
    >
      {exact ? "Exact" : "Rounded"}
    </span>
  );
}
