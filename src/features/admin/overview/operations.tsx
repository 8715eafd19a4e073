import type { JobQueueState } from "@/core/jobs/queue";

const minute = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Whether /metrics answers: METRICS_TOKEN is set (its value is never shown). */
export function MetricsFact({ on }: { on: boolean }) {
  return (
    <span data-testid="metrics-fact">
      {on ? (
        <>
          On: <code className="font-mono text-xs">/metrics</code> answers Prometheus scrapes that send the
          bearer token (METRICS_TOKEN)
        </>
      ) : (
        <>
          Off: set METRICS_TOKEN to serve <code className="font-mono text-xs">/metrics</code>
        </>
      )}
    </span>
  );
}

/** The billing clock's job queue: due, scheduled, running and failed jobs, and its last run. */
export function JobQueueFact({ queue, clock }: { queue: JobQueueState | null; clock: "on" | "off" }) {
  const thisInstance = clock === "on" ? "runs on this instance" : "off on this instance (BILLING_CLOCK=off)";
  if (!queue) {
    return (
      <span data-testid="job-queue">
        Not started yet: no instance has run the billing clock. The clock {thisInstance}.
      </span>
    );
  }
  const n = (value: number) => `${value.toLocaleString("en-US")}${queue.capped ? "+" : ""}`;
  return (
    <span className="grid gap-1" data-testid="job-queue">
      <span className="tabular-nums">
        {n(queue.due)} due · {n(queue.scheduled)} scheduled · {n(queue.running)} running ·{" "}
        <span className={queue.failed > 0 ? "font-medium text-destructive" : undefined}>
          {n(queue.failed)} failed
        </span>
      </span>
      <span className="text-xs text-muted-foreground">
        {queue.oldestDueAt ? `Oldest due job: ${minute(queue.oldestDueAt)}. ` : ""}
        Last billing run: {queue.lastTickAt ? minute(queue.lastTickAt) : "none yet"}. The clock {thisInstance}
        .
      </span>
    </span>
  );
}
