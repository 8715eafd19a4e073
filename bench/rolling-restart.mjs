#!/usr/bin/env node
// A rolling restart under load: two Abacus instances on one PostgreSQL behind Debian's nginx, steady
// autocannon load through nginx, and each instance in turn sent SIGTERM (it turns not-ready, stops
// accepting, finishes what it is answering, closes its pools and exits), started again and waited
// for on /api/health/ready before the next one goes. The target: no answer other than 2xx and no
// connection error over the whole run. Prints the counts, the longest request and the timeline.
//
//   node bench/rolling-restart.mjs [--dist .next] [--connections 10] [--path /] [--keep-config]
//
// Everything listens on loopback; the embedded PostgreSQL (.test-data/rolling) is held by a process
// of its own, so restarting an instance never restarts the database. Stops everything it started.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { nginxConfig } from "./instances.mjs";
import {
  ensureAbacusBuild,
  freePort,
  log,
  start,
  startAbacus,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    connections: { type: "string", default: "10" },
    path: { type: "string", default: "/" },
    "keep-config": { type: "boolean", default: false },
  },
});

const DATA = ".test-data/rolling";
const readLog = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const [portA, portB, portLb] = [await freePort(), await freePort(), await freePort()];
  const lb = `http://127.0.0.1:${portLb}`;
  const dir = path.join(tmpdir(), `abacus-rolling-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const shared = { AUTH_SECRET: `rolling-test-${"x".repeat(40)}`, APP_URL: lb, TRUST_PROXY: "1" };

  // The database, held by a process that only waits, so that it outlives every instance restart.
  const db = start(
    "database",
    process.execPath,
    [
      "scripts/db/run-with-db.mjs",
      "--data",
      DATA,
      "--fresh",
      "--migrate",
      "--seed",
      process.execPath,
      "-e",
      "setInterval(() => {}, 1 << 30)",
    ],
    { logFile: path.join(dir, "db.log") },
  );
  const instance = (name, port, n) =>
    startAbacus({
      name,
      port,
      dataDir: DATA,
      fresh: false,
      distDir: args.dist,
      env: shared,
      logFile: path.join(dir, `${name}-${n}.log`),
    });
  // Ready once it has seeded (then it only waits).
  for (let i = 0; !readLog(path.join(dir, "db.log")).includes("seeded"); i++) {
    if (i > 600 || db.child.exitCode !== null)
      throw new Error(`the database did not start (see ${dir}/db.log)`);
    await sleep(200);
  }
  const instances = { A: { port: portA }, B: { port: portB } };
  for (const [name, it] of Object.entries(instances)) {
    it.entry = instance(name, it.port, 1);
    await waitFor(`http://127.0.0.1:${it.port}/api/health/ready`, { entry: it.entry });
  }
  writeFileSync(
    path.join(dir, "nginx.conf"),
    nginxConfig({
      listen: `127.0.0.1:${portLb}`,
      upstreams: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`],
      dir,
    }),
  );
  const nginx = start("nginx", "/usr/sbin/nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
    logFile: path.join(dir, "nginx.out"),
  });
  await waitFor(`${lb}/api/health/live`, { entry: nginx });
  log(`A on :${portA}, B on :${portB}, nginx on ${lb}, database held by pid ${db.child.pid}; logs in ${dir}`);

  const t0 = performance.now();
  const at = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const timeline = [];
  const note = (event) => {
    timeline.push(`${at()} ${event}`);
    log(event);
  };
  let stopLoad = false;
  const load = autocannon({
    url: `${lb}${args.path}`,
    connections: Number(args.connections),
    duration: 600,
    headers: { "accept-encoding": "gzip, br" },
  });
  const loadStarted = performance.now();
  const loadDone = new Promise((resolve) => load.on("done", resolve));
  await sleep(3000);
  for (const [name, it] of Object.entries(instances)) {
    note(`SIGTERM to ${name}`);
    // run-with-db passes the signal to the server it runs.
    process.kill(it.entry.child.pid, "SIGTERM");
    const started = performance.now();
    await it.entry.exited;
    note(`${name} exited after ${Math.round(performance.now() - started)} ms`);
    it.entry = instance(name, it.port, 2);
    await waitFor(`http://127.0.0.1:${it.port}/api/health/ready`, { entry: it.entry });
    note(`${name} ready again`);
    await sleep(3000);
  }
  stopLoad = true;
  load.stop();
  const result = await loadDone;
  const loadSeconds = ((performance.now() - loadStarted) / 1000).toFixed(1);
  note("load stopped");
  await stopAll();
  if (!args["keep-config"]) rmSync(dir, { recursive: true, force: true });
  const lost = result.errors + result.timeouts + result.non2xx;
  console.log(
    [
      `Rolling restart of two instances behind nginx under load (${args.connections} connections, GET ${args.path}), ${new Date().toISOString()}:`,
      `- ${result.requests.total} requests over ${loadSeconds} s: ${result["2xx"]} 2xx, ${result.non2xx} other, ${result.errors} connection errors, ${result.timeouts} timeouts`,
      `- latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, longest ${result.latency.max} ms`,
      ...timeline.map((line) => `- ${line}`),
      lost === 0 ? "PASS: nothing lost" : `FAIL: ${lost} requests lost`,
    ].join("\n"),
  );
  process.exit(lost === 0 && stopLoad ? 0 : 1);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
