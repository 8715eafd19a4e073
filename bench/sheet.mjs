/**
 * Sheet recompute benchmark: `node bench/sheet.mjs`
 *
 * A 500-line sheet (headings, named amounts in EUR, USD and CHF, units and durations, percentages,
 * references to earlier lines and names, subtotals and totals) is evaluated once; then, 200 times, one
 * character of a line in the middle changes (a digit of an amount), and the sheet is evaluated again
 * with the same SheetEvaluator, as the notebook does on each keystroke. Reported: the median and the
 * 95th percentile of those recomputes (main thread, Node, wall clock), and how many lines each one
 * evaluated (the edited line and the lines that read it, the rest from the cache), how many blocks of the
 * long total were added again, and the machine's load.
 */
import { cpus, loadavg } from "node:os";
import { tsImport } from "tsx/esm/api";
import { sheetLines } from "./sheet-lines.mjs";

const { SheetEvaluator, SUM_BLOCK } = await tsImport("../src/core/decimal/sheet.ts", import.meta.url);
const { ECB_SNAPSHOT } = await tsImport("../src/core/money/ecb-snapshot.ts", import.meta.url);

const lines = sheetLines();
const options = { rates: ECB_SNAPSHOT, precision: 20, rounding: "half-even" };
const evaluator = new SheetEvaluator();
let t = performance.now();
evaluator.run(lines.join("\n"), options);
const first = performance.now() - t;
const firstCount = evaluator.evaluated;

const target = lines.findIndex((l, i) => i > 240 && l.startsWith("item"));
const times = [];
const counts = [];
const blocks = [];
const cpuTimes = [];
for (let k = 0; k < 200; k++) {
  const edited = [...lines];
  edited[target] = (lines[target] ?? "").replace(
    /(\d)\.25 EUR/,
    `$1.${String(k % 100).padStart(2, "0")} EUR`,
  );
  const text = edited.join("\n");
  const cpu = process.cpuUsage();
  t = performance.now();
  evaluator.run(text, options);
  times.push(performance.now() - t);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  counts.push(evaluator.evaluated);
  blocks.push(evaluator.summedBlocks);
}
times.sort((a, b) => a - b);
counts.sort((a, b) => a - b);
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
console.log(`Sheet recompute (Node ${process.versions.node}, main thread, wall clock)`);
console.log(
  `sheet: ${lines.length} lines; first evaluation ${first.toFixed(1)} ms (${firstCount} lines evaluated)`,
);
console.log(
  `one-character edit of line ${target + 1}, 200 times: median ${pct(times, 50).toFixed(2)} ms, p95 ${pct(times, 95).toFixed(2)} ms (target: median under 16 ms)`,
);
console.log(`lines evaluated per edit: median ${pct(counts, 50)}, max ${counts.at(-1)} of ${lines.length}`);
cpuTimes.sort((a, b) => a - b);
console.log(
  `the same edits in CPU time (this process, less inflated by other processes on a loaded machine): median ${pct(cpuTimes, 50).toFixed(2)} ms`,
);
blocks.sort((a, b) => a - b);
console.log(
  `blocks of ${SUM_BLOCK} terms added again per edit (for the long total): median ${pct(blocks, 50)}, max ${blocks.at(-1)}`,
);
console.log(`load average (1 min, ${cpus().length} cores): ${loadavg()[0].toFixed(1)}`);
