#!/usr/bin/env node
// HTTP throughput of Abacus against a blank Next.js app of the same version, in one run.
//
//   node bench/http.mjs [--duration 10] [--connections 20] [--dist .next] [--only /,/pricing]
//                       [--cpu-prof DIR] [--api-key KEY] [--json FILE]
//
// Builds (once, cached in bench/.blank-next) and starts a blank Next.js app (one static page, one
// GET and one POST route handler) beside an Abacus production build started the README's way
// (run-with-db.mjs --migrate --seed node dist/server.mjs, on its own embedded PostgreSQL in
// .test-data/bench). Both listen on loopback only. Every Abacus request is measured right after its
// blank counterpart (autocannon, same connections and duration), so the ratio compares two numbers
// taken under the same machine load. Everything started is stopped at the end (also on Ctrl-C).
//
// --dist      the Abacus build folder (NEXT_DIST_DIR), e.g. to compare two builds
// --cpu-prof  writes V8 CPU profiles of the Abacus server to DIR (open them in Chrome DevTools)
// --api-key   an API key for the keyed row (also BENCH_API_KEY); without one the bench makes one,
//             see keyedRequest() below
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import autocannon from "autocannon";
import postgres from "postgres";
import { listenerPid, procStats } from "./lib/probe-kit.mjs";
import {
  embeddedDatabaseUrl,
  ensureAbacusBuild,
  ensureBlankApp,
  freePort,
  log,
  NEXT_VERSION,
  ROOT,
  startAbacus,
  startBlank,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    dist: { type: "string", default: ".next" },
    only: { type: "string" },
    "cpu-prof": { type: "string" },
    "api-key": { type: "string" },
    json: { type: "string" },
    // Extra flags for the Abacus server's node, for experiments (e.g. --node-arg=--max-semi-space-size=8).
    "node-arg": { type: "string", multiple: true, default: [] },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const warmup = Number(args.warmup);

// What Chromium sends.
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const CALC_BODY = JSON.stringify({ expression: "(1234.5678 * 3 + 0.1) / 7", precision: 34 });

/**
 * The rows of the table: each Abacus request beside the blank request it is compared with.
 * `blank` names the blank app's counterpart: its static page, its GET or its POST route handler.
 */
const ROWS = [
  { name: "GET / (static)", path: "/", blank: "static" },
  { name: "GET /pricing", path: "/pricing", blank: "static" },
  { name: "GET /docs (static)", path: "/docs", blank: "static" },
  // As a browser asks (autocannon sends no Accept-Encoding): /docs is ~250 KB of HTML, and without
  // compression its row measures mostly the bytes the load generator has to read.
  {
    name: "GET /docs (static, as browsers ask)",
    path: "/docs",
    headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING },
    blank: "staticCompressed",
  },
  { name: "GET /api/health", path: "/api/health", blank: "get" },
  // Liveness, answered by the edge (src/edge/health.ts) without Next.js or the database.
  { name: "GET /api/health/live", path: "/api/health/live", blank: "get" },
  {
    name: "POST /api/v1/calculate (anonymous)",
    path: "/api/v1/calculate",
    method: "POST",
    body: CALC_BODY,
    blank: "post",
  },
  {
    name: "POST /api/v1/calculate (keyed)",
    path: "/api/v1/calculate",
    method: "POST",
    body: CALC_BODY,
    blank: "post",
    keyed: true,
  },
];

const BLANK = {
  static: { path: "/" },
  staticCompressed: { path: "/", headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } },
  get: { path: "/api/get" },
  post: { path: "/api/post", method: "POST", body: CALC_BODY },
};

// ---- Keyed API calls -----------------------------------------------------------------------------
// With --api-key (or BENCH_API_KEY) that key is used. Otherwise the bench gives the seeded Demo
// Company (owner@abacus.local, Pro plan) a key of its own, written straight into the bench's embedded
// database as the app writes keys (only the SHA-256 of the secret is stored), so the row measures the
// keyed path: lookup, plan quota and burst limit, usage counting.
async function keyedRequest() {
  let key = args["api-key"] ?? process.env.BENCH_API_KEY;
  if (!key) {
    key = `abk_${randomBytes(32).toString("base64url")}`;
    const sql = postgres(embeddedDatabaseUrl(".test-data/bench"), { max: 1, onnotice: () => {} });
    try {
      const [owner] = await sql`
        select m.organization_id, m.user_id from member m join "user" u on u.id = m.user_id
        where u.email = 'owner@abacus.local' and m.role = 'owner' limit 1`;
      if (!owner) return { unavailable: "not available: the seeded owner is missing" };
      await sql`
        insert into api_keys (organization_id, created_by, name, prefix, hash)
        values (${owner.organization_id}, ${owner.user_id}, 'bench/http.mjs', ${key.slice(0, 12)},
                ${createHash("sha256").update(key).digest("hex")})`;
    } finally {
      await sql.end();
    }
  }
  return { headers: { authorization: `Bearer ${key}` } };
}
// --------------------------------------------------------------------------------------------------

function cannon(url, { method = "GET", body, headers = {} }, seconds, conns) {
  return autocannon({
    url,
    method,
    body,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    connections: conns,
    duration: seconds,
    timeout: 10,
  });
}

/**
 * One autocannon run, with the CPU it cost on each side: the server's (µs per answered request, from
 * /proc of the process listening on the port) and this load generator's (share of one core). When
 * the load generator is near a whole core, req/s measures the client, not the server: a large page
 * then reads slower than the server is, and the server's CPU per request is the fair comparison.
 */
async function measure(baseUrl, request) {
  const url = `${baseUrl}${request.path}`;
  if (warmup > 0) await cannon(url, request, warmup, Math.min(connections, 5));
  const pid = listenerPid(Number(new URL(baseUrl).port));
  const serverBefore = procStats(pid).cpuSeconds;
  const clientBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await cannon(url, request, duration, connections);
  const client = process.cpuUsage(clientBefore);
  const wallMs = performance.now() - wallBefore;
  const serverSeconds = procStats(pid).cpuSeconds - serverBefore;
  const codes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
  );
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    codes,
    errors: result.errors + result.timeouts,
    serverUsPerRequest:
      result.requests.total > 0 ? (serverSeconds * 1e6) / result.requests.total : Number.NaN,
    clientCore: (client.user + client.system) / 1000 / wallMs,
  };
}

/**
 * A page's HTML as sent uncompressed, gzipped and in Brotli (quality 11, what the page cache keeps
 * for prerendered pages), and how much of it is the inline RSC payload (`self.__next_f.push`).
 */
async function weight(url) {
  const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await response.arrayBuffer());
  const html = body.toString("utf8");
  let flight = 0;
  for (const match of html.matchAll(/<script>self\.__next_f\.push\(([\s\S]*?)\)<\/script>/g))
    flight += Buffer.byteLength(match[1]);
  const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { bytes: body.length, gzip: gzipSync(body).length, br, flight };
}

const fmtInt = (n) => Math.round(n).toLocaleString("en-US");
const fmtUs = (n) => (Number.isFinite(n) ? `${fmtInt(n)} µs` : "?");
const fmtCore = (n) => `${Math.round(n * 100)} %`;
const fmtKB = (n) => `${(n / 1024).toFixed(1)} KB`;
const fmtCodes = (codes) =>
  Object.entries(codes)
    .map(([code, count]) => `${code}×${count}`)
    .join(" ");

async function main() {
  stopAllOnExit();
  const rows = args.only ? ROWS.filter((row) => args.only.split(",").includes(row.path)) : ROWS;
  const runDir = path.join(ROOT, "bench/results");
  mkdirSync(runDir, { recursive: true });

  ensureAbacusBuild(args.dist);
  const blankDir = ensureBlankApp();
  const [blankPort, abacusPort] = [await freePort(), await freePort()];
  const blank = startBlank(blankDir, blankPort, path.join(runDir, "blank-next.log"));
  const cpuProf = args["cpu-prof"] ? path.resolve(args["cpu-prof"]) : null;
  if (cpuProf) mkdirSync(cpuProf, { recursive: true });
  const abacus = startAbacus({
    port: abacusPort,
    distDir: args.dist,
    nodeArgs: [...args["node-arg"], ...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${cpuProf}`] : [])],
    logFile: path.join(runDir, "abacus.log"),
  });
  const blankUrl = `http://127.0.0.1:${blankPort}`;
  const abacusUrl = `http://127.0.0.1:${abacusPort}`;
  await waitFor(`${blankUrl}/`, { entry: blank });
  await waitFor(`${abacusUrl}/api/health`, { entry: abacus });
  log(`blank Next.js ${NEXT_VERSION} on ${blankUrl}, Abacus (${args.dist}) on ${abacusUrl}`);

  const sizes = {
    blank: await weight(`${blankUrl}/`),
    home: await weight(`${abacusUrl}/`),
    docs: await weight(`${abacusUrl}/docs`),
  };
  const results = [];
  for (const row of rows) {
    let request = row;
    if (row.keyed) {
      const keyed = await keyedRequest();
      if (keyed.unavailable) {
        results.push({ name: row.name, unavailable: keyed.unavailable });
        log(`${row.name}: ${keyed.unavailable}`);
        continue;
      }
      request = { ...row, headers: keyed.headers };
    }
    log(`${row.name}: blank ${BLANK[row.blank].path}, then Abacus ${row.path} (${duration} s each)`);
    const base = await measure(blankUrl, BLANK[row.blank]);
    const ours = await measure(abacusUrl, request);
    results.push({ name: row.name, blank: base, abacus: ours, ratio: ours.rps / base.rps });
  }
  await stopAll();

  const lines = [
    `Abacus vs blank Next.js ${NEXT_VERSION}: autocannon -c ${connections} -d ${duration} (warm-up ${warmup} s), ${new Date().toISOString()}`,
    "",
    "| Request | blank Next req/s | Abacus req/s | Abacus p99 | ratio | server CPU per request: blank → Abacus | load generator CPU: blank, Abacus | Abacus responses |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    if (r.unavailable) {
      lines.push(`| ${r.name} | | | | ${r.unavailable} | | | |`);
      continue;
    }
    lines.push(
      `| ${r.name} | ${fmtInt(r.blank.rps)} (p99 ${r.blank.p99} ms) | ${fmtInt(r.abacus.rps)} | ${r.abacus.p99} ms | ${r.ratio.toFixed(2)} | ${fmtUs(r.blank.serverUsPerRequest)} → ${fmtUs(r.abacus.serverUsPerRequest)} | ${fmtCore(r.blank.clientCore)}, ${fmtCore(r.abacus.clientCore)} | ${fmtCodes(r.abacus.codes)}${r.abacus.errors ? ` errors×${r.abacus.errors}` : ""} |`,
    );
  }
  const fmtWeight = (w) =>
    `${fmtKB(w.bytes)} (${fmtKB(w.gzip)} gzip, ${fmtKB(w.br)} br; inline RSC payload ${fmtKB(w.flight)})`;
  lines.push(
    "",
    `HTML of GET /: Abacus ${fmtWeight(sizes.home)}, blank ${fmtWeight(sizes.blank)}`,
    `HTML of GET /docs: ${fmtWeight(sizes.docs)}`,
  );
  console.log(lines.join("\n"));
  const jsonFile =
    args.json ?? path.join(runDir, `http-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    jsonFile,
    `${JSON.stringify({ next: NEXT_VERSION, duration, connections, dist: args.dist, sizes, results }, null, 2)}\n`,
  );
  log(`results written to ${path.relative(ROOT, jsonFile)}`);
  if (cpuProf) log(`CPU profiles in ${cpuProf}`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
