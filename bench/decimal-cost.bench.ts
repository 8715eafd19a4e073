/**
 * Calibrates the engine's cost model (src/core/decimal/cost.ts) against decimal.js on this machine:
 * `npx tsx bench/decimal-cost.bench.ts [--all]`
 *
 * For each slow function, working precision and argument size it times the decimal.js call (the best
 * of several batches of CPU time, so that load from other processes, which only slows a batch down,
 * counts as little as possible) and prints it beside the model's estimate. The model must stay above every
 * measurement (ratio measured / estimate below 1, with the safety factor as the margin); a ratio above
 * 1 means the model lets a computation start that can overrun the budget.
 */
import Decimal from "decimal.js";
import { estimateFnCost } from "../src/core/decimal/cost";

const all = process.argv.includes("--all");

/** CPU milliseconds of this process (a loaded machine stretches wall time far more than CPU time). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function timeCall(fn: () => void): number {
  // calibrate the batch so that one batch takes ≥ 3 ms (or one call when a call is slower)
  let n = 1;
  for (;;) {
    const t = cpuMs();
    for (let i = 0; i < n; i++) fn();
    const ms = cpuMs() - t;
    if (ms >= 3 || n >= 4096) break;
    n *= 4;
  }
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < (all ? 7 : 4); round++) {
    const t = cpuMs();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, (cpuMs() - t) / n);
  }
  return best;
}

type Fn = "exp" | "ln" | "sqrt" | "cbrt" | "sin" | "cos" | "atan" | "asin" | "acos" | "arith" | "div";
const cases: { fn: Fn; args: string[] }[] = [
  { fn: "exp", args: ["0.7", "12.3", "853.1", "-853.1", "98765.4", "4.4e7", "2.2e9"] },
  { fn: "ln", args: ["1.0001", "0.5", "853.1", "1e-300", "9.87e123456"] },
  { fn: "sqrt", args: ["2", "853.1", "1e-300"] },
  { fn: "cbrt", args: ["2", "853.1"] },
  { fn: "sin", args: ["0.7", "3.1"] },
  { fn: "cos", args: ["0.7", "3.1"] },
  { fn: "atan", args: ["0.3", "0.99", "853.1"] },
  { fn: "asin", args: ["0.3", "0.99"] },
  { fn: "acos", args: ["0.3", "0.99"] },
  { fn: "arith", args: ["7.123"] },
  { fn: "div", args: ["7.123"] },
];
const precisions = all ? [20, 50, 100, 170, 250, 350, 500, 700, 1000, 1400, 2000] : [20, 100, 250, 500, 1000];

// warm up: the first calls of each function run cold (interpreted), which is not what is modelled
{
  const W = Decimal.clone({ precision: 60 });
  const w = new W("0.7123456789");
  for (let i = 0; i < 200; i++) {
    w.exp();
    w.ln();
    w.sqrt();
    w.cbrt();
    w.sin();
    w.cos();
    w.atan();
    w.asin();
    w.acos();
    w.times(w).plus(w).div(w);
  }
}

let worst = 0;
let worstAt = "";
console.log("fn     arg          wp   measured ms  estimate ms  measured/estimate");
for (const { fn, args } of cases) {
  for (const arg of args) {
    for (const wp of precisions) {
      const D = Decimal.clone({ precision: wp, rounding: Decimal.ROUND_HALF_EVEN, minE: -9e15, maxE: 9e15 });
      // a full-precision argument, as Ziv's loop gives it (not a short literal)
      const x = new D(arg).times(new D(1).plus(new D(1).div(7).times("1e-3")));
      const y = new D(1).div(3);
      const est = estimateFnCost(fn, wp, x.e);
      if (est > 2_000) continue; // refused by the model anyway
      let ms: number;
      try {
        ms = timeCall(() => {
          switch (fn) {
            case "exp":
              x.exp();
              break;
            case "ln":
              x.ln();
              break;
            case "sqrt":
              x.sqrt();
              break;
            case "cbrt":
              x.cbrt();
              break;
            case "sin":
              x.sin();
              break;
            case "cos":
              x.cos();
              break;
            case "atan":
              x.atan();
              break;
            case "asin":
              x.asin();
              break;
            case "acos":
              x.acos();
              break;
            case "arith":
              x.times(y).plus(y);
              break;
            case "div":
              x.div(y);
              break;
          }
        });
      } catch (err) {
        console.log(
          `${fn.padEnd(6)} ${arg.padEnd(12)} ${String(wp).padStart(4)}   ${String(err).slice(0, 50)}`,
        );
        continue;
      }
      const ratio = ms / est;
      if (ratio > worst) {
        worst = ratio;
        worstAt = `${fn}(${arg}) at ${wp}`;
      }
      console.log(
        `${fn.padEnd(6)} ${arg.padEnd(12)} ${String(wp).padStart(4)} ${ms.toFixed(4).padStart(12)} ${est.toFixed(4).padStart(12)} ${ratio.toFixed(3).padStart(10)}`,
      );
    }
  }
}
console.log(`worst measured/estimate: ${worst.toFixed(3)} (${worstAt}); the model needs this below 1`);
