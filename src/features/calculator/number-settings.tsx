import { RoundingSelect } from "@/components/money/rounding-select";
import { Input, Label } from "@/components/ui/input";
import type { Notation } from "@/core/decimal";
import { LIMITS } from "@/core/decimal/limits";
import type { RoundingMode } from "@/core/rounding";
import { cn } from "@/lib/utils";
import { Segmented } from "./controls";
import { precisionProblem } from "./decimal-session";

/** Precision (as typed, with its complaint), rounding mode and notation of the decimal mode. */
export function NumberSettings({
  id,
  precisionText,
  rounding,
  notation,
  onPrecision,
  onRounding,
  onNotation,
}: {
  id: string;
  precisionText: string;
  rounding: RoundingMode;
  /** Without it (a sheet), no notation choice. */
  notation?: Notation;
  onPrecision: (text: string) => void;
  onRounding: (rounding: RoundingMode) => void;
  onNotation?: (notation: Notation) => void;
}) {
  const problem = precisionProblem(precisionText);
  return (
    <div className="mt-6 grid grid-cols-[minmax(0,1fr)_auto] gap-4 sm:grid-cols-[8rem_minmax(0,1fr)_auto]">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-precision`}>Precision</Label>
        <Input
          id={`${id}-precision`}
          type="number"
          inputMode="numeric"
          min={LIMITS.minPrecision}
          max={LIMITS.maxPrecision}
          step={1}
          value={precisionText}
          onChange={(event) => onPrecision(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-precision-hint`}
          className="tabular"
        />
      </div>
      <div className="order-1 col-span-2 grid min-w-0 gap-2 sm:order-none sm:col-span-1">
        <Label htmlFor={`${id}-rounding`}>Rounding</Label>
        <RoundingSelect id={`${id}-rounding`} value={rounding} onValueChange={onRounding} />
      </div>
      {notation && onNotation ? (
        <Segmented
          legend="Notation"
          name={`${id}-notation`}
          value={notation}
          onChange={onNotation}
          options={[
            { value: "plain", label: "Plain" },
            { value: "scientific", label: "Scientific" },
          ]}
        />
      ) : (
        <span />
      )}
      <p
        id={`${id}-precision-hint`}
        className={cn(
          "order-2 col-span-2 min-h-5 text-xs sm:order-none sm:col-span-3",
          problem ? "text-destructive" : "text-muted-foreground",
        )}
        aria-live="polite"
      >
        {problem ??
          `Significant digits, from ${LIMITS.minPrecision} to ${LIMITS.maxPrecision}. The exact result is rounded once, to them.`}
      </p>
    </div>
  );
}
