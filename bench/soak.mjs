#!/usr/bin/env node
// A memory soak: mixed traffic against an Abacus production build for 10 minutes, the server's RSS
// sampled every 10 s, and a heap snapshot at the end summarized by what holds the most memory.
//
//   node bench/soak.mjs [--minutes 10] [--connections 10] [--dist .next] [--no-snapshot]
//
// Abacus starts the README's way on loopback (its own embedded PostgreSQL in .test-data/soak), with
// TRUST_PROXY=1 so that every request can come from a different client address (X-Forwarded-For),
// as on a public instance: per-client state (rate limits) is exercised too. Verdict: RSS must stay
// under 350 MB and must not grow over the last half of the run. Results in bench/results/.
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import {
  ensureAbacusBuild,
  freePort,
  log,
  ROOT,
  startAbacus,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    dist: { type: "string", default: ".next" },
    "no-snapshot": { type: "boolean", default: false },
    "limit-mb": { type: "string", default: "350" },
    // Extra flags for the server's node (e.g. --node-arg=--max-semi-space-size=8), for experiments.
    "node-arg": { type: "string", multiple: true, default: [] },
    // Extra environment for the server (e.g. --env MALLOC_ARENA_MAX=2), for experiments.
    env: { type: "string", multiple: true, default: [] },
  },
});
const minutes = Number(args.minutes);
const limitMb = Number(args["limit-mb"]);

const CALC = JSON.stringify({ expression: "(19.99 * 3 - 0.01) / 7", precision: 30 });
/** The mix: pages, the API (allowed and over-limit), and a few 404s. */
const REQUESTS = [
  { method: "GET", path: "/" },
  { method: "GET", path: "/pricing" },
  { method: "GET", path: "/pricing?currency=JPY" },
  { method: "GET", path: "/docs" },
  { method: "GET", path: "/calculator" },
  { method: "GET", path: "/sign-in" },
  { method: "GET", path: "/api/health" },
  { method: "GET", path: "/api/v1/rates" },
  { method: "GET", path: "/api/v1/convert?amount=100&from=USD&to=JPY" },
  { method: "POST", path: "/api/v1/calculate", body: CALC, headers: { "content-type": "application/json" } },
  { method: "POST", path: "/api/v1/calculate", body: CALC, headers: { "content-type": "application/json" } },
  { method: "GET", path: "/no-such-page" },
];

function envPair(text) {
  const at = text.indexOf("=");
  if (at < 1) throw new Error(`--env wants NAME=VALUE, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/**
 * The last sample of bench/lib/memory-probe.mjs: the V8 heap (committed, by space), the memory
 * outside it that Node.js counts (external, array buffers) and, subtracted from the RSS, the rest.
 */
function memoryInside(file) {
  let last;
  try {
    last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1));
  } catch {
    return "no sample";
  }
  const spaces = Object.entries(last.spaces)
    .filter(([, s]) => s.committed >= 1)
    .map(
      ([name, s]) => `${name.replace(/_space$/, "")} ${s.committed.toFixed(0)} (${s.used.toFixed(0)} used)`,
    )
    .join(", ");
  const rest = last.rss - last.heapTotal - last.external;
  return `RSS ${last.rss.toFixed(0)} MB = V8 heap ${last.heapTotal.toFixed(0)} MB committed (${last.heapUsed.toFixed(0)} used; ${spaces}) + external ${last.external.toFixed(0)} MB (array buffers ${last.arrayBuffers.toFixed(0)}) + the rest ${rest.toFixed(0)} MB (code, malloc, stacks)`;
}

/** The server process: the child of run-with-db.mjs that runs dist/server.mjs. */
function serverPid(parentPid) {
  const children = readFileSync(`/proc/${parentPid}/task/${parentPid}/children`, "utf8").trim().split(/\s+/);
  for (const pid of children) {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (cmd.includes("dist/server.mjs")) return Number(pid);
  }
  throw new Error("dist/server.mjs process not found");
}

/**
 * Where the RSS is, from /proc/PID/smaps: the V8 heap and other anonymous mappings, glibc's malloc
 * arenas (the main heap and the 64 MB-aligned arenas of other threads), and mapped files (code).
 */
function rssBreakdown(pid) {
  const text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  const parts = {
    "malloc main heap": 0,
    "anonymous mappings (V8 heap, malloc arenas, buffers)": 0,
    "mapped files (code, data)": 0,
  };
  let kind = null;
  for (const line of text.split("\n")) {
    const header = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (header) {
      const name = header[1].trim();
      kind =
        name === "[heap]"
          ? "malloc main heap"
          : name === "" || name.startsWith("[anon")
            ? "anonymous mappings (V8 heap, malloc arenas, buffers)"
            : name.startsWith("[")
              ? null
              : "mapped files (code, data)";
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss && kind) parts[kind] += Number(rss[1]) / 1024;
  }
  return Object.entries(parts)
    .map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`)
    .join(", ");
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  return kb / 1024;
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** Sums a V8 heap snapshot's self sizes by (type, constructor or string) and lists the largest. */
export function summarizeHeapSnapshot(file, top = 25) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  const meta = snapshot.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const groups = new Map();
  let total = 0;
  const nodes = snapshot.nodes;
  for (let i = 0; i < nodes.length; i += stride) {
    const type = types[nodes[i + typeAt]];
    let name = snapshot.strings[nodes[i + nameAt]];
    if (type === "string" || type === "concatenated string" || type === "sliced string") name = "(strings)";
    else if (type === "code") name = "(compiled code)";
    else if (type === "array") name = `(array) ${name}`;
    else if (type === "hidden") name = `(hidden) ${name}`;
    const key = `${type}: ${name.slice(0, 80)}`;
    const size = nodes[i + sizeAt];
    total += size;
    const group = groups.get(key) ?? { size: 0, count: 0 };
    group.size += size;
    group.count += 1;
    groups.set(key, group);
  }
  const lines = [`Live heap in the snapshot: ${(total / 1048576).toFixed(1)} MB`];
  for (const [key, { size, count }] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
    lines.push(`  ${(size / 1048576).toFixed(2).padStart(7)} MB  ${String(count).padStart(8)}×  ${key}`);
  }
  return lines.join("\n");
}

async function main() {
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const port = await freePort();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const probeFile = path.join(ROOT, `bench/results/soak-${stamp}-memory.jsonl`);
  const abacus = startAbacus({
    port,
    dataDir: ".test-data/soak",
    distDir: args.dist,
    env: { TRUST_PROXY: "1", MEMORY_PROBE_FILE: probeFile, ...Object.fromEntries(args.env.map(envPair)) },
    nodeArgs: [
      "--heapsnapshot-signal=SIGUSR2",
      `--import=${pathToFileURL(path.join(ROOT, "bench/lib/memory-probe.mjs")).href}`,
      ...args["node-arg"],
    ],
    logFile: path.join(ROOT, "bench/results/soak-abacus.log"),
    name: "abacus",
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, { entry: abacus });
  const pid = serverPid(abacus.child.pid);
  const samples = [{ t: 0, rss: rssMb(pid) }];
  log(
    `Abacus on ${base} (server pid ${pid}), RSS ${samples[0].rss.toFixed(0)} MB after start; ${minutes} min of traffic`,
  );

  const started = Date.now();
  const timer = setInterval(() => {
    const sample = { t: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) };
    samples.push(sample);
    log(`t=${String(sample.t).padStart(4)} s  RSS ${sample.rss.toFixed(0)} MB`);
  }, 10_000);
  let n = 0;
  const result = await autocannon({
    url: base,
    connections: Number(args.connections),
    duration: minutes * 60,
    timeout: 20,
    requests: REQUESTS.map((request) => ({
      ...request,
      // A different client address per request, across a large but bounded population.
      setupRequest: (req) => {
        n++;
        const client = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
        return { ...req, headers: { ...req.headers, "x-forwarded-for": client } };
      },
    })),
  });
  clearInterval(timer);
  samples.push({ t: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) });

  const breakdown = rssBreakdown(pid);
  const inside = memoryInside(probeFile);
  let heap = "";
  if (!args["no-snapshot"]) {
    // Written by the server itself into its working directory (the repository root).
    const before = new Set(listSnapshots());
    process.kill(pid, "SIGUSR2");
    const file = await waitForNewSnapshot(before);
    heap = summarizeHeapSnapshot(file);
    log(`heap snapshot: ${path.relative(ROOT, file)}`);
  }
  await stopAll();

  const half = samples.filter((s) => s.t >= (minutes * 60) / 2);
  const maxRss = Math.max(...samples.map((s) => s.rss));
  const growth = slope(half.map((s) => ({ x: s.t / 60, y: s.rss })));
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([c, s]) => [c, s.count]));
  const lines = [
    `Soak: ${minutes} min, autocannon -c ${args.connections}, mixed requests, ${new Date().toISOString()}`,
    `Requests: ${result.requests.total} (${Math.round(result.requests.average)} req/s), ${JSON.stringify(codes)}, errors ${result.errors}, timeouts ${result.timeouts}`,
    `RSS: ${samples[0].rss.toFixed(0)} MB after start, max ${maxRss.toFixed(0)} MB, end ${samples.at(-1).rss.toFixed(0)} MB`,
    `Last half: ${half[0]?.rss.toFixed(0)} → ${half.at(-1)?.rss.toFixed(0)} MB, trend ${growth.toFixed(2)} MB/min`,
    `RSS every minute (MB): ${samples
      .filter((s) => s.t % 60 < 10)
      .map((s) => s.rss.toFixed(0))
      .join(" ")}`,
    `RSS at the end: ${breakdown}`,
    `Inside the process at the end (memory-probe.mjs): ${inside}`,
    `Verdict: max RSS ${maxRss <= limitMb ? "under" : "OVER"} ${limitMb} MB; ${Math.abs(growth) < 1 ? "levels off" : growth > 0 ? "STILL GROWING" : "shrinking"} in the last half`,
    "",
    heap,
  ];
  console.log(lines.join("\n"));
  writeFileSync(
    path.join(ROOT, `bench/results/soak-${stamp}.json`),
    `${JSON.stringify({ minutes, samples, codes, maxRss, growthMbPerMin: growth }, null, 2)}\n`,
  );
}

function listSnapshots() {
  return readdirSync(ROOT).filter((f) => f.endsWith(".heapsnapshot"));
}

function snapshotComplete(file) {
  const size = statSync(file).size;
  if (size < 2) return false;
  const fd = openSync(file, "r");
  const tail = Buffer.alloc(Math.min(64, size));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  closeSync(fd);
  return /\]\s*\}\s*$/.test(tail.toString("utf8"));
}

async function waitForNewSnapshot(before) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const fresh = listSnapshots().filter((f) => !before.has(f));
    if (fresh.length) {
      const file = path.join(ROOT, fresh[0]);
      // Complete when it ends its JSON (the last array of strings and the object).
      while (!snapshotComplete(file)) await new Promise((resolve) => setTimeout(resolve, 1000));
      const target = path.join(ROOT, "bench/results", fresh[0]);
      renameSync(file, target);
      return target;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("no heap snapshot was written");
}

// Run only as a script: importing this file (e.g. for its exports) starts nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch(async (error) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  });
}
