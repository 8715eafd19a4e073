#!/usr/bin/env node
// A V8 CPU profile (`node --cpu-prof`) of the Abacus server under load on one request, and a summary
// of where the time went: by package or app chunk, and the hottest functions (self time).
//
//   node bench/profile.mjs [--dist .next] [--duration 15] [--connections 20] [--method POST --body JSON]
//                          [--env NAME=VALUE] PATH
//   node bench/profile.mjs --summarize FILE.cpuprofile [--skip SECONDS]
//
// Starts Abacus the README's way on loopback with --cpu-prof, warms it up, loads PATH with
// autocannon, stops the server (the profile is written on exit) and prints the summary. The
// .cpuprofile file is kept in bench/results/profiles/ (open it in Chrome DevTools > Performance).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import {
  ensureAbacusBuild,
  freePort,
  log,
  ROOT,
  startAbacus,
  stop,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dist: { type: "string", default: ".next" },
    duration: { type: "string", default: "15" },
    connections: { type: "string", default: "20" },
    method: { type: "string", default: "GET" },
    body: { type: "string" },
    header: { type: "string", multiple: true, default: [] },
    top: { type: "string", default: "30" },
    env: { type: "string", multiple: true, default: [] },
    summarize: { type: "string" },
    skip: { type: "string", default: "0" },
  },
});
const target = positionals[0] ?? "/";

/** Where a function lives: a package in node_modules, an app chunk, Node's internals or V8. */
function origin(url) {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node: internals";
  const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) {
    const inner = url.match(/next\/dist\/compiled\/((?:@[^/]+\/)?[^/]+)/);
    return inner ? `next/compiled/${inner[1]}` : match[1];
  }
  const chunk = url.match(/\.next[^/]*\/server\/(.*)$/);
  if (chunk) return `app chunk ${chunk[1].replace(/\[.*?\]/g, "").slice(0, 60)}`;
  return path.relative(ROOT, url.replace(/^file:\/\//, ""));
}

function summarize(profile, fromMicros, top) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t - profile.startTime < fromMicros) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta);
    total += delta;
  }
  // Inclusive: the share of samples with at least one frame of that origin on the stack.
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map();
  for (const [id, micros] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (frame.url) seen.add(origin(frame.url));
    }
    for (const where of seen) inclusive.set(where, (inclusive.get(where) ?? 0) + micros);
  }
  const byOrigin = new Map();
  const byFunction = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || "(anonymous)";
    const where = origin(callFrame.url);
    const key = `${name}  ${where}:${callFrame.lineNumber + 1}`;
    if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
      byOrigin.set(name, (byOrigin.get(name) ?? 0) + micros);
    } else {
      byOrigin.set(where, (byOrigin.get(where) ?? 0) + micros);
    }
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const pct = (micros) => `${((100 * micros) / total).toFixed(1).padStart(5)} %`;
  const lines = [`Sampled ${(total / 1e6).toFixed(1)} s after warm-up.`, "", "By origin (self time):"];
  for (const [where, micros] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    lines.push(`  ${pct(micros)}  ${where}`);
  }
  lines.push("", "By origin (inclusive: on the stack):");
  for (const [where, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    lines.push(`  ${pct(micros)}  ${where}`);
  }
  lines.push("", "Hottest functions (self time):");
  for (const [key, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${pct(micros)}  ${key}`);
  }
  return lines.join("\n");
}

async function main() {
  if (args.summarize) {
    // Summarize a profile taken earlier; --skip seconds of its start (start-up, warm-up).
    const profile = JSON.parse(readFileSync(args.summarize, "utf8"));
    console.log(summarize(profile, Number(args.skip) * 1e6, Number(args.top)));
    return;
  }
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const dir = path.join(ROOT, "bench/results/profiles");
  const tmp = path.join(dir, "tmp");
  rmSync(tmp, { recursive: true, force: true });
  const port = await freePort();
  const env = Object.fromEntries(args.env.map((pair) => pair.split("=")));
  const abacus = startAbacus({
    port,
    distDir: args.dist,
    env,
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${tmp}`],
    logFile: path.join(ROOT, "bench/results/profile-abacus.log"),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, { entry: abacus });
  const headers = Object.fromEntries(args.header.map((h) => h.split(/:\s*/)));
  if (args.body) headers["content-type"] = "application/json";
  const options = { url: `${base}${target}`, method: args.method, body: args.body, headers };
  await autocannon({ ...options, connections: 5, duration: 3 });
  const loadStartedAt = Date.now();
  log(`loading ${args.method} ${target} for ${args.duration} s`);
  const result = await autocannon({
    ...options,
    connections: Number(args.connections),
    duration: Number(args.duration),
  });
  // The profile is written as the server exits: give it time on a busy machine.
  await stop(abacus, 60_000);
  const stoppedAt = Date.now();
  await stopAll();
  // The server writes its profile as it exits, possibly after its parent has gone: wait for a
  // complete main-thread profile (".0.001" is the main thread's sequence number).
  const deadline = Date.now() + 120_000;
  for (;;) {
    const main = existsSync(tmp) && readdirSync(tmp).find((f) => f.endsWith(".0.001.cpuprofile"));
    if (main) {
      try {
        JSON.parse(readFileSync(path.join(tmp, main), "utf8"));
        break;
      } catch {}
    }
    if (Date.now() > deadline) throw new Error("no CPU profile was written");
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const files = readdirSync(tmp).filter((f) => f.endsWith(".cpuprofile"));
  // The server is the process whose profile is the largest (run-with-db.mjs is not profiled).
  const file = files
    .map((f) => ({ f, size: readFileSync(path.join(tmp, f)).length }))
    .sort((a, b) => b.size - a.size)[0]?.f;
  if (!file) throw new Error("no CPU profile was written");
  const name = `${target.replace(/[^a-z0-9]+/gi, "_") || "root"}-${args.dist.replace(/\W/g, "")}.cpuprofile`;
  renameSync(path.join(tmp, file), path.join(dir, name));
  rmSync(tmp, { recursive: true, force: true });
  const profile = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
  console.log(
    `${args.method} ${target}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
      `${JSON.stringify(Object.fromEntries(Object.entries(result.statusCodeStats).map(([c, s]) => [c, s.count])))}`,
  );
  // Keep only the load (and the short stop after it): the profile starts with the server process,
  // well after this script started PostgreSQL, so count back from the profile's end.
  const length = profile.endTime - profile.startTime;
  console.log(summarize(profile, length - (stoppedAt - loadStartedAt) * 1000, Number(args.top)));
  log(`profile: ${path.relative(ROOT, path.join(dir, name))}`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
