/**
 * The sheet engine as the notebook loads it: on first use, not with the page. Each run is a user-timing
 * measure, "sheet evaluation", seen in browser traces and read by bench/sheet-browser.mjs (cleared at
 * once, so that none pile up).
 */
import { type LineResult, SheetEvaluator, type SheetOptions } from "@/core/decimal/sheet";

export { SheetEvaluator };

const MEASURE = "sheet evaluation";

export function runSheet(evaluator: SheetEvaluator, text: string, options: SheetOptions): LineResult[] {
  const start = performance.now();
  const results = evaluator.run(text, options);
  performance.measure(MEASURE, { start });
  performance.clearMeasures(MEASURE);
  return results;
}
