/**
 * The state of the job queue (graphile-worker, which runs the billing clock), read straight from
 * its tables in the `graphile_worker` schema by the admin overview and by `/metrics`: one
 * definition of what "due", "running" and "failed" mean, and one bounded query.
 */

/** At most this many jobs are looked at; a count that reaches it means "this many or more". */
export const JOB_QUEUE_COUNT_CAP = 10_000;

/** Whether graphile-worker's tables exist (they do once any instance's billing clock started). */
export const JOB_QUEUE_EXISTS_SQL =
  "select to_regclass('graphile_worker._private_jobs') is not null as exists";

/**
 * One row: jobs due now (waiting for a worker), scheduled later, running (locked by a worker),
 * failed for good (every attempt used; graphile-worker deletes jobs that succeed), the oldest due
 * job's time, and the last run of the cron tick. Bounded: counts over at most
 * JOB_QUEUE_COUNT_CAP jobs.
 */
export const JOB_QUEUE_SQL = `
select
  count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())::int as due,
  count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now())::int as scheduled,
  count(*) filter (where j.locked_at is not null)::int as running,
  count(*) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed,
  count(*)::int as looked_at,
  (extract(epoch from min(j.run_at) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())) * 1000)::bigint::text as oldest_due_at,
  (extract(epoch from (select max(last_execution) from graphile_worker._private_known_crontabs)) * 1000)::bigint::text as last_tick_at
from (
  select run_at, locked_at, attempts, max_attempts
  from graphile_worker._private_jobs
  limit ${JOB_QUEUE_COUNT_CAP}
) j`;

export type JobQueueRow = {
  due: number | string;
  scheduled: number | string;
  running: number | string;
  failed: number | string;
  looked_at: number | string;
  /** Milliseconds since the epoch, as text. */
  oldest_due_at: string | null;
  last_tick_at: string | null;
};

export interface JobQueueState {
  due: number;
  scheduled: number;
  running: number;
  failed: number;
  /** The counts stopped at JOB_QUEUE_COUNT_CAP jobs: each is a lower bound. */
  capped: boolean;
  oldestDueAt: Date | null;
  /** The last time the billing clock's cron tick ran (on any instance). */
  lastTickAt: Date | null;
}

/** The job states `/metrics` labels its gauge with. */
export const JOB_STATES = ["due", "scheduled", "running", "failed"] as const;

const time = (ms: string | null) => {
  if (ms === null) return null;
  const at = new Date(Number(ms));
  return Number.isNaN(at.getTime()) ? null : at;
};

export function jobQueueState(row: JobQueueRow): JobQueueState {
  return {
    due: Number(row.due),
    scheduled: Number(row.scheduled),
    running: Number(row.running),
    failed: Number(row.failed),
    capped: Number(row.looked_at) >= JOB_QUEUE_COUNT_CAP,
    oldestDueAt: time(row.oldest_due_at),
    lastTickAt: time(row.last_tick_at),
  };
}
