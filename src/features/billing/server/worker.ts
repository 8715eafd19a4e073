import "server-only";
import { type Runner, run, type TaskList, Logger as WorkerLogger } from "graphile-worker";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db } from "@/server/db/client";
import { getLog, type Logger } from "@/server/log";
import type { PaymentProvider } from "@/server/payments/provider";
import type { BillingMail } from "./dunning";
import { settlePendingProrations } from "./plan-change";
import { currentSigningKey } from "./receipt-keys";
import { retryPendingRefunds } from "./refunds";
import { dueSubscriptions, renewSubscription } from "./renew";

/**
 * The billing clock on graphile-worker, inside every app instance. Once a minute (graphile-worker's
 * cron schedules each tick once, whichever instance runs it) `billing_tick` enqueues one
 * `billing_renew` job per due subscription, keyed by subscription, period start and attempt (a
 * past-due subscription's retry is due at its `next_retry_at`), so ticks on several instances
 * enqueue each attempt once; any instance's worker then runs it, and `renewSubscription` itself
 * charges each attempt at most once. Every five minutes `billing_refunds` asks the provider again
 * about refunds it never answered, and about upgrades whose answer was lost.
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

export function billingTasks(deps: BillingDeps): TaskList {
  return {
    billing_tick: async (payload, helpers) => {
      const at = instantOf(payload);
      const due = await dueSubscriptions(deps.db, at);
      for (const row of due) {
        await helpers.addJob(
          "billing_renew",
          { organizationId: row.organizationId, at: at.toISOString() },
          {
            jobKey: `renew:${row.organizationId}:${row.periodStart.toISOString()}:${row.attempt}`,
            jobKeyMode: "preserve_run_at",
            maxAttempts: 10,
          },
        );
      }
    },
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

/** Starts this instance's worker: a small pool of its own, the cron ticks, and the tasks. */
export async function startBillingWorker(
  connectionString: string,
  deps: BillingDeps,
  options: { crontab?: string; concurrency?: number; logger?: WorkerLogger } = {},
): Promise<Runner> {
  return run({
    connectionString,
    logger: options.logger ?? workerLogger(),
    concurrency: options.concurrency ?? 2,
    maxPoolSize: 3,
    noHandleSignals: true,
    pollInterval: 2000,
    taskList: billingTasks(deps),
    crontab: options.crontab ?? BILLING_CRONTAB,
  });
}
