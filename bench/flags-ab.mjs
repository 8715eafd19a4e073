#!/usr/bin/env node
// Throughput of two sets of server node flags on one build, in the same minutes: two Abacus servers
// (each on its own embedded PostgreSQL) get the soak's request mix (bench/soak.mjs) in alternating
// bursts, so a busy machine slows both alike. Prints req/s per burst, the median of each side and
// their ratio, and each server's RSS after its last burst.
//
//   node bench/flags-ab.mjs [--dist .next] [--rounds 4] [--seconds 20] [--connections 10]
//                           --b=--max-semi-space-size=4 [--b=--optimize-for-size] [--a=...]
//                           [--b-env=NAME=VALUE] [--a-env=NAME=VALUE]
//
// Side A runs with `npm start`'s flags (package.json) plus --a flags, side B with the same plus
// --b flags (a later flag wins in node). Not a test: read the ratio, and run it twice.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { freePort, log, startAbacus, stopAll, stopAllOnExit, waitFor } from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    rounds: { type: "string", default: "4" },
    seconds: { type: "string", default: "20" },
    connections: { type: "string", default: "10" },
    a: { type: "string", multiple: true, default: [] },
    b: { type: "string", multiple: true, default: [] },
    // Extra environment per side, NAME=VALUE (e.g. --b-env=MALLOC_MMAP_THRESHOLD_=131072).
    "a-env": { type: "string", multiple: true, default: [] },
    "b-env": { type: "string", multiple: true, default: [] },
  },
});

const CALC = JSON.stringify({ expression: "(19.99 * 3 - 0.01) / 7", precision: 30 });
/** The soak's mix (bench/soak.mjs). */
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

function serverPid(parentPid) {
  const children = readFileSync(`/proc/${parentPid}/task/${parentPid}/children`, "utf8").trim().split(/\s+/);
  for (const pid of children) {
    if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dist/server.mjs")) return Number(pid);
  }
  throw new Error("dist/server.mjs process not found");
}
const rssMb = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;

let n = 0;
function burst(base) {
  return autocannon({
    url: base,
    connections: Number(args.connections),
    duration: Number(args.seconds),
    timeout: 20,
    requests: REQUESTS.map((request) => ({
      ...request,
      setupRequest: (req) => {
        n++;
        const client = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
        return { ...req, headers: { ...req.headers, "x-forwarded-for": client } };
      },
    })),
  });
}

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  stopAllOnExit();
  const sides = [];
  for (const [name, flags, extraEnv] of [
    ["A", args.a, args["a-env"]],
    ["B", args.b, args["b-env"]],
  ]) {
    const port = await freePort();
    const entry = startAbacus({
      port,
      dataDir: `.test-data/flags-ab-${name.toLowerCase()}`,
      distDir: args.dist,
      env: {
        TRUST_PROXY: "1",
        ...Object.fromEntries(extraEnv.map((pair) => pair.split(/=(.*)/s).slice(0, 2))),
      },
      nodeArgs: flags,
      logFile: `bench/results/flags-ab-${name.toLowerCase()}.log`,
      name: `abacus-${name}`,
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, { entry });
    sides.push({ name, flags: [...flags, ...extraEnv], base, pid: serverPid(entry.child.pid), rates: [] });
  }
  log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(", ")}`,
  );
  for (let round = 0; round < Number(args.rounds); round++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const side of order) {
      const result = await burst(side.base);
      const rate = result.requests.total / Number(args.seconds);
      side.rates.push(rate);
      log(
        `round ${round + 1} ${side.name}: ${rate.toFixed(0)} req/s (errors ${result.errors}, non-2xx ${result.non2xx})`,
      );
    }
  }
  const [a, b] = sides;
  console.log(
    `Flags A/B, ${args.rounds} rounds of ${args.seconds} s, -c ${args.connections}, soak mix, ${new Date().toISOString()}`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(", ")}`,
  );
  for (const side of sides) {
    console.log(
      `${side.name} (npm start flags, plus: ${side.flags.join(" ") || "nothing"}): req/s ${side.rates.map((r) => r.toFixed(0)).join(", ")}; median ${median(side.rates).toFixed(0)}; RSS ${rssMb(side.pid).toFixed(0)} MB`,
    );
  }
  console.log(`B / A (medians): ${(median(b.rates) / median(a.rates)).toFixed(2)}`);
  await stopAll();
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
