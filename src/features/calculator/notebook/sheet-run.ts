/**
 * The sheet engine as the notebook loads it: on first use, not with the page. Each run is a user-timing
 * measure, "sheet evaluation", seen in browser traces and read by bench/sheet-browser.mjs (cleared at
 * once, so that none pile up).
 */
import { SheetEvaluator as Evaluator, type LineResult, type SheetOptions } from "@/core/decimal/sheet";

const MEASURE = "sheet evaluation";

export class SheetEvaluator extends Evaluator {
  override run(sheet: string, options?: SheetOptions): LineResult[] {
    const start = performance.now();
    const results = super.run(sheet, options);
    performance.measure(MEASURE, { start });
    performance.clearMeasures(MEASURE);
    return results;
  }
}
