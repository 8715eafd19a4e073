/**
 * `/metrics` in Prometheus's text format (prom-client), answered by the server itself, only when
 * METRICS_TOKEN is set and the request carries it as a bearer token.
 *
 * Labels are bounded: a request is counted under its route pattern, the page or route file Next.js
 * built it from (`/api/auth/[...all]`, `/pricing`: read from the build's routes manifest), under
 * `/_next/static/*` for build files, or under `(unmatched)`; never under its raw path.
 */
import { timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Sql } from "postgres";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AppPoolStats } from "@/core/http/edge-contract";
import {
  JOB_QUEUE_EXISTS_SQL,
  JOB_QUEUE_SQL,
  JOB_STATES,
  type JobQueueRow,
  type JobQueueState,
  jobQueueState,
} from "@/core/jobs/queue";

export const METRICS_PATH = "/metrics";

type Route = { page: string; regex: RegExp };

/** The build's routes, static first (as Next.js matches them), from `<distDir>/routes-manifest.json`. */
export function readRoutes(distDir: string): Route[] {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, "routes-manifest.json"), "utf8")) as {
      staticRoutes?: { page: string; regex: string }[];
      dynamicRoutes?: { page: string; regex: string }[];
    };
    return [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])].map((route) => ({
      page: route.page,
      regex: new RegExp(route.regex),
    }));
  } catch {
    return [];
  }
}

/** The route pattern a request path is counted under (one of a fixed set). */
/** Paths already matched, so that a request costs one Map lookup instead of a scan of every route. */
const matched = new WeakMap<Route[], Map<string, string>>();
/** Bounded: a flood of distinct paths (404 probes) only empties it now and then. */
const MAX_MATCHED = 2_048;

export function routePattern(routes: Route[], url: string | undefined): string {
  const pathname = (url ?? "/").split("?", 1)[0] ?? "/";
  let memo = matched.get(routes);
  if (!memo) {
    memo = new Map();
    matched.set(routes, memo);
  }
  const known = memo.get(pathname);
  if (known !== undefined) return known;
  const route = matchRoute(routes, pathname);
  if (memo.size >= MAX_MATCHED) memo.clear();
  memo.set(pathname, route);
  return route;
}

function matchRoute(routes: Route[], pathname: string): string {
  if (pathname.startsWith("/_next/static/")) return "/_next/static/*";
  if (pathname === METRICS_PATH) return METRICS_PATH;
  if (pathname.startsWith("/api/health/"))
    return pathname === "/api/health/live" || pathname === "/api/health/ready" ? pathname : "(unmatched)";
  for (const route of routes) if (route.regex.test(pathname)) return route.page;
  return "(unmatched)";
}

/** Why the server itself refused a request (the `reason` label of abacus_edge_refusals_total). */
export type RefusalReason =
  | "payload_too_large"
  | "invalid_path"
  | "invalid_origin"
  | "cross_origin_action"
  | "client_queue_full"
  | "repeated_refusal"
  /** A client's open connections at CLIENT_MAX_CONNECTIONS: the newest is reset before any byte is read. */
  | "client_connection_cap"
  /** All open connections at SERVER_MAX_CONNECTIONS: Node drops the new one in its accept path. */
  | "server_connection_cap";

export interface Metrics {
  /** Counts `req` once its answer is finished (status, latency) under its route pattern. */
  observe(req: IncomingMessage, res: ServerResponse): void;
  refused(reason: RefusalReason): void;
  /** Answers `/metrics`; false for any other request. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  readonly registry: Registry;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** How long a scrape's reading of the job queue is reused (scrapes from several Prometheus servers). */
export const JOB_QUEUE_CACHE_MS = 5_000;

export function createMetrics({
  token,
  routes,
  sql,
  pool = () => undefined,
  now = Date.now,
}: {
  /** METRICS_TOKEN; without it `/metrics` answers 404 and nothing is exposed. */
  token: string | undefined;
  routes: Route[];
  /** A connection of the server's own, for the counts read at scrape time. */
  sql: Sql | undefined;
  /** The app pool's counts (src/server/db/client.ts), once a request opened the pool. */
  pool?: () => AppPoolStats | undefined;
  now?: () => number;
}): Metrics {
  const registry = new Registry();
  // Event-loop lag, memory, CPU, handles: prom-client's standard process and Node.js metrics.
  collectDefaultMetrics({ register: registry });
  // Three of those are gauges named like counters (`*_total`), which `promtool check metrics`
  // rejects; their per-type twins (`nodejs_active_handles{type}`…) stay, and sum() to the same.
  for (const name of [
    "nodejs_active_handles_total",
    "nodejs_active_requests_total",
    "nodejs_active_resources_total",
  ])
    registry.removeSingleMetric(name);
  const requests = new Counter({
    name: "abacus_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status.",
    labelNames: ["route", "method", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "abacus_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by route pattern and method.",
    labelNames: ["route", "method"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: "abacus_edge_refusals_total",
    help: "Requests and connections the server refused before the app, by reason.",
    labelNames: ["reason"],
    registers: [registry],
  });
  const counted = (name: string, help: string, label: string, query: string) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        if (!sql) return;
        this.reset();
        const rows = await sql.unsafe<{ key: string; count: string }[]>(query).catch(() => []);
        for (const row of rows) this.set({ [label]: row.key }, Number(row.count));
      },
    });
  counted(
    "abacus_mail_outbox",
    "Mail in the outbox, by status.",
    "status",
    "select status as key, count(*) as count from mail_outbox group by status",
  );
  counted(
    "abacus_payments",
    "Payment attempts recorded, by outcome.",
    "outcome",
    "select status as key, count(*) as count from payments group by status",
  );

  // The app's database pool: counted by the app (src/server/db/client.ts), read here at scrape time.
  new Gauge({
    name: "abacus_db_pool_size",
    help: "Connections the app's database pool may open (DATABASE_POOL_SIZE).",
    registers: [registry],
    collect() {
      const stats = pool();
      if (stats) this.set(stats.size);
    },
  });
  new Gauge({
    name: "abacus_db_pool_in_use",
    help: "Connections of the app's database pool running a query or holding a transaction.",
    registers: [registry],
    collect() {
      const stats = pool();
      this.set(stats ? Math.min(stats.active, stats.size) : 0);
    },
  });
  new Gauge({
    name: "abacus_db_pool_waiting",
    help: "Queries and transactions waiting for a connection of the app's database pool.",
    registers: [registry],
    collect() {
      const stats = pool();
      this.set(stats ? Math.max(0, stats.active - stats.size) : 0);
    },
  });
  new Counter({
    name: "abacus_db_pool_waits_total",
    help: "Queries and transactions that started while every connection of the app's pool was taken.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pool()?.waited ?? 0);
    },
  });

  // The billing clock's job queue (graphile-worker's tables), read at most every JOB_QUEUE_CACHE_MS.
  let queueRead: { at: number; state: Promise<JobQueueState | null> } | undefined;
  const readQueue = (): Promise<JobQueueState | null> => {
    if (!sql) return Promise.resolve(null);
    if (queueRead && now() - queueRead.at < JOB_QUEUE_CACHE_MS) return queueRead.state;
    const state = (async () => {
      const [schema] = await sql.unsafe<{ exists: boolean }[]>(JOB_QUEUE_EXISTS_SQL);
      if (!schema?.exists) return null;
      const [row] = await sql.unsafe<JobQueueRow[]>(JOB_QUEUE_SQL);
      return row ? jobQueueState(row) : null;
    })().catch(() => null);
    queueRead = { at: now(), state };
    return state;
  };
  new Gauge({
    name: "abacus_jobs",
    help: "Jobs of the billing clock's queue, by state: due (waiting for a worker), scheduled (later), running, failed (every attempt used).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      const queue = await readQueue();
      if (queue) for (const state of JOB_STATES) this.set({ state }, queue[state]);
    },
  });
  new Gauge({
    name: "abacus_jobs_oldest_due_age_seconds",
    help: "How long the oldest due job of the billing clock's queue has waited (0: none due).",
    registers: [registry],
    async collect() {
      this.reset();
      const queue = await readQueue();
      if (queue) this.set(queue.oldestDueAt ? Math.max(0, (now() - queue.oldestDueAt.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: "abacus_billing_last_run_timestamp_seconds",
    help: "When the billing clock's tick last ran, on any instance (Unix time).",
    registers: [registry],
    async collect() {
      this.reset();
      const queue = await readQueue();
      if (queue?.lastTickAt) this.set(queue.lastTickAt.getTime() / 1000);
    },
  });

  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;

  return {
    registry,
    observe(req, res) {
      const started = performance.now();
      const method = METHODS.has(req.method ?? "") ? (req.method as string) : "OTHER";
      const route = routePattern(routes, req.url);
      res.once("close", () => {
        const status = String(res.statusCode);
        requests.inc({ route, method, status });
        duration.observe({ route, method }, (performance.now() - started) / 1000);
      });
    },
    refused(reason) {
      refusals.inc({ reason });
    },
    answer(req, res) {
      const pathname = (req.url ?? "/").split("?", 1)[0];
      if (pathname !== METRICS_PATH) return false;
      const given = Buffer.from(String(req.headers.authorization ?? ""));
      if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        // Off, or not the token: as if there were no such page.
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
        res.end("Not found\n");
        return true;
      }
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
          res.end(text);
        },
        () => {
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
          res.end("metrics failed\n");
        },
      );
      return true;
    },
  };
}
