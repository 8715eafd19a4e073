/**
 * Expression engine benchmark: `npx tsx bench/decimal.bench.ts` (`--cpu` on a loaded machine)
 *
 * 1. Throughput: expressions per second over a fixed, seeded mix of 10,000 expressions (arithmetic,
 *    powers, percentages, functions, money and conversion) at 20 significant digits.
 * 2. Overhead: the same operations done by calling decimal.js directly (literals parsed from strings,
 *    the same calls, the result written out as a string) against evaluate() on the source text. The
 *    ratio is engine time / direct time; the target is at most 1.5×. (The engine computes
 *    exact rationals and correctly rounded irrationals, so it does more than the direct calls, which
 *    round after every operation; "agreement" counts where the two still give the same digits, and
 *    every disagreement is an operation-by-operation rounding artefact of the direct calls.)
 * 3. The transcendental-heavy subset: the expressions of the mix that contain sqrt or ln. (Ziv's loop
 *    computes ln and sqrt up to 160 digits with its own bigint routines, core/decimal/fastfn.ts, not
 *    decimal.js's, which is why the engine can be faster than the direct calls on this subset.)
 * 4. Huge remainders: six `1e999999 % 7`, which the unit tests check by operation count only.
 * 5. Units, rates, temperatures and dates: 2,000 seeded expressions of the kinds people type
 *    (`3 h 20 min * 45 USD/h`, `2026-12-01 + 30 days`, `20 °C in °F`), with no direct counterpart.
 */
import Decimal from "decimal.js";
import { decimalFor, evaluate } from "../src/core/decimal";
import { ECB_SNAPSHOT } from "../src/core/money/ecb-snapshot";

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type D = Decimal;
interface Expr {
  text: string;
  direct: (C: typeof Decimal) => D;
}

function num(r: () => number): Expr {
  const int = Math.floor(r() * 100_000);
  const frac = Math.floor(r() * 10_000)
    .toString()
    .padStart(4, "0");
  const text = r() < 0.3 ? String(int + 1) : `${int}.${frac}`;
  return { text, direct: (C) => new C(text) };
}

function gen(r: () => number, depth: number): Expr {
  const k = r();
  if (depth >= 3 || k < 0.25) return num(r);
  const a = gen(r, depth + 1);
  const b = gen(r, depth + 1);
  if (k < 0.4) return { text: `(${a.text} + ${b.text})`, direct: (C) => a.direct(C).plus(b.direct(C)) };
  if (k < 0.5) return { text: `(${a.text} - ${b.text})`, direct: (C) => a.direct(C).minus(b.direct(C)) };
  if (k < 0.65) return { text: `(${a.text} * ${b.text})`, direct: (C) => a.direct(C).times(b.direct(C)) };
  if (k < 0.75)
    return { text: `(${a.text} / (${b.text} + 1))`, direct: (C) => a.direct(C).div(b.direct(C).plus(1)) };
  if (k < 0.8) {
    const n = 2 + Math.floor(r() * 3);
    return { text: `(${a.text}) ^ ${n}`, direct: (C) => a.direct(C).pow(n) };
  }
  if (k < 0.85) return { text: `sqrt(abs(${a.text}))`, direct: (C) => a.direct(C).abs().sqrt() };
  if (k < 0.9) return { text: `round(${a.text}, 2)`, direct: (C) => a.direct(C).toDecimalPlaces(2) };
  if (k < 0.93) return { text: `max(${a.text}, ${b.text})`, direct: (C) => C.max(a.direct(C), b.direct(C)) };
  if (k < 0.96)
    return { text: `(${a.text} * 7.5%)`, direct: (C) => a.direct(C).times(new C("7.5").div(100)) };
  return { text: `ln(abs(${a.text}) + 1)`, direct: (C) => a.direct(C).abs().plus(1).ln() };
}

const r = rng(20261122);
const mix: Expr[] = Array.from({ length: 10_000 }, () => gen(r, 0));
const transcendental = mix.filter((e) => /sqrt|ln/.test(e.text));
const moneyMix = Array.from(
  { length: 2_000 },
  (_, i) => `${(i * 37) % 10_000}.${i % 100} USD + ${i % 500} EUR in JPY`,
);

const quantityMix = Array.from({ length: 2_000 }, (_, i) => {
  const a = (i * 37) % 1000;
  const b = (i * 11) % 60;
  switch (i % 6) {
    case 0:
      return `${a % 12} h ${b} min * ${a / 10} USD/h`;
    case 1:
      return `${a * 10} USD/month in USD/day`;
    case 2:
      return `2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")} + ${a} days`;
    case 3:
      return `days between 2026-11-25 and 20${27 + (i % 70)}-01-31`;
    case 4:
      return `${a - 270}.5 °C in °F`;
    default:
      return `${a} GB / 3 in MiB`;
  }
});

/**
 * `--cpu`: time with this process's CPU time instead of the wall clock. On a machine shared with other
 * work (load average far above the cores), wall-clock rounds are stretched unevenly and even the best of
 * 15 is noise; CPU time is what the process itself spent (it includes V8's GC threads, so on an idle
 * machine it reads a little above wall time).
 */
const useCpu = process.argv.includes("--cpu");
const clock = useCpu
  ? () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();

/**
 * Times several functions in interleaved rounds and keeps each one's fastest round, so that load from
 * other processes (which only ever slows a round down) affects the figures and the ratio as little as
 * possible.
 */
function timeInterleaved(fns: Record<string, () => void>, rounds = 15): Record<string, number> {
  const best: Record<string, number> = {};
  for (const fn of Object.values(fns)) fn(); // warm up
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t = clock();
      fn();
      const ms = clock() - t;
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms);
    }
  }
  return best;
}

/** A loaded machine can push one expression past the 40 ms budget; the budget is not what is measured. */
const NO_BUDGET = { timeLimitMs: 10_000 } as const;
let sink = 0;
const SIX_REMAINDERS = Array.from({ length: 6 }, () => "1e999999 % 7").join("; ");
const C = decimalFor(20, "half-up");
const times = timeInterleaved({
  engine: () => {
    for (const e of mix) {
      const res = evaluate(e.text, NO_BUDGET);
      if (res.ok) sink += res.display.length;
    }
  },
  direct: () => {
    for (const e of mix) {
      const v = e.direct(C).toSD(20);
      sink += v.toFixed().length;
    }
  },
  engineTranscendental: () => {
    for (const e of transcendental) {
      const res = evaluate(e.text, NO_BUDGET);
      if (res.ok) sink += res.display.length;
    }
  },
  directTranscendental: () => {
    for (const e of transcendental) {
      const v = e.direct(C).toSD(20);
      sink += v.toFixed().length;
    }
  },
  // remainders of huge operands are computed without the quotient (10^k mod m by modular powers)
  remainders: () => {
    const res = evaluate(SIX_REMAINDERS);
    if (res.ok) sink += res.display.length;
  },
  quantities: () => {
    for (const m of quantityMix) {
      const res = evaluate(m, NO_BUDGET);
      if (res.ok) sink += res.display.length;
    }
  },
  money: () => {
    for (const m of moneyMix) {
      const res = evaluate(m, { rates: ECB_SNAPSHOT, ...NO_BUDGET });
      if (res.ok) sink += res.display.length;
    }
  },
});
const engineMs = times.engine ?? 0;
const directMs = times.direct ?? 0;
const moneyMs = times.money ?? 0;

// agreement check: the engine and the direct calls give the same numbers
let disagree = 0;
for (const e of mix.slice(0, 2000)) {
  const res = evaluate(e.text, NO_BUDGET);
  const d = e.direct(C).toSD(20);
  if (!res.ok || !new Decimal(res.value.value).eq(d)) disagree++;
}

const avgLen = mix.reduce((a, e) => a + e.text.length, 0) / mix.length;
console.log(
  `Abacus expression engine benchmark (Node ${process.versions.node}, ${useCpu ? "CPU time" : "wall clock"})`,
);
console.log(
  `mix: 10,000 seeded expressions, ${avgLen.toFixed(1)} characters on average, 20 significant digits`,
);
console.log(
  `engine:        ${engineMs.toFixed(1)} ms per pass (best of 15) → ${Math.round(10_000 / (engineMs / 1000)).toLocaleString("en-US")} expressions/s`,
);
console.log(
  `direct calls:  ${directMs.toFixed(1)} ms per pass (best of 15) → ${Math.round(10_000 / (directMs / 1000)).toLocaleString("en-US")} expressions/s`,
);
console.log(`overhead:      ${(engineMs / directMs).toFixed(2)}× (target ≤ 1.5×)`);
console.log(
  `money mix:     2,000 "a USD + b EUR in JPY" in ${moneyMs.toFixed(1)} ms → ${Math.round(2_000 / (moneyMs / 1000)).toLocaleString("en-US")} expressions/s`,
);
const quantitiesMs = times.quantities ?? 0;
console.log(
  `quantity mix:  2,000 units, rates, dates, temperatures in ${quantitiesMs.toFixed(1)} ms → ${Math.round(2_000 / (quantitiesMs / 1000)).toLocaleString("en-US")} expressions/s`,
);
const tEngine = times.engineTranscendental ?? 0;
const tDirect = times.directTranscendental ?? 0;
console.log(
  `transcendental subset (${transcendental.length.toLocaleString("en-US")} with sqrt or ln): engine ${tEngine.toFixed(1)} ms, direct ${tDirect.toFixed(1)} ms → ${(tEngine / tDirect).toFixed(2)}×`,
);
console.log(
  `huge remainders: six "1e999999 % 7" in ${(times.remainders ?? 0).toFixed(2)} ms (best of 15; the time budget is 40 ms)`,
);
console.log(`agreement:     ${2000 - disagree}/2000 results identical to direct decimal.js`);
if (sink === 42) console.log("");
