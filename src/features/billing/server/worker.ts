import "server-only";
import { createHash } from "node:crypto";
import {
  type JobHelpers,
  type Runner,
  run,
  runMigrations,
  type TaskList,
  Logger as WorkerLogger,
} from "graphile-worker";
import postgres from "postgres";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db } from "@/server/db/client";
import { getLog, type Logger } from "@/server/log";
import type { PaymentProvider } from "@/server/payments/provider";
import type { BillingMail } from "./dunning";
import { settlePendingProrations } from "./plan-change";
import { currentSigningKey } from "./receipt-keys";
import { retryPendingRefunds } from "./refunds";
import {
  dueSubscriptions,
  RENEWAL_BATCH,
  renewBatch,
  renewSubscription,
  type UnansweredRenewal,
} from "./renew";

/**
 * The billing clock on graphile-worker, inside every app instance. Once a minute (graphile-worker's
 * cron schedules each tick once, whichever instance runs it) `billing_tick` lists the due
 * subscriptions (a past-due subscription's retry is due at its `next_retry_at`) and enqueues them
 * as `billing_renew_batch` jobs of up to `RENEWAL_BATCH`, each keyed by the (organization, period
 * start, attempt) keys it holds, so ticks on several instances at one instant enqueue each batch
 * once. Any instance's worker runs a batch with `renewBatch`, as the command-line clock does: it
 * charges each attempt at most once, even for a subscription that two ticks put in two batches (the
 * claim under the organization's lock decides; a period renewed or in flight elsewhere is skipped).
 * An attempt whose provider answer was lost gets a `billing_renew` job (`renewSubscription`, one
 * subscription) once its claim lapses, which asks again under the same key; whatever is still due
 * is also listed again by the next tick. Every five minutes `billing_refunds` asks the provider
 * again about refunds it never answered, and about upgrades whose answer was lost.
 */
export const BILLING_CRONTAB = ["* * * * * billing_tick", "*/5 * * * * billing_refunds"].join("\n");

export interface BillingDeps {
  db: Db;
  provider: () => Promise<PaymentProvider>;
  rates: (db: Db) => Promise<RateTable | null>;
  receipt?: () => { issuer?: string; seller?: ReceiptSeller };
  /** Where the dunning mails go; without it none are sent. */
  mail?: () => BillingMail;
}

function instantOf(payload: unknown): Date {
  const at = (payload as { at?: unknown } | null)?.at;
  return typeof at === "string" && !Number.isNaN(Date.parse(at)) ? new Date(at) : new Date();
}

/** The key of one attempt's single `billing_renew` job (`declined`: the attempts declined before). */
function renewJobKey(organizationId: string, periodStart: Date, declined: number): string {
  return `renew:${organizationId}:${periodStart.toISOString()}:${declined}`;
}

/** A batch job's key: a digest of the (organization, period start, attempt) keys it holds, sorted. */
export function batchJobKey(keys: readonly string[]): string {
  const digest = createHash("sha256")
    .update([...keys].sort().join("\n"))
    .digest("hex");
  return `renew-batch:${digest}`;
}

/** A `billing_renew_batch` payload's organization ids: 1 to `RENEWAL_BATCH` strings, else null. */
function batchOf(payload: unknown): string[] | null {
  const ids = (payload as { organizationIds?: unknown } | null)?.organizationIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > RENEWAL_BATCH) return null;
  return ids.every((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 200)
    ? [...new Set(ids)]
    : null;
}

/**
 * Asks again about an attempt whose answer was lost: a single `billing_renew` job under the
 * attempt's key, run once its claim has lapsed (before that, another run could not take it over).
 */
async function retryUnanswered(helpers: JobHelpers, at: Date, lost: UnansweredRenewal) {
  await helpers.addJob(
    "billing_renew",
    { organizationId: lost.organizationId, at: at.toISOString() },
    {
      jobKey: renewJobKey(lost.organizationId, lost.periodStart, lost.attempt - 1),
      runAt: new Date(lost.claimedUntil.getTime() + 1000),
      maxAttempts: 10,
    },
  );
}

export function billingTasks(deps: BillingDeps): TaskList {
  return {
    billing_tick: async (payload, helpers) => {
      const at = instantOf(payload);
      const due = await dueSubscriptions(deps.db, at);
      for (let i = 0; i < due.length; i += RENEWAL_BATCH) {
        const batch = due.slice(i, i + RENEWAL_BATCH);
        await helpers.addJob(
          "billing_renew_batch",
          { organizationIds: batch.map((row) => row.organizationId), at: at.toISOString() },
          {
            jobKey: batchJobKey(
              batch.map((row) => renewJobKey(row.organizationId, row.periodStart, row.attempt)),
            ),
            jobKeyMode: "preserve_run_at",
            maxAttempts: 10,
          },
        );
      }
    },
    billing_renew_batch: async (payload, helpers) => {
      const ids = batchOf(payload);
      if (!ids) {
        helpers.logger.error("billing_renew_batch: the payload names no organizations; job dropped");
        return;
      }
      const at = instantOf(payload);
      const done = await renewBatch(deps.db, await deps.provider(), await deps.rates(deps.db), ids, at, {
        ...deps.receipt?.(),
        mail: deps.mail?.(),
      });
      for (const lost of done.unanswered) await retryUnanswered(helpers, at, lost);
    },
    // The one-subscription task: the retry of an unanswered attempt, and the jobs an older instance
    // queued before batches (one per subscription) during a rolling deploy.
    billing_renew: async (payload) => {
      const organizationId = (payload as { organizationId?: unknown } | null)?.organizationId;
      if (typeof organizationId !== "string") return;
      const outcome = await renewSubscription(
        deps.db,
        await deps.provider(),
        await deps.rates(deps.db),
        organizationId,
        instantOf(payload),
        { ...deps.receipt?.(), mail: deps.mail?.() },
      );
      // Not known whether the money moved: graphile-worker retries later, under the same key.
      if (outcome === "pending") throw new Error("The renewal's payment is not confirmed yet");
    },
    billing_refunds: async (payload) => {
      const provider = await deps.provider();
      await retryPendingRefunds(deps.db, provider, {
        key: await currentSigningKey(deps.db),
        issuer: deps.receipt?.().issuer,
        now: instantOf(payload),
      });
      // Upgrades whose provider answer was lost, asked again under their own key.
      const at = instantOf(payload);
      await settlePendingProrations(deps.db, provider, await deps.rates(deps.db), {
        ...deps.receipt?.(),
        now: () => at,
      });
    },
  };
}

const LEVELS = { error: "error", warning: "warn", info: "info", debug: "debug" } as const;

/**
 * graphile-worker's log through the app's pino logger: one JSON line per message, with its scope
 * (worker, task, job ids) and metadata as fields, an Error as `err`.
 */
export function workerLogger(log: Logger = getLog()): WorkerLogger {
  const worker = log.child({ component: "graphile-worker" });
  return new WorkerLogger((scope) => (level, message, meta) => {
    // A failed job's whole row comes as `job`: its id and task are enough (not its payload).
    const { error, job, ...rest } = (meta ?? {}) as {
      error?: unknown;
      job?: { id?: unknown; task_identifier?: unknown };
    };
    const fields = {
      ...scope,
      ...rest,
      ...(job ? { jobId: String(job.id), taskIdentifier: job.task_identifier } : {}),
      ...(error === undefined ? {} : { err: error }),
    };
    worker[LEVELS[String(level) as keyof typeof LEVELS] ?? "info"](fields, message);
  });
}

/**
 * Installs or updates graphile-worker's own schema, one instance at a time: its `create schema if not
 * exists` is not safe against a concurrent one, and a migration may run before the one it follows has
 * committed, so instances starting at once on a fresh database would race (the losers' clocks would
 * not start). A session advisory lock on one connection serializes them; the first installs, the
 * others find the schema current.
 */
async function installWorkerSchema(connectionString: string, logger: WorkerLogger): Promise<void> {
  const sql = postgres(connectionString, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(hashtextextended('abacus:graphile-worker-schema', 0))`;
    await runMigrations({ connectionString, logger });
    await sql`select pg_advisory_unlock(hashtextextended('abacus:graphile-worker-schema', 0))`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Starts this instance's worker: its schema installed or updated first (`installWorkerSchema`), then
 * a small pool of its own, the cron ticks, and the tasks.
 */
export async function startBillingWorker(
  connectionString: string,
  deps: BillingDeps,
  options: { crontab?: string; concurrency?: number; logger?: WorkerLogger } = {},
): Promise<Runner> {
  const logger = options.logger ?? workerLogger();
  await installWorkerSchema(connectionString, logger);
  return run({
    connectionString,
    logger,
    concurrency: options.concurrency ?? 2,
    maxPoolSize: 3,
    noHandleSignals: true,
    pollInterval: 2000,
    taskList: billingTasks(deps),
    crontab: options.crontab ?? BILLING_CRONTAB,
  });
}
