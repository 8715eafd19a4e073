// The HTTP entry point: Next.js behind a small Node server of our own, to know the client's
// address. Next.js keeps any X-Forwarded-For header a client sends, so rate limits keyed on it
// could be dodged by sending a fake one. Here the header is replaced by the socket's address, or,
// when TRUST_PROXY=N, by the address N proxies back in the chain they appended. The same goes for
// X-Forwarded-Host/Proto (Next.js's server-action origin check trusts them), a malformed Origin
// gets a clean 400, an https APP_URL adds Strict-Transport-Security, and one client can have only
// CLIENT_MAX_ACTIVE requests in progress at once (edge.ts, request-guard.ts).
// Before any request: at most CLIENT_MAX_CONNECTIONS open connections per client address and
// SERVER_MAX_CONNECTIONS in all (kept below the open-file limit, so the database pool can always
// open its sockets), and half-sent requests and idle connections are closed within seconds.
//
// Bundled by scripts/build/server.mjs into dist/server.mjs, which `npm start` / `npm run dev` run
// through run-with-db.mjs:   node dist/server.mjs [--dev]
import { readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import next from "next";
import postgres, { type Sql } from "postgres";
import { APP_POOL_GLOBAL, type AppPoolStats } from "@/core/http/edge-contract";
import { readServerConfig } from "./config";
import { createEdgeHandler, createEdgeServer } from "./edge";
import { createHealth, latestMigration } from "./health";
import { listenOrExit } from "./listen";
import { createLogger, routeConsole } from "./log";
import { createMetrics, readRoutes } from "./metrics";
import { createPageCache, fxVersionReader } from "./page-cache";
import { edgeSecurityHeaders } from "./request-guard";
import { createStaticAssets } from "./static-assets";

const dev = process.argv.includes("--dev");
const read = readServerConfig(process.env);
if (read.errors) {
  console.error(`Invalid configuration:\n${read.errors.join("\n")}`);
  process.exit(1);
}
const { config } = read;
const { port, host } = config;
const log = createLogger({ dev });
// In production every line the process prints is JSON: the app's and Next.js's console output too.
if (!dev) routeConsole(log);

const distDir = process.env.NEXT_DIST_DIR || ".next";
// In production, Next.js takes the configuration the build resolved, as its own standalone server
// does: loading next.config.ts again would compile it with SWC, whose native library (~26 MB) then
// stays mapped in the server's memory.
if (!dev) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(builtConfig(distDir));
const app = next({ dev, hostname: "localhost", port });
await app.prepare();

// Whole-page answers kept in memory (page-cache.ts): the prerendered public pages, and
// /pricing per FX version, checked against the database on every request (so never stale, also
// behind a load balancer), on one connection of its own. Not in development (pages change there).
const versionSql = process.env.DATABASE_URL
  ? postgres(process.env.DATABASE_URL, { max: 1, idle_timeout: 30, connect_timeout: 5, onnotice: () => {} })
  : undefined;
const pageCache = dev
  ? undefined
  : createPageCache({
      routes: [
        { path: "/", params: [], prerendered: true },
        { path: "/docs", params: [], prerendered: true },
        { path: "/contact", params: [], prerendered: true },
        ...(versionSql ? [{ path: "/pricing", params: ["currency", "interval"] }] : []),
      ],
      readVersion: versionSql ? fxVersionReader(versionSql) : () => Promise.reject(new Error("no database")),
    });

// The build's scripts and style sheets in Brotli (made by `npm run build`), kept in memory.
const staticAssets = dev ? undefined : createStaticAssets({ distDir });

// Readiness reads the migrations table on a connection of its own (never queued behind the app's).
const healthSql = process.env.DATABASE_URL
  ? postgres(process.env.DATABASE_URL, { max: 1, idle_timeout: 30, connect_timeout: 2, onnotice: () => {} })
  : undefined;
const health = createHealth({
  sql: healthSql,
  expectedMigration: latestMigration(),
  headers: edgeSecurityHeaders(dev),
});

const metrics = createMetrics({
  token: config.metricsToken,
  routes: readRoutes(distDir),
  sql: healthSql,
  pool: () => appPoolEntry()?.stats ?? { size: config.databasePoolSize, active: 0, waited: 0 },
});

const server = createEdgeServer(
  createEdgeHandler(app.getRequestHandler(), { ...config, pageCache, staticAssets, health, log, metrics }),
  config,
);
server.connections.onRefused = (cap) =>
  metrics.refused(cap === "client" ? "client_connection_cap" : "server_connection_cap");
// A taken port ends this process with a message and code 1 (listen.ts).
listenOrExit(server, { port, host }, async () => {
  if (!dev) await warmUp();
  log.info(
    { event: "ready", port, dev },
    `Abacus ${dev ? "(development) " : ""}ready on http://localhost:${port}`,
  );
});

/**
 * Asks this server once for what every visitor's first page load asks for, before saying it is ready:
 * the first call of a route pays one-time work in that event-loop turn (Better Auth builds its context
 * and router, the database pool connects: ~300 ms on a 2-core machine; the first dynamic page ~800 ms),
 * which otherwise falls on the first visitor and on everyone waiting behind them. Bounded: failures and a slow answer only skip it.
 */
async function warmUp() {
  const origin = `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`;
  const signal = AbortSignal.timeout(5_000); // all of it: a database that does not answer delays start 5 s at most
  // (a dynamic page: the first one rendered loads React's server renderer, ~800 ms in one turn)
  for (const path of [
    "/api/health",
    "/api/auth/get-session",
    "/api/me",
    "/api/monitoring/config",
    "/sign-in",
  ]) {
    try {
      const response = await fetch(`${origin}${path}`, { signal });
      await response.arrayBuffer();
    } catch {}
  }
}

/**
 * Graceful shutdown on SIGTERM (or SIGINT): readiness answers 503 at once (`draining`), the server
 * stops accepting connections and closes its idle keep-alive ones, every answer still in flight is
 * finished (each with `Connection: close`), for at most SHUTDOWN_TIMEOUT_MS; then the connections
 * left are cut, the database pools closed, and the process exits.
 */
let closing = false;
async function shutDown(signal: string) {
  if (closing) return;
  closing = true;
  const started = Date.now();
  log.info(
    { event: "draining", signal, timeoutMs: config.shutdownTimeoutMs },
    `Abacus: ${signal}: draining (at most ${config.shutdownTimeoutMs} ms for requests in flight)`,
  );
  health.drain();
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection whose answer was under way is closed as soon as that answer is out.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  const timedOut = new Promise<"timeout">((resolve) =>
    setTimeout(resolve, config.shutdownTimeoutMs, "timeout").unref(),
  );
  if ((await Promise.race([drained, timedOut])) === "timeout") {
    log.warn({ event: "shutdown-timeout" }, "requests still in flight at the shutdown timeout: closing them");
    server.closeAllConnections();
  }
  clearInterval(idle);
  const pools = [versionSql, healthSql, appPool()].filter((pool) => pool !== undefined);
  await Promise.allSettled(pools.map((pool) => pool.end({ timeout: 5 })));
  log.info({ event: "stopped", ms: Date.now() - started }, "Abacus stopped");
  await new Promise<void>((resolve) => log.flush(() => resolve()));
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutDown(signal));

/** The app's database pool and its counts, when a request has opened it (src/server/db/client.ts). */
function appPoolEntry(): { sql?: Sql; stats?: AppPoolStats } | undefined {
  return (globalThis as unknown as Record<string, { sql?: Sql; stats?: AppPoolStats } | undefined>)[
    APP_POOL_GLOBAL
  ];
}
function appPool(): Sql | undefined {
  return appPoolEntry()?.sql;
}

/** The Next.js configuration the build resolved (`required-server-files.json`), for this build folder. */
function builtConfig(dir: string) {
  const file = path.join(dir, "required-server-files.json");
  const { config } = JSON.parse(readFileSync(file, "utf8")) as { config: Record<string, unknown> };
  return { ...config, distDir: dir };
}
