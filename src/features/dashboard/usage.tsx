import Link from "next/link";
import { TimeSeries } from "@/components/charts/time-series";
import { upgradeFor } from "@/core/billing/plans";
import type { DashboardUsage } from "./queries";

const number = new Intl.NumberFormat("en-US");

function Meter({
  label,
  used,
  limit,
  hint,
  testId,
}: {
  label: string;
  used: number;
  limit: number | null;
  hint?: string;
  testId: string;
}) {
  const ratio = limit === null ? 0 : Math.min(1, used / Math.max(1, limit));
  const full = limit !== null && used >= limit;
  return (
    <div className="rounded-lg border border-border bg-card p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular" data-testid={testId}>
        {number.format(used)}
        <span className="text-base font-normal text-muted-foreground">
          {" "}
          / {limit === null ? "unlimited" : number.format(limit)}
        </span>
      </p>
      {limit !== null ? (
        <div
          className="mt-3 h-2 overflow-hidden rounded-full bg-muted"
          // The figures above say the same in words; the bar is decoration.
          aria-hidden
        >
          <div
            className={full ? "h-full bg-destructive" : "h-full bg-primary"}
            style={{ width: `${(ratio * 100).toFixed(1)}%` }}
          />
        </div>
      ) : (
        <div className="mt-3 h-2" />
      )}
      {hint ? <p className="mt-2 text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

/** Plan and usage against its limits; a limit reached says so and offers the plan that fits. */
export function UsageOverview({ usage, canManage }: { usage: DashboardUsage; canManage: boolean }) {
  const { plan } = usage;
  const limits = plan.limits;
  const atLimit =
    usage.apiCallsThisMonth >= limits.apiCallsPerMonth ||
    (limits.savedCalculations !== null && usage.savedCalculations >= limits.savedCalculations) ||
    (limits.members !== null && usage.members >= limits.members);
  const next = upgradeFor(plan.id, () => true);
  return (
    <section aria-labelledby="usage-title" className="grid gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="usage-title" className="text-lg font-semibold">
          {plan.name} plan
        </h2>
        {next ? (
          <Link href="/pricing" className="text-sm underline underline-offset-4">
            Compare plans
          </Link>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Meter
          label="API calls this month"
          testId="usage-api"
          used={usage.apiCallsThisMonth}
          limit={limits.apiCallsPerMonth}
          hint={`Resets on ${usage.resetsOn} (UTC). Burst: ${limits.apiBurstPerSecond} a second.`}
        />
        <Meter
          label="Saved calculations"
          used={usage.savedCalculations}
          limit={limits.savedCalculations}
          testId="usage-saved"
        />
        <Meter label="Members" used={usage.members} limit={limits.members} testId="usage-members" />
      </div>
      {atLimit ? (
        <p
          role="status"
          className="rounded-md border border-destructive/50 bg-destructive/5 p-3 text-sm"
          data-testid="limit-reached"
        >
          This organization has reached a limit of the {plan.name} plan: past it, API calls answer 429, saves
          and invitations are refused.{" "}
          {next ? (
            canManage ? (
              <Link href="/pricing" className="font-medium underline underline-offset-4">
                Upgrade to {next.name}
              </Link>
            ) : (
              `Ask an owner or admin to upgrade to ${next.name}.`
            )
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Keyed API calls over the last 30 days: a server-drawn SVG (no JavaScript at all, so nothing to
 * load anywhere else) in theme colours, and the same figures as a table for screen readers and
 * anyone who prefers numbers.
 */
export function UsageChart({ daily }: { daily: DashboardUsage["daily"] }) {
  const total = daily.reduce((sum, d) => sum + d.calls, 0);
  const peak = Math.max(0, ...daily.map((d) => d.calls));
  return (
    <section aria-labelledby="chart-title" className="rounded-lg border border-border bg-card p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="chart-title" className="font-semibold">
          API calls, last 30 days
        </h2>
        {total > 0 ? (
          <p className="text-sm text-muted-foreground tabular">Peak {number.format(peak)} a day</p>
        ) : null}
      </div>
      {total === 0 ? (
        <p className="mt-4 rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">
          No API calls yet. Create an API key below and call{" "}
          <code className="font-mono">/api/v1/calculate</code> with it; each call shows up here.
        </p>
      ) : (
        <div className="mt-4">
          <TimeSeries
            points={daily.map((d) => ({ day: d.day, value: d.calls }))}
            label="Calls per day (UTC)"
            valueLabel="Calls"
          />
        </div>
      )}
    </section>
  );
}
