/**
 * One app instance's billing worker, for `bench/renewals.mjs --via worker`: graphile-worker's runner
 * as the app starts it (`startBillingWorker`: its pool, its concurrency, the tasks), with the offline
 * test provider and no crontab (the benchmark enqueues the tick itself). Prints `{"ready":true}` once
 * the runner listens for jobs; when its stdin closes, stops the runner and prints one JSON line: the
 * jobs it ran by task (`succeeded`, `failed`) and the CPU milliseconds of the run (from ready to
 * stop: process start and module loading excluded). Run with `--conditions=react-server --import tsx`.
 */
import process from "node:process";
import { Logger } from "graphile-worker";
import { startBillingWorker } from "@/features/billing/server/worker";
import { getConnection, getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { getPaymentProvider } from "@/server/payments";

const env = getEnv();
const provider = await getPaymentProvider();
if (provider.id !== "test") {
  console.error("The benchmark runs only with the offline test provider (unset STRIPE_SECRET_KEY).");
  process.exit(2);
}
// graphile-worker's errors to stderr; its line per job would cost more than the jobs.
const logger = new Logger(() => (level, message) => {
  if (level === "error") console.error(`[worker ${process.pid}] ${message}`);
});
const succeeded: Record<string, number> = {};
const failed: Record<string, number> = {};
const runner = await startBillingWorker(
  env.DATABASE_URL,
  { db: getDb(), provider: async () => provider, rates: loadRateTable },
  {
    crontab: "",
    logger,
    ...(process.env.BENCH_WORKER_CONCURRENCY
      ? { concurrency: Number(process.env.BENCH_WORKER_CONCURRENCY) }
      : {}),
  },
);
runner.events.on("job:success", ({ job }) => {
  succeeded[job.task_identifier] = (succeeded[job.task_identifier] ?? 0) + 1;
});
runner.events.on("job:error", ({ job }) => {
  failed[job.task_identifier] = (failed[job.task_identifier] ?? 0) + 1;
});
const cpuBefore = process.cpuUsage();
console.log(JSON.stringify({ ready: true }));
process.stdin.resume();
process.stdin.on("end", async () => {
  await runner.stop();
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    JSON.stringify({ succeeded, failed, stats: { cpuMs: Math.round((cpu.user + cpu.system) / 1000) } }),
  );
  await getConnection().sql.end({ timeout: 5 });
  process.exit(0);
});
