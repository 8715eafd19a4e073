#!/usr/bin/env node
// Password hashing under a sign-in flood: do a few clients signing in correctly (never rate-limited)
// push everyone else's sign-in out? Each attacker client keeps `--concurrency` sign-ins with the right
// password in flight; meanwhile another client signs in `--victim` times, one after another, and its
// latency is reported (median, p90, max), next to the same client's sign-ins with no attack.
//
//   node bench/hash-fairness.mjs [--dist .next]... [--port 3331] [--attackers 4] [--concurrency 4] [--victim 15]
//   node bench/hash-fairness.mjs --url http://127.0.0.1:3303   (a server started with TRUST_PROXY=1)
//
// Without --url it starts each build the README's way (fresh embedded database, seeded demo
// accounts) with TRUST_PROXY=1, and the bench acts as the proxy: every client is its own
// X-Forwarded-For address. Several --dist are measured in turn on one machine load (e.g. a build of
// the previous commit in .next-before against .next).
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureAbacusBuild, freePort, log, ROOT, startAbacus, stop, stopAllOnExit, waitFor } from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    dist: { type: "string", multiple: true, default: [".next"] },
    attackers: { type: "string", default: "4" },
    concurrency: { type: "string", default: "4" },
    victim: { type: "string", default: "15" },
    password: { type: "string", default: "abacus-demo-2026" },
    /** First port to start servers on (one per --dist, counting up); a free one when unset. */
    port: { type: "string" },
  },
});

const ACCOUNTS = ["owner@abacus.local", "member@abacus.local", "admin@abacus.local"];

async function signIn(base, email, address) {
  const started = performance.now();
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-forwarded-for": address },
    body: JSON.stringify({ email, password: args.password }),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const summary = (ms) =>
  `median ${quantile(ms, 0.5).toFixed(0)} ms, p90 ${quantile(ms, 0.9).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`;

async function victimRun(base, address, count) {
  const ms = [];
  const statuses = new Map();
  for (let i = 0; i < count; i++) {
    const result = await signIn(base, "member@abacus.local", address);
    ms.push(result.ms);
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
  }
  return { ms, statuses: Object.fromEntries(statuses) };
}

async function measure(base, label) {
  // Warm-up (first sign-in builds caches and the password policy's dictionaries).
  await signIn(base, "member@abacus.local", "10.77.200.1");
  const quiet = await victimRun(base, "10.77.100.1", Number(args.victim));
  log(`${label}: alone ${summary(quiet.ms)} ${JSON.stringify(quiet.statuses)}`);

  let running = true;
  const attackStarted = performance.now();
  const attackerStatuses = new Map();
  let attackerDone = 0;
  const loops = [];
  for (let a = 0; a < Number(args.attackers); a++) {
    for (let c = 0; c < Number(args.concurrency); c++) {
      loops.push(
        (async () => {
          let k = c;
          while (running) {
            const result = await signIn(base, ACCOUNTS[k++ % ACCOUNTS.length], `10.77.0.${a + 1}`);
            attackerDone++;
            attackerStatuses.set(result.status, (attackerStatuses.get(result.status) ?? 0) + 1);
          }
        })(),
      );
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 2000)); // let the queues fill
  const underLoad = await victimRun(base, "10.77.100.2", Number(args.victim));
  running = false;
  await Promise.all(loops);
  const seconds = (performance.now() - attackStarted) / 1000;
  const line =
    `${label}: ${args.attackers} clients x ${args.concurrency} concurrent correct sign-ins; another client's sign-in ` +
    `${summary(underLoad.ms)} ${JSON.stringify(underLoad.statuses)}; attackers ${(attackerDone / seconds).toFixed(1)}/s ` +
    `${JSON.stringify(Object.fromEntries(attackerStatuses))}`;
  console.log(`alone      ${label}: ${summary(quiet.ms)}`);
  console.log(`under load ${line.slice(label.length + 2)}`);
  return { quiet, underLoad };
}

async function main() {
  if (args.url) {
    await measure(args.url.replace(/\/$/, ""), args.url);
    return;
  }
  stopAllOnExit();
  for (const [index, dist] of args.dist.entries()) {
    ensureAbacusBuild(dist);
    const name = path.basename(dist);
    const port = args.port ? Number(args.port) + index : await freePort();
    const entry = startAbacus({
      port,
      name: `abacus ${name}`,
      dataDir: `.test-data/perf-hash-${name.replace(/^\./, "")}`,
      distDir: dist,
      env: { TRUST_PROXY: "1" },
      logFile: path.join(ROOT, `bench/results/hash-fairness-${name}.log`),
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, { entry });
    try {
      await measure(base, dist);
    } finally {
      await stop(entry);
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
