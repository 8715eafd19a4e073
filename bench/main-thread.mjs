#!/usr/bin/env node
// Where the browser's main thread spends its time on the public pages, from a Chrome trace at 4x CPU
// slowdown (Lighthouse's mobile setting, applied for real rather than simulated), with the blank
// Next.js app measured in the same run as the reference for the machine's state.
//
//   node bench/main-thread.mjs [--dist .next] [--runs 5] [--pages /,/pricing,/docs,/calculator]
//                              [--url http://127.0.0.1:3000] [--no-blank] [--json FILE] [--tasks]
//
// Starts Abacus the README's way (or uses --url) and the blank app of bench/http.mjs, loads each page
// --runs times in a fresh context of the system Chromium, traces from navigation until the page has
// been quiet (no long task) for 2 s, and prints per page the medians of: total blocking time
// (tasks after the first contentful paint, the part of each over 50 ms), main-thread busy time, and
// that time by activity (script evaluation and compilation by script, HTML parsing, style and
// layout, paint, garbage collection), self time, so nothing is counted twice. --tasks lists each
// long task of the median run with its largest parts. Not a test: read it against the blank app.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";
import {
  ensureAbacusBuild,
  ensureBlankApp,
  freePort,
  log,
  ROOT,
  startAbacus,
  startBlank,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    runs: { type: "string", default: "5" },
    pages: { type: "string", default: "/,/pricing,/docs,/calculator" },
    url: { type: "string" },
    "no-blank": { type: "boolean", default: false },
    json: { type: "string" },
    tasks: { type: "boolean", default: false },
    slowdown: { type: "string", default: "4" },
  },
});
const RUNS = Math.max(1, Number(args.runs));
const SLOWDOWN = Number(args.slowdown);

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "v8",
  "blink.user_timing",
  "loading",
  "toplevel",
].join(",");

/** What an event's self time counts as. */
function activityOf(event) {
  const n = event.name;
  if (/GC|GCEvent|Scavenge|MarkCompact|V8\.GC/i.test(n)) return "garbage collection";
  if (n === "ParseHTML") return "HTML parsing";
  if (n === "ParseAuthorStyleSheet") return "style sheet parsing";
  if (n === "UpdateLayoutTree" || n === "RecalculateStyles" || n === "ScheduleStyleRecalculation")
    return "style";
  if (
    n === "Layout" ||
    n === "UpdateLayerTree" ||
    n === "IntersectionObserverController::computeIntersections"
  )
    return "layout";
  if (/^(Paint|PaintImage|RasterTask|Decode|CompositeLayers|PrePaint|Layerize|Commit)/.test(n))
    return "paint";
  if (/compile|Compile|V8\.Parse|ParseFunction|PreParse|v8\.parse/i.test(n)) return "script compile";
  if (
    /^(EvaluateScript|FunctionCall|TimerFire|EventDispatch|FireAnimationFrame|RunMicrotasks|v8\.run|v8\.execute|V8\.Execute|XHRReadyStateChange|XHRLoad|FireIdleCallback|v8\.callFunction|ProfileCall)/.test(
      n,
    )
  )
    return "script";
  return null;
}

/** The script an event belongs to (its URL's last part), for script evaluation and compilation. */
function scriptOf(event) {
  const data = event.args?.data ?? event.args?.beginData ?? {};
  const url = data.url ?? data.stackTrace?.[0]?.url ?? event.args?.fileName ?? "";
  if (!url) return "";
  try {
    const u = new URL(url);
    return u.pathname === "/" || !u.pathname.includes(".")
      ? `(page ${u.pathname}: inline)`
      : path.basename(u.pathname);
  } catch {
    return url.slice(0, 40);
  }
}

/** Self time of every event on the renderer's main thread, by activity and by script. */
function analyze(trace, pageUrl) {
  const events = trace.traceEvents;
  const mainThreads = events.filter(
    (e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain",
  );
  // The renderer of the page: the one whose main thread parsed its HTML.
  const origin = new URL(pageUrl).origin;
  let main;
  for (const t of mainThreads) {
    const parsed = events.some(
      (e) =>
        e.pid === t.pid &&
        e.tid === t.tid &&
        e.name === "ParseHTML" &&
        String(e.args?.beginData?.url ?? "").startsWith(origin),
    );
    if (parsed) main = t;
  }
  if (!main) throw new Error(`no renderer main thread parsed ${pageUrl}`);
  const own = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && (e.ph === "X" || e.ph === "B" || e.ph === "E"))
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Turn B/E pairs into complete events.
  const complete = [];
  const open = [];
  for (const e of own) {
    if (e.ph === "X") complete.push(e);
    else if (e.ph === "B") open.push(e);
    else {
      const begin = open.pop();
      if (begin)
        complete.push({ ...begin, ph: "X", dur: e.ts - begin.ts, args: { ...begin.args, ...e.args } });
    }
  }
  complete.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const navStart =
    events.find((e) => e.name === "navigationStart" && e.pid === main.pid && e.args?.data?.isLoadingMainFrame)
      ?.ts ??
    complete[0]?.ts ??
    0;
  const fcp = events.find((e) => e.name === "firstContentfulPaint" && e.pid === main.pid)?.ts;
  const tasks = complete.filter(
    (e) => (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && e.dur > 0,
  );
  // Nested RunTask events (a task inside a task) are counted once, as the outer one.
  const topTasks = [];
  let end = -1;
  for (const task of tasks) {
    if (task.ts >= end) {
      topTasks.push(task);
      end = task.ts + task.dur;
    }
  }

  const byActivity = new Map();
  const byScript = new Map();
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  // Self time: each event's duration minus its children's, attributed to the nearest classified
  // ancestor (an unclassified event inside a script call is script time).
  const stack = [];
  const taskParts = new Map();
  for (const e of complete) {
    if (e.ts < navStart) continue;
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.childUs = (parent.childUs ?? 0) + Math.min(e.dur ?? 0, parent.ts + parent.dur - e.ts);
    const activity = activityOf(e) ?? parent?.activity ?? null;
    const script =
      activity === "script" || activity === "script compile" ? scriptOf(e) || parent?.script || "" : "";
    const task = e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask" ? e : parent?.task;
    stack.push(Object.assign(e, { activity, script, task, childUs: 0 }));
  }
  for (const e of complete) {
    if (e.ts < navStart || e.activity === undefined) continue;
    const self = Math.max(0, (e.dur ?? 0) - (e.childUs ?? 0));
    const activity = e.activity ?? "other";
    if (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") {
      add(byActivity, "other", self);
    } else {
      add(byActivity, activity, self);
      if (activity === "script" || activity === "script compile")
        add(byScript, e.script || "(unattributed)", self);
    }
    if (e.task) {
      const parts = taskParts.get(e.task) ?? new Map();
      const label =
        activity === "script" || activity === "script compile" ? `${activity} ${e.script || "?"}` : activity;
      if (e !== e.task) add(parts, label, self);
      taskParts.set(e.task, parts);
    }
  }
  const afterNav = topTasks.filter((t) => t.ts >= navStart);
  const busyUs = afterNav.reduce((s, t) => s + t.dur, 0);
  const tbtUs = afterNav
    .filter((t) => fcp === undefined || t.ts >= fcp)
    .reduce((s, t) => s + Math.max(0, t.dur - 50_000), 0);
  const longTasks = afterNav
    .filter((t) => t.dur >= 50_000)
    .map((t) => ({
      startMs: (t.ts - navStart) / 1000,
      ms: t.dur / 1000,
      parts: [...(taskParts.get(t) ?? new Map())]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([label, us]) => `${label} ${Math.round(us / 1000)}`),
    }));
  const ms = (map) => Object.fromEntries([...map].map(([k, us]) => [k, us / 1000]));
  return {
    tbt: tbtUs / 1000,
    busy: busyUs / 1000,
    fcp: fcp === undefined ? null : (fcp - navStart) / 1000,
    activity: ms(byActivity),
    scripts: ms(byScript),
    longTasks,
  };
}

async function traceOnce(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOWDOWN });
  await browser.startTracing(page, { categories: CATEGORIES.split(",") });
  await page.goto(url, { waitUntil: "load" });
  // Quiet: no long task for 2 s (hydration, prefetches and the after-load scripts are done).
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let last = performance.now();
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) last = Math.max(last, entry.startTime + entry.duration);
        }).observe({ type: "longtask", buffered: true });
        const started = performance.now();
        const check = () => {
          const now = performance.now();
          if (now - last >= 2000 || now - started > 20_000) resolve(undefined);
          else setTimeout(check, 250);
        };
        setTimeout(check, 250);
      }),
  );
  const buffer = await browser.stopTracing();
  await context.close();
  return analyze(JSON.parse(buffer.toString("utf8")), url);
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main() {
  stopAllOnExit();
  let base = args.url;
  let blankBase = null;
  if (!base) {
    ensureAbacusBuild(args.dist);
    const port = await freePort();
    const abacus = startAbacus({
      port,
      dataDir: ".test-data/main-thread",
      distDir: args.dist,
      logFile: path.join(ROOT, "bench/results/main-thread-abacus.log"),
    });
    base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, { entry: abacus });
  }
  if (!args["no-blank"]) {
    const port = await freePort();
    const blank = startBlank(ensureBlankApp(), port, path.join(ROOT, "bench/results/main-thread-blank.log"));
    blankBase = `http://127.0.0.1:${port}`;
    await waitFor(`${blankBase}/`, { entry: blank });
  }
  const targets = [
    ...(blankBase ? [{ label: "blank Next.js /", url: `${blankBase}/` }] : []),
    ...args.pages.split(",").map((page) => ({ label: page, url: `${base}${page}` })),
  ];
  const browser = await chromium.launch(chromiumLaunchOptions);
  const load = [];
  const results = [];
  for (const target of targets) {
    await fetch(target.url).then((r) => r.arrayBuffer()); // warm the server
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      load.push(Number(loadavg()[0].toFixed(2)));
      runs.push(await traceOnce(browser, target.url));
    }
    runs.sort((a, b) => a.tbt - b.tbt);
    const mid = runs[Math.floor(runs.length / 2)];
    const keys = new Set(runs.flatMap((r) => Object.keys(r.activity)));
    const scripts = new Set(runs.flatMap((r) => Object.keys(r.scripts)));
    results.push({
      page: target.label,
      tbt: median(runs.map((r) => r.tbt)),
      tbtRuns: runs.map((r) => Math.round(r.tbt)),
      busy: median(runs.map((r) => r.busy)),
      fcp: median(runs.map((r) => r.fcp ?? 0)),
      activity: Object.fromEntries([...keys].map((k) => [k, median(runs.map((r) => r.activity[k] ?? 0))])),
      scripts: Object.fromEntries([...scripts].map((k) => [k, median(runs.map((r) => r.scripts[k] ?? 0))])),
      longTasks: mid.longTasks,
    });
    log(`${target.label}: TBT ${results.at(-1).tbtRuns.join(", ")} ms`);
  }
  await browser.close();
  await stopAll();

  const ms = (n) => Math.round(n ?? 0).toLocaleString("en-US");
  const blank = blankBase ? results[0] : null;
  const columns = [
    "script",
    "script compile",
    "HTML parsing",
    "style sheet parsing",
    "style",
    "layout",
    "paint",
    "garbage collection",
    "other",
  ];
  const lines = [
    `Main thread at ${SLOWDOWN}x CPU slowdown (Chrome trace, real throttling), median of ${RUNS} run${RUNS === 1 ? "" : "s"}, ${new Date().toISOString()}; load average during the runs ${Math.min(...load)}–${Math.max(...load)}`,
    "",
    `| Page | TBT ms (every run) | TBT × blank | busy ms | ${columns.join(" | ")} |`,
    `|---|---|---|---|${columns.map(() => "---").join("|")}|`,
  ];
  for (const r of results) {
    const ratio = blank && blank.tbt > 0 ? (r.tbt / blank.tbt).toFixed(2) : "";
    lines.push(
      `| ${r.page} | ${ms(r.tbt)} (${r.tbtRuns.join(", ")}) | ${ratio} | ${ms(r.busy)} | ${columns.map((c) => ms(r.activity[c])).join(" | ")} |`,
    );
  }
  lines.push("", "Script time by script (evaluation and compilation, self, ms; the largest six):");
  for (const r of results) {
    const top = Object.entries(r.scripts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, v]) => `${name} ${ms(v)}`);
    lines.push(`- ${r.page}: ${top.join(", ")}`);
  }
  if (args.tasks) {
    lines.push("", "Long tasks of the median run (start ms after navigation, length, largest parts):");
    for (const r of results) {
      lines.push(`- ${r.page}:`);
      for (const t of r.longTasks)
        lines.push(`  - at ${ms(t.startMs)}: ${ms(t.ms)} ms (${t.parts.join(", ")})`);
    }
  }
  console.log(lines.join("\n"));
  if (args.json)
    writeFileSync(
      args.json,
      `${JSON.stringify({ slowdown: SLOWDOWN, runs: RUNS, load, results }, null, 2)}\n`,
    );
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
