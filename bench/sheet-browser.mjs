#!/usr/bin/env node
/**
 * Sheet recompute in the browser:
 *   node bench/sheet-browser.mjs --base http://127.0.0.1:3311 [--edits 41] [--trace file [--profile]]
 *
 * Opens the signed-out notebook (/calculator) in the system Chromium, fills it with the 500-line sheet
 * of bench/sheet.mjs (headings, named amounts in EUR, USD and CHF, units and durations, percentages,
 * references by name and number, prev, subtotals, a total), waits for every result, then makes
 * one-character edits with real key presses: each replaces one digit of an amount in the middle of the
 * sheet (the caret selects the digit and is painted, then one key types the new one). Measured per
 * edit, on the page's clock, three figures:
 * - the recalculation: SheetEvaluator.run (the notebook's "sheet evaluation" user-timing measure);
 * - keydown to the new results in the page: from the keydown event's time stamp to the moment the
 *   edited line's result row shows its new value and the notebook is no longer busy (the textarea's
 *   edit, the recalculation, React's render and commit). The issue's target, a median under 16 ms, is
 *   read on this figure;
 * - keydown to results painted: the above, then the wait for the display's next frame (up to 16.7 ms
 *   at 60 Hz, whatever the page does) and that frame (requestAnimationFrame, then a task).
 * The evaluation runs on the main thread (no worker). Also reported: how many lines the engine evaluated
 * (the edited line and its readers), and the machine's load average before and after.
 *
 * Each edit is also split, by time stamps on the page's clock, into: the input delay (the keydown queued
 * before its first handler runs), the keyboard events and the textarea's own edit, React's input handler
 * with its render and commit, the sheet's evaluation (the notebook's "sheet evaluation" user-timing
 * measure), the wait for the next frame, and that frame (requestAnimationFrame, style, layout, paint).
 * `--trace file` records the edits in a Chrome trace (which slows them) and reports the main thread's CPU
 * time per edit from it (thread time: what the edit cost, not the time other processes took on a loaded
 * machine); `--profile` adds V8's sampling profile to the trace.
 *
 * Needs a running production build with its database (see the README), e.g.
 *   PORT=3311 node scripts/db/run-with-db.mjs --data .test-data/bench-sheet --fresh --migrate --seed node dist/server.mjs
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";
import { sheetLines } from "./sheet-lines.mjs";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:3311" },
    edits: { type: "string", default: "41" },
    trace: { type: "string" },
    profile: { type: "boolean", default: false },
  },
});
const edits = Number(args.edits);
const lines = sheetLines();
const target = lines.findIndex((l, i) => i > 240 && l.startsWith("item"));
const load = () => loadavg()[0].toFixed(1);
const loadBefore = load();

const browser = await chromium.launch(chromiumLaunchOptions);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(`${args.base}/calculator`);
const box = page.getByRole("textbox", { name: /^Sheet/ });
await box.fill(lines.join("\n"));
// the notebook draws only the rows near the viewport: scroll to the last line, wait for its result, then
// bring the edited line to the middle of the window
const scrollToLine = (n) =>
  page.evaluate((n) => {
    const grid = document.querySelector('[data-testid="notebook"]');
    const row = Number.parseFloat(getComputedStyle(document.querySelector("textarea")).lineHeight);
    window.scrollTo(
      0,
      grid.getBoundingClientRect().top + window.scrollY + (n - 1) * row - window.innerHeight / 2,
    );
  }, n);
await page.waitForFunction(
  (n) => document.querySelector("textarea")?.value.split("\n").length === n,
  lines.length,
);
await scrollToLine(lines.length);
await page.locator(`[data-testid^="line-${lines.length}-"]`).first().waitFor({ timeout: 60_000 });
await page.waitForFunction(() => !document.querySelector('ol[aria-busy="true"]'));
await scrollToLine(target + 1);
await page.locator(`[data-testid="line-${target + 1}-result"]`).waitFor();
await page.waitForTimeout(1000);

// Stamps on the page's clock around each edit: listeners on window (capture, before any other) and on
// document (bubbling, after React's, which sit on the document), and the notebook's "sheet evaluation"
// user-timing measure.
await page.evaluate(() => {
  const stamps = {};
  window.__stamps = stamps;
  const at = (name) => () => {
    stamps[name] ??= performance.now();
  };
  window.addEventListener("keydown", at("keydown"), true);
  document.addEventListener("beforeinput", at("beforeinputDone"), false);
  window.addEventListener("input", at("input"), true);
  document.addEventListener("input", at("inputDone"), false);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) stamps.evaluation = (stamps.evaluation ?? 0) + e.duration;
  }).observe({ entryTypes: ["measure"] });
});

/**
 * One edit: from the keydown's time stamp to the frame painted after the edited row shows its new value,
 * in ms, and its parts.
 */
async function edit(k) {
  // select the tenths digit of the target line's amount and type a different one
  const { digit } = await page.evaluate(
    ([row, k]) => {
      const el = document.querySelector("textarea");
      const all = el.value.split("\n");
      const start = all.slice(0, row).reduce((n, l) => n + l.length + 1, 0);
      const at = start + all[row].search(/\.\d+ EUR/) + 1;
      const old = Number(el.value[at]);
      el.focus();
      el.setSelectionRange(at, at + 1);
      const before = document.querySelector(`[data-testid="line-${row + 1}-result"]`)?.textContent ?? "";
      const edit = { before, row, start: null, done: null };
      window.__edit = edit;
      for (const key of Object.keys(window.__stamps)) delete window.__stamps[key];
      el.addEventListener("keydown", (e) => (edit.start = e.timeStamp), { once: true, capture: true });
      // the moment the row shows its new value and nothing is pending, then the frame that paints it
      const list = document.querySelector('ol[aria-label="Results"]');
      const observer = new MutationObserver(() => {
        const now = document.querySelector(`[data-testid="line-${row + 1}-result"]`)?.textContent ?? "";
        if (now === before || list.getAttribute("aria-busy") === "true") return;
        observer.disconnect();
        edit.committed = performance.now();
        requestAnimationFrame(() => {
          edit.frame = performance.now();
          setTimeout(() => (edit.done = performance.now()), 0);
        });
      });
      observer.observe(list, { subtree: true, childList: true, characterData: true, attributes: true });
      return { digit: String((old + 1 + (k % 8)) % 10) };
    },
    [target, k],
  );
  // the selection is painted before the key goes down (a caret placed by a person has long been drawn)
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))),
  );
  await page.keyboard.press(digit);
  const result = await page.evaluate(async () => {
    const edit = window.__edit;
    while (edit.done === null) await new Promise((r) => setTimeout(r, 5));
    const s = window.__stamps;
    const evaluation = s.evaluation ?? 0;
    return {
      ms: edit.done - edit.start,
      committed: edit.committed - edit.start,
      evaluation,
      split: {
        "input delay (keydown queued to its handler)": s.keydown - edit.start,
        "keyboard events and the textarea's own edit": s.input - s.keydown,
        "React (input handler, render, commit)": s.inputDone - s.input - evaluation,
        "sheet evaluation (SheetEvaluator.run)": evaluation,
        "waiting for the next frame": edit.frame - s.inputDone,
        "the frame (rAF, style, layout, paint, commit)": edit.done - edit.frame,
      },
    };
  });
  await page.waitForTimeout(300);
  return result;
}

if (args.trace) {
  await browser.startTracing(page, {
    path: args.trace,
    screenshots: false,
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "blink.user_timing",
      ...(args.profile ? ["disabled-by-default-v8.cpu_profiler"] : []),
    ],
  });
}
const times = [];
const committed = [];
const evaluations = [];
const parts = {};
for (let k = 0; k < edits; k++) {
  const { ms, split, ...rest } = await edit(k);
  times.push(ms);
  committed.push(rest.committed);
  evaluations.push(rest.evaluation);
  for (const [part, v] of Object.entries(split)) {
    parts[part] ??= [];
    parts[part].push(v);
  }
}
const loadAfter = load();

if (args.trace) await browser.stopTracing();
const evaluated = await page.evaluate(() =>
  document.querySelector("[data-sheet-evaluated]")?.getAttribute("data-sheet-evaluated"),
);
await browser.close();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
console.log(`Sheet recompute in the browser (Chromium ${browser.version()}, main thread, ${args.base})`);
console.log(`sheet: ${lines.length} lines; one-character edit of line ${target + 1}, ${edits} times`);
console.log(`load average (1 min, ${navigatorCores()} cores): ${loadBefore} before, ${loadAfter} after`);
const figure = (xs) =>
  `median ${median(xs).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;
console.log(`recalculation (SheetEvaluator.run, main thread): ${figure(evaluations)}`);
console.log(
  `keydown to the new results in the page (edit, recalculation, render): ${figure(committed)} (target: median under 16 ms)`,
);
console.log(
  `keydown to results painted (the above, the wait for the display's next frame, and that frame): ${figure(times)}`,
);
if (evaluated) console.log(`lines evaluated by the last edit: ${evaluated} of ${lines.length}`);
console.log("split (medians, ms; the parts are on the main thread, one after the other):");
for (const [part, xs] of Object.entries(parts)) console.log(`  ${part.padEnd(48)} ${median(xs).toFixed(2)}`);
const busy = Object.entries(parts)
  .filter(([part]) => !part.startsWith("input delay") && !part.startsWith("waiting"))
  .reduce((n, [, xs]) => n + median(xs), 0);
console.log(
  `main-thread work per edit (sum of the medians, without the input delay and the wait for the frame): ${busy.toFixed(2)} ms`,
);
if (args.trace) {
  const cpu = cpuSplit(JSON.parse(readFileSync(args.trace, "utf8")));
  console.log(
    `trace: ${args.trace}; main-thread CPU time (thread time, so not the time other processes took) from the keydown to the end of the frame's commit, medians of ${cpu.count} edits, ms (tracing adds to each):`,
  );
  for (const [part, xs] of Object.entries(cpu.parts))
    console.log(`  ${part.padEnd(48)} ${median(xs).toFixed(2)}`);
}

/** Per edit, from a Chrome trace: the main thread's CPU time in its tasks from the keydown to the commit. */
function cpuSplit(trace) {
  const events = trace.traceEvents ?? trace;
  const thread = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const slices = events
    .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === "X")
    .sort((a, b) => a.ts - b.ts);
  const tasks = slices.filter((e) => e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask");
  const outer = tasks.filter(
    (e) => !tasks.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur),
  );
  const dispatch = (type) => slices.filter((e) => e.name === "EventDispatch" && e.args?.data?.type === type);
  const inputs = dispatch("input");
  const parts = {
    "the input task (keyboard events, edit, React)": [],
    "the frame task (rAF, style, layout, paint, commit)": [],
    "other tasks in between": [],
    total: [],
  };
  let count = 0;
  for (const keydown of dispatch("keydown")) {
    const input = inputs.find((e) => e.ts > keydown.ts);
    const commit = input && slices.find((e) => e.name === "Commit" && e.ts > input.ts);
    if (!commit) continue;
    const end = commit.ts + commit.dur;
    const within = outer.filter((e) => e.ts + e.dur > keydown.ts && e.ts < end);
    const holds = (task, e) => task.ts <= e.ts && task.ts + task.dur >= e.ts + e.dur;
    const cpu = (task) => (task?.tdur ?? 0) / 1000;
    const inputTask = within.find((task) => holds(task, input));
    const frameTask = within.find((task) => holds(task, commit));
    const total = within.reduce((n, task) => n + cpu(task), 0);
    parts["the input task (keyboard events, edit, React)"].push(cpu(inputTask));
    parts["the frame task (rAF, style, layout, paint, commit)"].push(cpu(frameTask));
    parts["other tasks in between"].push(total - cpu(inputTask) - cpu(frameTask));
    parts.total.push(total);
    count++;
  }
  return { count, parts };
}

function navigatorCores() {
  return cpus().length;
}
