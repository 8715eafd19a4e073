/**
 * Fuzz: 100,000 seeded random inputs (token soup and random characters, with random options) must each
 * come back as a value or an error, never a throw, with a well-formed error position, and each with
 * bounded work. The work is counted, not timed (speed is measured in bench/): every evaluation runs on
 * a clock that is the cost model's estimate of the work started so far, so the time budget refuses
 * exactly where the model says, on any machine, and the test checks that no evaluation started more
 * estimated work than its budget and that the operations stay within a bound of the input's length.
 */
import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { type EvaluateOptions, evaluate, LIMITS, type Meter, ROUNDING_MODES } from "./index";

/** mulberry32: a small seeded PRNG, so every run sees the same inputs. */
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

const VOCAB = [
  "0",
  "1",
  "2",
  "7",
  "10",
  "0.5",
  "1.5",
  "3.14159",
  "1_000",
  "1_000.50",
  "1e-7",
  "2.5E+3",
  "1e308",
  "1e999999",
  "9".repeat(40),
  "0.000001",
  ".5",
  "5.",
  "12%",
  "%",
  "+",
  "-",
  "*",
  "/",
  "^",
  "(",
  ")",
  ",",
  "=",
  ";",
  "\n",
  " ",
  "pi",
  "e",
  "ans",
  "x",
  "rate",
  "foo",
  "abs(",
  "sqrt(",
  "cbrt(",
  "exp(",
  "ln(",
  "log10(",
  "log2(",
  "log(",
  "pow(",
  "round(",
  "floor(",
  "ceil(",
  "trunc(",
  "min(",
  "max(",
  "sin(",
  "cos(",
  "tan(",
  "asin(",
  "acos(",
  "atan(",
  "atan2(",
  "sinh(",
  "cosh(",
  "tanh(",
  "asinh(",
  "acosh(",
  "atanh(",
  "USD",
  "EUR",
  "JPY",
  "BHD",
  "usd",
  "XYZ",
  "in",
  "to",
  "x =",
  "rate = 7.5%",
  "_",
  ".",
  "e5",
  "E",
  "×",
  "÷",
  "−",
  "π",
  "$",
  "#",
  "1e1000000",
  "10^",
  "^1e6",
  "^0.5",
  "^-1",
  "99999999",
  "-0",
  "0^0",
  "1/0",
  "%%",
  // units, compound units and their powers
  "km",
  "h",
  "m",
  "s",
  "kWh",
  "kW",
  "°C",
  "Δ°C",
  "MB/s",
  "km/h",
  "m/s^2",
  "²",
  "³",
  "·",
  "^-2",
  "in m/s",
  "in kW·h",
  "USD/h",
  "EUR/kWh",
] as const;

const CHARS =
  "0123456789+-*/^%().,=;_ \n\teEpiUSDJPYinto$#@!~`'\"\\{}[]<>|&?:×÷−π\u0000\u00a0\u2028\ud83d\ude00\ud800";

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)] as T;
}

const FUNCS1 = [
  "abs",
  "sqrt",
  "cbrt",
  "exp",
  "ln",
  "log10",
  "log2",
  "floor",
  "ceil",
  "trunc",
  "sin",
  "cos",
  "tan",
];
const FUNCS1B = ["asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "round", "log"];
const FUNCS2 = ["log", "pow", "round", "min", "max", "atan2"];

/** A random expression that follows the grammar (its value may still be an error: ln(-1), 1/0, …). */
function expression(r: () => number, depth: number): string {
  const k = r();
  if (depth > 5 || k < 0.3) {
    const n = r();
    if (n < 0.5) return String(Math.floor(r() * 1000));
    if (n < 0.8) return `${Math.floor(r() * 100)}.${Math.floor(r() * 1000)}`;
    if (n < 0.9) return `${Math.floor(r() * 10)}e${Math.floor(r() * 40) - 20}`;
    return pick(r, ["pi", "e", "x", "ans", "12%"]);
  }
  if (k < 0.55)
    return `${expression(r, depth + 1)} ${pick(r, ["+", "-", "*", "/", "^", "%"])} ${expression(r, depth + 1)}`;
  if (k < 0.65) return `(${expression(r, depth + 1)})`;
  if (k < 0.7) return `-${expression(r, depth + 1)}`;
  if (k < 0.8) return `${pick(r, [...FUNCS1, ...FUNCS1B])}(${expression(r, depth + 1)})`;
  if (k < 0.88) return `${pick(r, FUNCS2)}(${expression(r, depth + 1)}, ${expression(r, depth + 1)})`;
  if (k < 0.95) return `${expression(r, depth + 1)} ${pick(r, ["USD", "EUR", "JPY", "BHD", "GBP"])}`;
  return `${expression(r, depth + 1)} USD in ${pick(r, ["JPY", "EUR", "CHF", "KWD"])}`;
}

function input(r: () => number): string {
  const kind = r();
  if (kind < 0.3) return expression(r, 0);
  if (kind < 0.7) {
    const n = 1 + Math.floor(r() * (r() < 0.05 ? 400 : 14));
    let s = "";
    for (let i = 0; i < n; i++) s += pick(r, VOCAB) + (r() < 0.3 ? " " : "");
    return s;
  }
  if (kind < 0.98) {
    const n = Math.floor(r() * 40);
    let s = "";
    for (let i = 0; i < n; i++) s += CHARS[Math.floor(r() * CHARS.length)];
    return s;
  }
  // long inputs near and above the length cap
  const unit = pick(r, ["1+", "(", "-", "2^", "sqrt(", "1%", "1 USD in EUR ", "x=1;"]);
  return unit.repeat(Math.floor((r() * 10_500) / unit.length));
}

function options(r: () => number): EvaluateOptions {
  const p = r();
  return {
    precision: p < 0.9 ? 20 : p < 0.97 ? 1 + Math.floor(r() * 100) : 1 + Math.floor(r() * 1000),
    rounding: pick(r, ROUNDING_MODES),
    notation: r() < 0.5 ? "plain" : "scientific",
    rates: r() < 0.8 ? ECB_SNAPSHOT : null,
    ans:
      r() < 0.5
        ? { kind: "number", value: "42.5" }
        : r() < 0.5
          ? { kind: "money", value: "10", currency: "USD" }
          : null,
    variables: r() < 0.5 ? { x: { kind: "number", value: "3" } } : {},
  };
}

/** Operations per input character allowed (nodes, Ziv steps and slow calls all count one). */
const OPS_PER_CHARACTER = 8;

describe("fuzz", () => {
  it("returns a value or an error for 100,000 random inputs, each with bounded work", {
    timeout: 240_000,
  }, () => {
    const r = rng(0xabac05);
    let maxEstimate = 0;
    let costliest = "";
    let maxOpsPerChar = 0;
    let busiest = "";
    let oks = 0;
    const codes = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const src = input(r);
      const meter: Meter = { ops: 0, estimatedMs: 0 };
      const opts = { ...options(r), meter, clock: () => meter.estimatedMs };
      let res: ReturnType<typeof evaluate>;
      try {
        res = evaluate(src, opts);
      } catch (err) {
        throw new Error(`evaluate threw for ${JSON.stringify(src.slice(0, 200))}: ${String(err)}`);
      }
      if (meter.estimatedMs > maxEstimate) {
        maxEstimate = meter.estimatedMs;
        costliest = `${JSON.stringify(src.slice(0, 120))} at ${opts.precision} digits`;
      }
      const perChar = meter.ops / Math.max(src.length, 1);
      if (perChar > maxOpsPerChar) {
        maxOpsPerChar = perChar;
        busiest = `${JSON.stringify(src.slice(0, 120))}: ${meter.ops} operations`;
      }
      if (res.ok) {
        oks++;
        expect(typeof res.display).toBe("string");
      } else {
        const e = res.error;
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
        if (e.code === "internal")
          throw new Error(`internal error for ${JSON.stringify(src.slice(0, 200))}: ${e.message}`);
        expect(e.message.length).toBeGreaterThan(0);
        expect(e.line).toBeGreaterThanOrEqual(1);
        expect(e.column).toBeGreaterThanOrEqual(1);
        expect(e.offset).toBeLessThanOrEqual(src.length);
      }
    }
    console.info(
      `fuzz: ${oks} values, errors ${JSON.stringify(Object.fromEntries(codes))}, costliest ${maxEstimate.toFixed(2)} estimated ms: ${costliest}; most operations per character ${maxOpsPerChar.toFixed(2)}: ${busiest}`,
    );
    expect(oks).toBeGreaterThan(1_000);
    // no evaluation started more work than the budget allows (the clock is the estimate itself)
    expect(maxEstimate).toBeLessThanOrEqual(LIMITS.timeLimitMs);
    // and the operations grow at most linearly with the input
    expect(maxOpsPerChar).toBeLessThanOrEqual(OPS_PER_CHARACTER);
  });
});
