#!/usr/bin/env node
// `GET /api/auth/get-session` of a signed-in visitor (what the header asks on every page load),
// under autocannon, on an Abacus production build started the README's way.
//
//   node bench/session.mjs [--dist .next] [--duration 10] [--connections 20] [--cpu-prof]
//
// Signs in as the seeded demo owner, then loads get-session with that cookie and prints req/s and
// latency. With --cpu-prof the server runs under `node --cpu-prof` and the profile's summary is
// printed (the file is kept in bench/results/profiles/).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
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

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    "cpu-prof": { type: "boolean", default: false },
  },
});

async function main() {
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const port = await freePort();
  const profDir = path.join(ROOT, "bench/results/profiles/session-tmp");
  rmSync(profDir, { recursive: true, force: true });
  if (args["cpu-prof"]) mkdirSync(profDir, { recursive: true });
  const abacus = startAbacus({
    port,
    dataDir: ".test-data/perf-session",
    distDir: args.dist,
    nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
    logFile: path.join(ROOT, "bench/results/session-abacus.log"),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, { entry: abacus });
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "owner@abacus.local", password: "abacus-demo-2026" }),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
  if (!signIn.ok || !cookie) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const check = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
  const session = await check.json();
  if (!session?.user) throw new Error(`get-session answered no user: ${JSON.stringify(session)}`);
  const run = (duration) =>
    autocannon({
      url: `${base}/api/auth/get-session`,
      headers: { cookie },
      connections: Number(args.connections),
      duration,
    });
  await run(3); // warm-up
  const startedAt = Date.now();
  const result = await run(Number(args.duration));
  const non2xx = result.non2xx;
  console.log(
    `get-session (signed in): ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${non2xx}, ${args.duration} s × ${args.connections} connections`,
  );
  await stop(abacus);
  if (args["cpu-prof"]) {
    const file = readdirSync(profDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error("no profile written");
    const kept = path.join(ROOT, `bench/results/profiles/get-session-${Date.now()}.cpuprofile`);
    renameSync(path.join(profDir, file), kept);
    const profile = JSON.parse(readFileSync(kept, "utf8"));
    const skip = (profile.endTime - profile.startTime) / 1e6 - (Date.now() - startedAt) / 1000;
    log(`profile: ${path.relative(ROOT, kept)} (load phase starts ${skip.toFixed(1)} s in)`);
  }
  await stopAll();
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
