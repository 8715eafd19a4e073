#!/usr/bin/env node
// `GET /api/auth/get-session` of a signed-in visitor (what the header asks on every page load),
// under autocannon, on Abacus production builds started the README's way.
//
//   node bench/session.mjs [--dist .next]... [--duration 10] [--connections 20] [--rounds 1] [--cpu-prof]
//
// Signs in as the seeded demo owner, then loads get-session with that cookie and prints req/s and
// latency. With several --dist, all the builds run side by side (each on its own database) and are
// measured in turn, round after round (A B A B …), so that they see the same machine load. With
// --cpu-prof the servers run under `node --cpu-prof` and the profiles are kept in
// bench/results/profiles/ (summarize one with `node bench/profile.mjs --summarize FILE`).
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
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
    dist: { type: "string", multiple: true, default: [".next"] },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    rounds: { type: "string", default: "1" },
    "cpu-prof": { type: "boolean", default: false },
  },
});

async function startOne(dist) {
  ensureAbacusBuild(dist);
  const name = path.basename(dist);
  const port = await freePort();
  const profDir = path.join(ROOT, `bench/results/profiles/session-tmp-${name}`);
  rmSync(profDir, { recursive: true, force: true });
  if (args["cpu-prof"]) mkdirSync(profDir, { recursive: true });
  const entry = startAbacus({
    port,
    name: `abacus ${name}`,
    dataDir: `.test-data/perf-session-${name.replace(/^\./, "")}`,
    distDir: dist,
    nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
    logFile: path.join(ROOT, `bench/results/session-${name}.log`),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, { entry });
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "owner@abacus.local", password: "abacus-demo-2026" }),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
  if (!signIn.ok || !cookie)
    throw new Error(`${dist}: sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const session = await (await fetch(`${base}/api/auth/get-session`, { headers: { cookie } })).json();
  if (!session?.user) throw new Error(`${dist}: get-session answered no user: ${JSON.stringify(session)}`);
  return { dist, name, entry, base, cookie, profDir, runs: [] };
}

const load = (server, duration) =>
  autocannon({
    url: `${server.base}/api/auth/get-session`,
    headers: { cookie: server.cookie },
    connections: Number(args.connections),
    duration,
  });

async function main() {
  stopAllOnExit();
  const servers = [];
  for (const dist of args.dist) servers.push(await startOne(dist));
  for (const server of servers) await load(server, 3); // warm-up
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const server of servers) {
      const result = await load(server, Number(args.duration));
      server.runs.push(result);
      log(
        `round ${round} ${server.dist}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
      );
    }
  }
  for (const server of servers) {
    const rps = server.runs.map((r) => Math.round(r.requests.average));
    const p99 = server.runs.map((r) => r.latency.p99);
    const mean = Math.round(rps.reduce((a, b) => a + b, 0) / rps.length);
    console.log(
      `get-session (signed in) ${server.dist}: ${mean} req/s mean of [${rps.join(", ")}], p99 [${p99.join(", ")}] ms, ${args.duration} s × ${args.connections} connections per round`,
    );
    await stop(server.entry);
    if (args["cpu-prof"]) {
      const file = readdirSync(server.profDir).find((n) => n.endsWith(".cpuprofile"));
      if (file) {
        const kept = path.join(
          ROOT,
          `bench/results/profiles/get-session-${server.name}-${Date.now()}.cpuprofile`,
        );
        renameSync(path.join(server.profDir, file), kept);
        log(`profile: ${path.relative(ROOT, kept)}`);
      }
    }
  }
  await stopAll();
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
