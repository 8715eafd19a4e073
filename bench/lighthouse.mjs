#!/usr/bin/env node
// Lighthouse (mobile defaults: Moto G Power emulation, simulated slow 4G and 4× CPU slowdown) on the
// public pages of an Abacus production build, in the system Chromium.
//
//   npm run lighthouse [-- --dist .next] [--runs 1] [--pages /,/pricing] [--no-blank]
//
// Starts Abacus the README's way on loopback, runs Lighthouse on each page (the median of --runs by
// performance score), writes one HTML report per page and a summary (Markdown) to
// bench/results/lighthouse/, and exits 1 when a page misses a target: performance ≥ 95,
// accessibility 100, best practices ≥ 95, SEO ≥ 95.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import {
  ensureAbacusBuild,
  ensureBlankApp,
  freePort,
  log,
  ROOT,
  start,
  startAbacus,
  startBlank,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    runs: { type: "string", default: "1" },
    pages: { type: "string", default: "/,/pricing,/docs,/calculator" },
    chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    // Unless --no-blank, also score the blank Next.js app of bench/http.mjs, as a reference for the
    // state of the machine (Lighthouse's blocking time follows the CPU load).
    "no-blank": { type: "boolean", default: false },
  },
});

const TARGETS = { performance: 95, accessibility: 100, "best-practices": 95, seo: 95 };

async function main() {
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const out = path.join(ROOT, "bench/results/lighthouse");
  mkdirSync(out, { recursive: true });
  const [appPort, debugPort] = [await freePort(), await freePort()];
  const abacus = startAbacus({
    port: appPort,
    dataDir: ".test-data/lighthouse",
    distDir: args.dist,
    logFile: path.join(out, "abacus.log"),
  });
  const base = `http://127.0.0.1:${appPort}`;
  await waitFor(`${base}/api/health`, { entry: abacus });
  let blankBase = null;
  if (!args["no-blank"]) {
    const blankPort = await freePort();
    const blank = startBlank(ensureBlankApp(), blankPort, path.join(out, "blank-next.log"));
    blankBase = `http://127.0.0.1:${blankPort}`;
    await waitFor(`${blankBase}/`, { entry: blank });
  }

  const profile = path.join(tmpdir(), `abacus-lighthouse-${process.pid}`);
  const chromium = start(
    "chromium",
    args.chromium,
    [
      "--headless=new",
      `--remote-debugging-port=${debugPort}`,
      "--remote-debugging-address=127.0.0.1",
      `--user-data-dir=${profile}`,
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--no-default-browser-check",
      "about:blank",
    ],
    { logFile: path.join(out, "chromium.log") },
  );
  await waitFor(`http://127.0.0.1:${debugPort}/json/version`, { entry: chromium, timeoutMs: 30_000 });

  const rows = [];
  let missed = false;
  const targets = [
    ...(blankBase
      ? [{ label: "blank Next.js /", url: `${blankBase}/`, name: "blank-next", reference: true }]
      : []),
    ...args.pages.split(",").map((page) => ({
      label: page,
      url: `${base}${page}`,
      name: page === "/" ? "home" : page.replace(/^\//, "").replace(/\W+/g, "-"),
      reference: false,
    })),
  ];
  for (const { label: page, url, name, reference } of targets) {
    // Warm the server (first render, caches) so the report measures the page, not a cold start.
    await fetch(url).then((r) => r.arrayBuffer());
    const runs = [];
    for (let i = 0; i < Number(args.runs); i++) {
      // A trace can come back unusable on a busy machine (e.g. NO_NAVSTART): try such a run again.
      for (let attempt = 1; ; attempt++) {
        const result = await lighthouse(url, {
          port: debugPort,
          output: "html",
          logLevel: "error",
          onlyCategories: Object.keys(TARGETS),
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
        if (!result.lhr.runtimeError || attempt === 3) {
          runs.push(result);
          break;
        }
        log(`${page}: ${result.lhr.runtimeError.code}, running again`);
      }
    }
    runs.sort((x, y) => x.lhr.categories.performance.score - y.lhr.categories.performance.score);
    const { lhr, report } = runs[Math.floor(runs.length / 2)];
    writeFileSync(path.join(out, `${name}.html`), Array.isArray(report) ? report[0] : report);
    const scores = Object.fromEntries(
      Object.keys(TARGETS).map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)]),
    );
    const metric = (id) => lhr.audits[id]?.displayValue ?? "";
    writeFileSync(path.join(out, `${name}.json`), JSON.stringify(lhr));
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative")
      .filter((a) => a.scoreDisplayMode !== "manual" && a.scoreDisplayMode !== "notApplicable")
      .map((a) => a.id);
    const misses = Object.entries(TARGETS).filter(([key, target]) => scores[key] < target);
    if (misses.length && !reference) missed = true;
    rows.push({
      page,
      scores,
      // Every run's performance score, lowest first: the median alone hides how much runs vary.
      allRuns: runs.map((r) => Math.round(r.lhr.categories.performance.score * 100)).join(", "),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      fcp: metric("first-contentful-paint"),
      // Every run's total blocking time (ms), lowest first, and where the median run's main thread went.
      tbtRuns: runs
        .map((r) => Math.round(r.lhr.audits["total-blocking-time"]?.numericValue ?? 0))
        .sort((a, b) => a - b),
      mainThread: mainThreadOf(lhr),
      reference,
      failing,
      misses,
    });
    log(`${page}: ${JSON.stringify(scores)}`);
  }
  await stopAll();
  rmSync(profile, { recursive: true, force: true });

  const lines = [
    `Lighthouse ${lighthouse.version ?? ""} mobile, system Chromium, ${new Date().toISOString()} (median of ${args.runs} run${args.runs === "1" ? "" : "s"})`,
    "",
    "| Page | Performance | (every run) | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.scores.performance} | ${r.allRuns} | ${r.scores.accessibility} | ${r.scores["best-practices"]} | ${r.scores.seo} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${r.cls} |`,
    ),
    "",
    `Targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ≥ ${TARGETS["best-practices"]}, SEO ≥ ${TARGETS.seo}.`,
    ...rows
      .filter((r) => r.failing.length)
      .map((r) => `- ${r.page}: audits below 0.9: ${r.failing.join(", ")}`),
    ...mainThreadTable(rows),
  ];
  writeFileSync(path.join(out, "summary.md"), `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
  log(`reports in ${path.relative(ROOT, out)}/`);
  process.exit(missed ? 1 : 0);
}

/**
 * Where the median run's main thread went, as Lighthouse reports it at its 4x CPU slowdown: the
 * total and its groups (mainthread-work-breakdown), and the scripts that cost the most
 * (bootup-time: evaluation, which includes the hydration their code does, and parse/compile).
 */
function mainThreadOf(lhr) {
  const groups = lhr.audits["mainthread-work-breakdown"]?.details?.items ?? [];
  const scripts = lhr.audits["bootup-time"]?.details?.items ?? [];
  return {
    total: groups.reduce((sum, item) => sum + item.duration, 0),
    groups: Object.fromEntries(groups.map((item) => [item.group, item.duration])),
    scripts: scripts.slice(0, 5).map((item) => ({
      script: String(item.url)
        .replace(/^https?:\/\/[^/]+/, "")
        .replace("/_next/static/chunks/", ""),
      total: item.total,
      parse: item.scriptParseCompile,
    })),
  };
}

function mainThreadTable(rows) {
  const blank = rows.find((r) => r.reference);
  const median = (list) => list[Math.floor(list.length / 2)] ?? 0;
  const ms = (n) => `${Math.round(n ?? 0)}`;
  const lines = [
    "",
    "Main thread (median run, ms at 4x slowdown): TBT of every run, and the median run's main-thread work by group.",
    "",
    "| Page | TBT (every run) | TBT × blank | main thread | script evaluation | parse/compile | style/layout | rendering | HTML/CSS parsing | GC | other |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const g = r.mainThread.groups;
    const ratio =
      blank && median(blank.tbtRuns) > 0 ? (median(r.tbtRuns) / median(blank.tbtRuns)).toFixed(2) : "";
    lines.push(
      `| ${r.page} | ${ms(median(r.tbtRuns))} (${r.tbtRuns.join(", ")}) | ${ratio} | ${ms(r.mainThread.total)} | ${ms(g.scriptEvaluation)} | ${ms(g.scriptParseCompile)} | ${ms(g.styleLayout)} | ${ms(g.paintCompositeRender)} | ${ms(g.parseHTML)} | ${ms(g.garbageCollection)} | ${ms(g.other)} |`,
    );
  }
  lines.push("", "Scripts that cost the most (median run; total ms, of which parse/compile):");
  for (const r of rows) {
    lines.push(
      `- ${r.page}: ${r.mainThread.scripts.map((s) => `${s.script} ${ms(s.total)} (${ms(s.parse)})`).join(", ")}`,
    );
  }
  return lines;
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
