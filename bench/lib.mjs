// Shared by the HTTP benchmark, the soak and the two-instance script: start processes in their own
// process group, wait for them to answer, and stop every one of them (and their children) at the end.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const NEXT_VERSION = JSON.parse(
  readFileSync(path.join(ROOT, "node_modules/next/package.json"), "utf8"),
).version;

/**
 * The flags `npm start` gives the server's node (package.json's start script ends with
 * `node [FLAGS] dist/server.mjs`), so every script here starts Abacus exactly the README's way.
 */
export const START_NODE_FLAGS = (() => {
  const { start } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts;
  const match = start.match(/\snode((?:\s+--\S+)*)\s+dist\/server\.mjs/);
  return match ? match[1].trim().split(/\s+/).filter(Boolean) : [];
})();

export const log = (message) => console.error(`\x1b[2m[bench]\x1b[0m ${message}`);

/** A free TCP port on loopback. */
export function freePort() {
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

const started = new Set();

/**
 * Starts a command in a process group of its own (so stopping it stops its children too: the
 * embedded PostgreSQL, Next.js workers). Output goes to `logFile`.
 */
export function start(name, command, args, { cwd = ROOT, env = {}, logFile } = {}) {
  const out = logFile ? openLog(logFile) : "ignore";
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", out, out],
    detached: true,
  });
  const entry = { name, child, exited: new Promise((resolve) => child.on("exit", resolve)) };
  started.add(entry);
  child.on("exit", () => started.delete(entry));
  return entry;
}

function openLog(file) {
  mkdirSync(path.dirname(file), { recursive: true });
  return openSync(file, "w");
}

/** Sends SIGINT to the process group, then SIGKILL if it has not exited within `graceMs`. */
export async function stop(entry, graceMs = 15_000) {
  if (entry.child.exitCode !== null || entry.child.signalCode !== null) return;
  const group = -entry.child.pid;
  try {
    process.kill(group, "SIGINT");
  } catch {
    return;
  }
  const timer = new Promise((resolve) => setTimeout(resolve, graceMs, "timeout"));
  if ((await Promise.race([entry.exited, timer])) === "timeout") {
    log(`${entry.name} did not stop in ${graceMs / 1000} s: killing it`);
    try {
      process.kill(group, "SIGKILL");
    } catch {}
    await entry.exited;
  }
}

/** Stops everything started through `start`, in reverse order. */
export async function stopAll() {
  for (const entry of [...started].reverse()) await stop(entry);
}

let cleaning = false;
/** On Ctrl-C or an uncaught error, stop everything before exiting. */
export function stopAllOnExit() {
  const bail = async (code) => {
    if (cleaning) return;
    cleaning = true;
    await stopAll();
    process.exit(code);
  };
  process.on("SIGINT", () => bail(130));
  process.on("SIGTERM", () => bail(143));
  process.on("uncaughtException", (error) => {
    console.error(error);
    bail(1);
  });
  process.on("unhandledRejection", (error) => {
    console.error(error);
    bail(1);
  });
}

/** Polls `url` until it answers with a status below 500 (or `timeoutMs` passes). */
export async function waitFor(url, { timeoutMs = 180_000, entry } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (entry && (entry.child.exitCode !== null || entry.child.signalCode !== null)) {
      throw new Error(`${entry.name} exited before answering on ${url}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`nothing answered on ${url} within ${timeoutMs / 1000} s`);
}

/** Builds Abacus into `distDir` unless a build is already there (what `npm start` does). */
export function ensureAbacusBuild(distDir = ".next") {
  if (existsSync(path.join(ROOT, distDir, "BUILD_ID"))) return;
  log(`no production build in ${distDir}: running next build (once)`);
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir },
  });
  if (result.status !== 0) throw new Error("next build failed");
  // As `npm run build` does: the Brotli copies the server sends of the build's scripts and styles.
  const copies = spawnSync(process.execPath, [path.join(ROOT, "scripts/build/precompress-static.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (copies.status !== 0) throw new Error("precompress-static failed");
}

/**
 * Starts Abacus the README's way (`npm start`: run-with-db.mjs --migrate --seed node dist/server.mjs)
 * on its own embedded PostgreSQL in `dataDir`, on loopback.
 */
/** The connection URL of the embedded PostgreSQL that run-with-db.mjs keeps in `dataDir` (running). */
export function embeddedDatabaseUrl(dataDir) {
  const state = JSON.parse(readFileSync(path.join(ROOT, dataDir, "postgres.json"), "utf8"));
  const port = readFileSync(path.join(ROOT, dataDir, "pg/postmaster.pid"), "utf8").split("\n")[3];
  return `postgres://${state.user}:${encodeURIComponent(state.password)}@127.0.0.1:${port}/${state.database}`;
}

/** Bundles the server (src/edge) into dist/server.mjs, as `npm start` does before it runs it. */
function bundleServer() {
  const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/build/server.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("bundling the server failed");
}

export function startAbacus({
  port,
  dataDir = ".test-data/bench",
  fresh = true,
  distDir = ".next",
  env = {},
  nodeArgs = [],
  logFile,
  name = "abacus",
}) {
  const flags = ["--data", dataDir, ...(fresh ? ["--fresh"] : []), "--migrate", "--seed"];
  bundleServer();
  return start(
    name,
    process.execPath,
    [
      "scripts/db/run-with-db.mjs",
      ...flags,
      process.execPath,
      ...START_NODE_FLAGS,
      ...nodeArgs,
      "dist/server.mjs",
    ],
    {
      env: { PORT: String(port), HOST: "127.0.0.1", NEXT_DIST_DIR: distDir, NODE_ENV: "production", ...env },
      logFile,
    },
  );
}

// ---- The blank Next.js app the benchmark compares against ----

const BLANK_FILES = {
  "package.json": `${JSON.stringify({ name: "blank-next", private: true, type: "module" }, null, 2)}\n`,
  // The app lives outside the repository (inside it, Turbopack would pick up the repository's own
  // src/instrumentation.ts and src/proxy.ts) and reaches this repository's node_modules through a
  // symlink; the Turbopack root is "/" so that the symlink's target is inside it.
  "next.config.mjs": `export default { poweredByHeader: false, turbopack: { root: "/" } };\n`,
  "app/layout.js": `export const metadata = { title: "Blank" };
export default function RootLayout({ children }) {
  return (<html lang="en"><body>{children}</body></html>);
}
`,
  "app/page.js": `export default function Page() {
  return (<main><h1>Hello</h1><p>A blank Next.js page.</p></main>);
}
`,
  "app/api/get/route.js": `export const dynamic = "force-dynamic";
export async function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
`,
  "app/api/post/route.js": `export const dynamic = "force-dynamic";
export async function POST(request) {
  const body = await request.json();
  return Response.json({ received: typeof body }, { headers: { "Cache-Control": "no-store" } });
}
`,
};

/**
 * Generates (and builds, once) a blank Next.js app of the version this repository uses, in
 * $TMPDIR/abacus-bench-blank-next-<version>-<checkout>. It resolves `next` from this repository's node_modules: no network.
 * A stamp of the files and the Next.js version decides whether the cached build is still good.
 */
export function ensureBlankApp() {
  // Per checkout: the app links this checkout's node_modules, so a copy made from another checkout
  // (a worktree since removed) must not be reused.
  const checkout = createHash("sha256").update(ROOT).digest("hex").slice(0, 8);
  const dir = path.join(tmpdir(), `abacus-bench-blank-next-${NEXT_VERSION}-${checkout}`);
  const stamp = createHash("sha256")
    .update(NEXT_VERSION)
    .update(ROOT)
    .update(JSON.stringify(BLANK_FILES))
    .digest("hex")
    .slice(0, 16);
  const stampFile = path.join(dir, ".stamp");
  if (
    existsSync(path.join(dir, ".next/BUILD_ID")) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, "utf8") === stamp
  ) {
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [file, text] of Object.entries(BLANK_FILES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  log(`building the blank Next.js ${NEXT_VERSION} app in ${dir} (once)`);
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: dir,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("building the blank Next.js app failed");
  writeFileSync(stampFile, stamp);
  return dir;
}

/** Starts the blank app with `next start` on loopback. */
export function startBlank(dir, port, logFile) {
  return start("blank-next", process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: { NODE_ENV: "production" },
    logFile,
  });
}
