#!/usr/bin/env node
// The renewal benchmark: N subscriptions (default 10,000) due at the same instant, the billing clock
// run by two processes at once on one PostgreSQL, then a check in the database that each period was
// renewed exactly once, with one paid invoice each and invoice numbers gap-free.
//
//   node scripts/db/run-with-db.mjs --data .test-data/bench-renewals --fresh --migrate \
//     node bench/renewals.mjs [--count 10000] [--via clock|worker] [--ledger] [--profile <dir>]
//
// With `--via clock` (the default) each process is `scripts/tools/billing-run.ts --at <instant>` (what
// `npm run billing:run` runs). With `--via worker` each process is an app instance's billing worker
// (`bench/renewals-worker.ts`: graphile-worker's runner as the app starts it, no crontab); once both
// listen, the script enqueues one `billing_tick` at the instant and waits until the queue is empty
// and every period is paid, then stops them (`wallMs` counts from the processes' start, as for the
// clock; `tickToDoneMs` from the tick). Each process runs with the offline test provider: in memory, or with --ledger the shared ledger file (one fsync per
// charge) whose record is then checked too: one charge per idempotency key. While they run, the
// script samples `pg_stat_activity` every 100 ms (connections to this database, and sessions waiting
// on a lock, split into waits on the invoice series row and others) and the load average every
// second, and the CPU time of the clocks and of the database's backends (from /proc). Each clock
// reports the statements it sent and its own CPU time (`billing-run --stats`). Prints one JSON line
// with the figures (`perRenewal`: CPU milliseconds and statements per renewal; `load1`: the load
// average, since the machine may be shared); exit status 1 when a check fails.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { Logger, runMigrations } from "graphile-worker";
import postgres from "postgres";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    via: { type: "string", default: "clock" },
    ledger: { type: "boolean", default: false },
    // A folder for a V8 CPU profile of each clock process (`--cpu-prof`), to see where the time goes.
    profile: { type: "string" },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > 20_000) {
  console.error("--count must be a whole number from 1 to 20000 (one clock run renews at most 20,000)");
  process.exit(2);
}
const via = values.via;
if (via !== "clock" && via !== "worker") {
  console.error("--via must be clock (the command-line clock) or worker (graphile-worker's clock)");
  process.exit(2);
}
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set: run this through scripts/db/run-with-db.mjs (see the header)");
  process.exit(2);
}

const PERIOD_START = "2026-11-01T00:00:00Z";
const PERIOD_END = "2026-12-01T00:00:00Z";
const AT = "2026-12-01T00:00:30Z";
const prefix = `bench-${Date.now().toString(36)}`;
const sql = postgres(url, { max: 2, onnotice: () => {} });
const log = (line) => console.error(`[renewals] ${line}`);

// ---- Seed: organizations on Pro monthly (EUR, Germany), each with a paid purchase and a card on file.
const seedStarted = performance.now();
await sql.begin(async (tx) => {
  await tx`insert into organization (id, name, slug)
    select ${prefix} || '-' || i, 'Bench ' || i, ${prefix} || '-' || i from generate_series(1, ${count}) i`;
  await tx`insert into orders (organization_id, idempotency_key, plan, interval, currency, subtotal_minor,
      net_minor, tax_minor, total_minor, tax_rate, tax_treatment, base_price_usd, fx_rate, billing_name,
      billing_country, status, paid_at, created_at)
    select ${prefix} || '-' || i, 'bench-purchase', 'pro', 'monthly', 'EUR', 1000, 1000, 190, 1190, '0.19',
      'exclusive', '12', '1', 'Bench ' || i || ' GmbH', 'DE', 'paid', ${PERIOD_START}::timestamptz,
      ${PERIOD_START}::timestamptz
    from generate_series(1, ${count}) i`;
  await tx`insert into subscriptions (organization_id, plan, interval, currency, status, current_period_start,
      current_period_end)
    select ${prefix} || '-' || i, 'pro', 'monthly', 'EUR', 'active', ${PERIOD_START}::timestamptz,
      ${PERIOD_END}::timestamptz
    from generate_series(1, ${count}) i`;
  await tx`insert into payment_methods (organization_id, provider, method_reference, brand, last4, exp_month,
      exp_year)
    select ${prefix} || '-' || i, 'test', 'test_pm_approve_bench' || i, 'Visa', '4242', 12, 2030
    from generate_series(1, ${count}) i`;
});
await sql`analyze`;
const [{ before }] = await sql`select coalesce(max(last_value), 0)::int as before from document_sequences
  where series = 'INV-2026'`;
const [{ due }] = await sql`select count(*)::int as due from subscriptions
  where status = 'active' and current_period_end <= ${AT}::timestamptz`;
log(
  `seeded ${count} subscriptions in ${Math.round(performance.now() - seedStarted)} ms; ${due} due at ${AT}`,
);

// ---- Run: two clock processes at once, sampled.
const dir = values.ledger ? mkdtempSync(path.join(tmpdir(), "abacus-bench-ledger-")) : null;
const ledger = dir ? path.join(dir, "provider.jsonl") : null;
const samples = { n: 0, peakConnections: 0, peakActive: 0, seriesWaits: 0, seriesWaitSamples: 0 };
/** Sessions waiting, summed over samples, by wait event ("Lock:advisory", "Lock:transactionid", ...). */
const waits = {};
const backends = new Set();
const sampler = postgres(url, { max: 1, onnotice: () => {} });
let sampling = true;
const sampleLoop = (async () => {
  while (sampling) {
    const rows = await sampler`select pid, state, wait_event_type as type, wait_event as event,
        query ilike '%document_sequences%' as series
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    samples.n += 1;
    samples.peakConnections = Math.max(samples.peakConnections, rows.length);
    samples.peakActive = Math.max(samples.peakActive, rows.filter((r) => r.state === "active").length);
    let series = 0;
    for (const r of rows) {
      backends.add(r.pid);
      if (r.state !== "active" || !r.type) continue;
      const name = `${r.type}:${r.event}${r.type === "Lock" && r.series ? " (invoice series row)" : ""}`;
      waits[name] = (waits[name] ?? 0) + 1;
      if (r.type === "Lock" && r.series) series += 1;
    }
    samples.seriesWaits += series;
    samples.seriesWaitSamples += series > 0 ? 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

/** CPU seconds (user + system) a process has used so far, from /proc; null once it is gone. */
const CLOCK_TICKS = 100;
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const cpu = { clocks: new Map(), database: new Map() };
const children = new Map();
const loads = [];
const loadTimer = setInterval(() => {
  loads.push(loadavg()[0]);
  for (const [name, pid] of children) {
    const s = cpuSeconds(pid);
    if (s !== null) cpu.clocks.set(name, s);
  }
  for (const pid of backends) {
    const s = cpuSeconds(pid);
    if (s !== null) cpu.database.set(pid, s);
  }
}, 500);

/** A TypeScript script of the app in a child process (profiled with `--profile`), with the ledger. */
function spawnScript(args, stdio) {
  return spawn(
    process.execPath,
    [
      ...(values.profile ? ["--cpu-prof", `--cpu-prof-dir=${values.profile}`] : []),
      "--conditions=react-server",
      "--import",
      "tsx",
      ...args,
    ],
    { env: { ...process.env, ...(ledger ? { TEST_PROVIDER_LEDGER: ledger } : {}) }, stdio },
  );
}

function clock(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawnScript(
      ["scripts/tools/billing-run.ts", "--at", AT, "--stats"],
      ["ignore", "pipe", "inherit"],
    );
    children.set(name, child.pid);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code, signal) => {
      let summary = null;
      try {
        summary = JSON.parse(out.trim());
      } catch {}
      resolve({ name, code, signal, ms: Math.round(performance.now() - started), summary });
    });
  });
}
/**
 * One app instance's billing worker (`bench/renewals-worker.ts`): resolves `ready` once it listens for
 * jobs, and `exited` with its summary after `stop()` closes its stdin.
 */
function worker(name) {
  const started = performance.now();
  const child = spawnScript(["bench/renewals-worker.ts"], ["pipe", "pipe", "inherit"]);
  children.set(name, child.pid);
  let out = "";
  let markReady;
  const ready = new Promise((resolve) => {
    markReady = resolve;
  });
  child.stdout.on("data", (chunk) => {
    out += chunk;
    if (out.includes('{"ready":true}')) markReady(true);
  });
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      markReady(false);
      let summary = null;
      try {
        summary = JSON.parse(out.trim().split("\n").at(-1));
      } catch {}
      resolve({ name, code, signal, ms: Math.round(performance.now() - started), summary });
    });
  });
  return { ready, exited, stop: () => child.stdin.end() };
}

/** Both workers up, one tick enqueued at AT, then waiting until nothing is queued and all is paid. */
async function viaWorkers() {
  // graphile-worker's schema first: two runners installing it at once on a fresh database race
  // (one fails on the schema's name).
  await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
  const workers = [worker("a"), worker("b")];
  const ready = await Promise.all(workers.map((w) => w.ready));
  let tickToDoneMs = null;
  if (ready.every(Boolean)) {
    const tickAt = performance.now();
    await sql`select graphile_worker.add_job('billing_tick', json_build_object('at', ${AT}::text))`;
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const [{ queued }] = await sql`select count(*)::int as queued from graphile_worker.jobs`;
      const [{ paid }] = await sql`select count(*)::int as paid from orders
        where organization_id like ${`${prefix}-%`} and kind = 'renewal' and status = 'paid'`;
      if (queued === 0 && paid >= count) break;
      if (Date.now() > deadline) {
        log(`gave up waiting: ${queued} jobs queued, ${paid} of ${count} paid`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    tickToDoneMs = Math.round(performance.now() - tickAt);
  }
  for (const w of workers) w.stop();
  return { runs: await Promise.all(workers.map((w) => w.exited)), tickToDoneMs };
}

const load1Before = loadavg()[0];
const started = performance.now();
const { runs, tickToDoneMs } =
  via === "worker"
    ? await viaWorkers()
    : { runs: await Promise.all([clock("a"), clock("b")]), tickToDoneMs: null };
const wallMs = Math.round(performance.now() - started);
sampling = false;
clearInterval(loadTimer);
await sampleLoop;
await sampler.end();

// ---- Check, in the database.
const mine = `${prefix}-%`;
const [renewals] = await sql`select count(*)::int as orders,
    count(*) filter (where status = 'paid')::int as paid,
    count(distinct organization_id)::int as organizations
  from orders where organization_id like ${mine} and kind = 'renewal' and period_start = ${PERIOD_END}::timestamptz`;
const [subs] = await sql`select count(*) filter (where status = 'active'
    and current_period_start = ${PERIOD_END}::timestamptz)::int as advanced
  from subscriptions where organization_id like ${mine}`;
const [payments] = await sql`select count(*)::int as attempts,
    count(*) filter (where p.status = 'succeeded')::int as succeeded,
    count(distinct p.order_id)::int as orders
  from payments p join orders o on o.id = p.order_id
  where o.organization_id like ${mine} and o.kind = 'renewal'`;
const [invoices] = await sql`select count(*)::int as invoices,
    count(distinct i.order_id)::int as orders,
    count(*) filter (where i.status = 'paid' and i.number is not null)::int as numbered,
    count(*) filter (where i.total_minor <> (select coalesce(sum(l.amount_minor), 0) from invoice_lines l
      where l.invoice_id = i.id))::int as unbalanced
  from invoices i join orders o on o.id = i.order_id
  where o.organization_id like ${mine} and o.kind = 'renewal'`;
// Every INV-2026 number issued during the run: 1..N after the numbers issued before, no gap, no repeat.
const [numbers] = await sql`select count(*)::int as n, count(distinct number)::int as distinct_n,
    min(substr(number, 10)::int) as lo, max(substr(number, 10)::int) as hi
  from invoices where number like 'INV-2026-%' and substr(number, 10)::int > ${before}`;
const [series] = await sql`select last_value::int as last from document_sequences where series = 'INV-2026'`;
let ledgerCheck = null;
if (ledger) {
  const lines = readFileSync(ledger, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const firsts = new Map();
  for (const line of lines.filter((l) => !l.replay)) firsts.set(line.key, (firsts.get(line.key) ?? 0) + 1);
  ledgerCheck = {
    lines: lines.length,
    keys: firsts.size,
    keysChargedTwice: [...firsts.values()].filter((n) => n > 1).length,
  };
  rmSync(dir, { recursive: true, force: true });
}
const renewedByRuns = runs.reduce((sum, r) => sum + (r.summary?.renewed ?? 0), 0);
/** Jobs the workers ran, by task, summed over both (`--via worker`). */
const jobs = (kind) => {
  const all = {};
  for (const r of runs)
    for (const [task, n] of Object.entries(r.summary?.[kind] ?? {})) all[task] = (all[task] ?? 0) + n;
  return all;
};
const [{ queuedAfter }] =
  via === "worker"
    ? await sql`select count(*)::int as "queuedAfter" from graphile_worker.jobs`
    : [{ queuedAfter: 0 }];
const runStat = (name) => runs.reduce((sum, r) => sum + (r.summary?.stats?.[name] ?? 0), 0);
const perRenewal = (x) => Number((x / count).toFixed(2));
await sql.end();
const checks = {
  "both processes exited 0": runs.every((r) => r.code === 0),
  "one paid renewal per subscription":
    renewals.orders === count && renewals.paid === count && renewals.organizations === count,
  "every subscription moved to the next period": subs.advanced === count,
  ...(via === "clock"
    ? { "the runs' summaries renewed N in all": renewedByRuns === count }
    : {
        "every job succeeded, none is left in the queue":
          Object.keys(jobs("failed")).length === 0 && queuedAfter === 0,
        "the renewals ran as batch jobs, none one by one":
          (jobs("succeeded").billing_renew_batch ?? 0) >= Math.ceil(count / 25) &&
          (jobs("succeeded").billing_renew ?? 0) === 0,
      }),
  "one succeeded payment attempt per renewal": payments.attempts === count && payments.succeeded === count,
  "one paid, numbered invoice per renewal":
    invoices.invoices === count && invoices.orders === count && invoices.numbered === count,
  "every invoice's lines sum to its total": invoices.unbalanced === 0,
  "invoice numbers gap-free and unique":
    numbers.n === count &&
    numbers.distinct_n === count &&
    numbers.lo === before + 1 &&
    numbers.hi === before + count &&
    series.last === before + count,
  ...(ledgerCheck
    ? { "one provider charge per key": ledgerCheck.keys === count && ledgerCheck.keysChargedTwice === 0 }
    : {}),
};
const failed = Object.entries(checks)
  .filter(([, ok]) => !ok)
  .map(([name]) => name);
const result = {
  count,
  via,
  ledger: Boolean(ledger),
  wallMs,
  ...(via === "worker"
    ? { tickToDoneMs, jobs: { succeeded: jobs("succeeded"), failed: jobs("failed") } }
    : {}),
  renewalsPerSecond: Math.round((count / wallMs) * 1000),
  runs: runs.map((r) => ({ name: r.name, ms: r.ms, code: r.code, signal: r.signal, summary: r.summary })),
  peakConnections: samples.peakConnections,
  peakActive: samples.peakActive,
  samples: samples.n,
  seriesLockWaitersMean: Number((samples.seriesWaits / Math.max(1, samples.n)).toFixed(2)),
  seriesLockWaitedShare: Number((samples.seriesWaitSamples / Math.max(1, samples.n)).toFixed(2)),
  // Mean sessions waiting per sample, by wait event (active sessions not waiting are on CPU).
  waitersMean: Object.fromEntries(
    Object.entries(waits)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => [name, Number((n / Math.max(1, samples.n)).toFixed(2))]),
  ),
  // CPU seconds used during the run (sampled every 0.5 s): the two clock processes, the database.
  cpuSeconds: {
    clocks: Number([...cpu.clocks.values()].reduce((a, b) => a + b, 0).toFixed(1)),
    database: Number([...cpu.database.values()].reduce((a, b) => a + b, 0).toFixed(1)),
  },
  // Per renewal: CPU milliseconds of the clock processes (all of it, and the run alone without process
  // start and module loading) and of the database's backends; statements sent (a round trip each,
  // COMMIT included) and transactions, counted by the clocks.
  perRenewal: {
    cpuMsClocks: perRenewal([...cpu.clocks.values()].reduce((a, b) => a + b, 0) * 1000),
    cpuMsClocksRun: perRenewal(runStat("cpuMs")),
    cpuMsDatabase: perRenewal([...cpu.database.values()].reduce((a, b) => a + b, 0) * 1000),
    // Counted by billing-run only (the workers' statements go through two pools, one graphile-worker's).
    statements: via === "clock" ? perRenewal(runStat("statements")) : null,
    transactions: via === "clock" ? perRenewal(runStat("transactions")) : null,
  },
  cores: cpus().length,
  load1: {
    before: load1Before,
    max: Math.max(load1Before, ...loads),
    mean: Number((loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(2)),
  },
  ledgerCheck,
  checks,
  ok: failed.length === 0,
};
console.log(JSON.stringify(result));
if (failed.length > 0) {
  for (const name of failed) log(`FAILED: ${name}`);
  process.exitCode = 1;
} else {
  log(
    `${count} renewed exactly once by two ${via === "worker" ? "worker" : "clock"} processes in ${(wallMs / 1000).toFixed(1)} s; peak ${samples.peakConnections} connections; ` +
      `per renewal ${(result.perRenewal.cpuMsClocks + result.perRenewal.cpuMsDatabase).toFixed(2)} ms CPU, ` +
      `${result.perRenewal.statements ?? "(not counted)"} statements; load ${result.load1.mean} (mean) on ${result.cores} cores`,
  );
}
