import "server-only";
import Link from "next/link";
import type { ReactNode } from "react";
import { TimeSeries } from "@/components/charts/time-series";
import { Card } from "@/components/ui/card";
import { formatMoney } from "@/core/money/format";
import { plural } from "@/core/plural";
import { cn } from "@/lib/utils";
import packageJson from "../../../../package.json";
import { AdminPage } from "../admin-nav";
import { type SearchParams, withParams } from "../search-params";
import type { OverviewData } from "../server/overview";
import { Inbox } from "./inbox";
import { JobQueueFact, MetricsFact } from "./operations";
import { SchemaVersionFact } from "./schema-version";

function Section({
  id,
  title,
  children,
  aside,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  aside?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid min-w-0 content-start gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function Tabs({ items }: { items: { href: string; label: string; current: boolean }[] }) {
  return (
    <span className="flex gap-1 text-sm">
      {items.map((t) => (
        <Link
          key={t.label}
          href={t.href}
          scroll={false}
          aria-current={t.current ? "true" : undefined}
          className={cn(
            "rounded-md px-2.5 py-1",
            t.current ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:bg-muted",
          )}
        >
          {t.label}
        </Link>
      ))}
    </span>
  );
}

/** /admin: the instance at a glance, from what its page loaded (`loadOverview`). */
export function OverviewScreen({
  params,
  data: { range, inbox, counts, revenue, signUps, messages, errors, viewsDaily, viewsRoutes, detail, system },
}: {
  params: SearchParams;
  data: OverviewData;
}) {
  const facts: [string, ReactNode][] = [
    ["App version", packageJson.version],
    [
      "Database",
      `${system.databaseMode === "embedded" ? "Embedded PostgreSQL" : "External PostgreSQL"} ${system.databaseVersion}`,
    ],
    ["Schema version", <SchemaVersionFact key="schema-version" version={system.schemaVersion} />],
    [
      "Error reporting",
      system.monitoring === "sentry"
        ? "Sentry (forwarded through /monitoring)"
        : "Kept by this instance (see Error reports)",
    ],
    [
      "Analytics",
      system.vercel ? "Vercel Web Analytics" : "First-party page views (no cookies, no IP addresses)",
    ],
    ["Metrics", <MetricsFact key="metrics" on={system.metrics} />],
    ["Job queue", <JobQueueFact key="job-queue" queue={system.jobs} clock={system.billingClock} />],
    ["Receipt key ids", <ReceiptKeys key="receipt-keys" keys={system.receiptKeys} />],
  ];
  const stat = (label: string, value: number, note?: string) => (
    <Card className="grid gap-1 p-4">
      <span className="text-sm text-muted-foreground">{label}</span>
      <span className="text-3xl font-semibold tabular-nums">{value.toLocaleString("en-US")}</span>
      {note ? <span className="text-xs text-muted-foreground">{note}</span> : null}
    </Card>
  );
  return (
    <AdminPage title="Administration">
      <div className="grid gap-4 sm:grid-cols-3">
        {stat("Users", counts.users)}
        {stat("Organizations", counts.organizations)}
        {stat(
          "Active subscriptions",
          counts.activeSubscriptions,
          counts.activeSubscriptions ? undefined : "No paid plans yet",
        )}
      </div>

      <div className="grid gap-10 lg:grid-cols-2">
        <Section id="revenue" title="Revenue by currency">
          {revenue.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border p-6 text-sm text-muted-foreground">
              No paid orders yet. Paid orders appear here as exact sums per currency.
            </p>
          ) : (
            <ul className="grid gap-2">
              {revenue.map((r) => (
                <li key={r.currency} className="grid gap-0.5 tabular-nums">
                  <div className="flex justify-between gap-2">
                    <span>
                      {r.currency} · {plural(r.orders, "order")}
                    </span>
                    <span className="font-medium">
                      {formatMoney({ amount: r.netMinor, currency: r.currency })}
                    </span>
                  </div>
                  {r.refundsMinor > 0n ? (
                    <div className="flex justify-between gap-2 text-xs text-muted-foreground">
                      <span>
                        Gross {formatMoney({ amount: r.totalMinor, currency: r.currency })} · refunds{" "}
                        {formatMoney({ amount: r.refundsMinor, currency: r.currency })}
                      </span>
                      <span>net</span>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section id="signups" title="Sign-ups">
          <TimeSeries
            label="Sign-ups, last 30 days"
            points={signUps.map((d) => ({ day: d.day, value: d.count }))}
            valueLabel="Sign-ups"
          />
        </Section>
      </div>

      <Section
        id="inbox"
        title="Contact inbox"
        aside={
          <Tabs
            items={(["open", "handled", "all"] as const).map((f) => ({
              href: `${withParams(params, { inbox: f === "open" ? undefined : f })}#inbox`,
              label: f === "open" ? `Open (${messages.open})` : f === "handled" ? "Handled" : "All",
              current: inbox === f,
            }))}
          />
        }
      >
        <Inbox messages={messages.rows} />
      </Section>

      <Section id="errors" title="Error reports (30 days)">
        {detail ? (
          <Card className="grid min-w-0 gap-3 p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="min-w-0 break-words font-semibold">{detail.message ?? "(no message)"}</h3>
              <Link
                href={`${withParams(params, { error: undefined })}#errors`}
                className="text-sm text-primary hover:underline"
              >
                Close details
              </Link>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {(
                [
                  ["Level", detail.level],
                  ["Type", detail.type],
                  ["Seen", plural(detail.repeats, "time")],
                  ["URL", detail.url],
                  ["Release", detail.release],
                  ["Environment", detail.environment],
                  ["Event id", detail.eventId],
                  ["Trace id", detail.traceId],
                  ["Received", detail.receivedAt],
                ] as [string, string | null][]
              ).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="min-w-0 break-all font-mono text-xs leading-5">{v ?? "—"}</dd>
                </div>
              ))}
            </dl>
            <details>
              <summary className="cursor-pointer text-sm">Event payload</summary>
              <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap break-all">
                {detail.payload ?? "(none)"}
              </pre>
            </details>
          </Card>
        ) : null}
        {errors.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-6 text-sm text-muted-foreground">
            No error reports in the last 30 days.{" "}
            {system.monitoring === "sentry"
              ? "Reports go to Sentry."
              : "Errors in the browser or on the server are stored here."}
          </p>
        ) : (
          <ul className="grid divide-y divide-border rounded-lg border border-border">
            {errors.map((e) => (
              <li key={e.latestId} className="grid gap-1 p-3 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link
                    href={`${withParams(params, { error: e.latestId })}#errors`}
                    className="min-w-0 break-words font-medium text-primary hover:underline"
                  >
                    {e.message ?? "(no message)"}
                  </Link>
                  <span className="rounded bg-muted px-1.5 text-xs tabular-nums">×{e.count}</span>
                </div>
                <p className="min-w-0 break-all text-xs text-muted-foreground">
                  {e.level ?? e.type} · {e.url ?? "no URL"} · {e.release ?? "no release"} · last{" "}
                  {e.lastSeen.slice(0, 16).replace("T", " ")} UTC
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section
        id="traffic"
        title="Page views"
        aside={
          <Tabs
            items={[7, 30].map((d) => ({
              href: `${withParams(params, { views: d === 30 ? undefined : "7" })}#traffic`,
              label: `${d} days`,
              current: range === d,
            }))}
          />
        }
      >
        <TimeSeries
          label={`Page views, last ${range} days`}
          points={viewsDaily.map((d) => ({ day: d.day, value: d.count }))}
          valueLabel="Views"
        />
        {viewsRoutes.length === 0 ? (
          <p className="text-sm text-muted-foreground">No page views counted in this period yet.</p>
        ) : (
          <table className="w-full text-sm tabular-nums">
            <caption className="sr-only">Page views per route, last {range} days</caption>
            <thead className="text-left text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="py-1">
                  Route
                </th>
                <th scope="col" className="py-1 text-right">
                  Views
                </th>
              </tr>
            </thead>
            <tbody>
              {viewsRoutes.map((r) => (
                <tr key={r.path} className="border-t border-border">
                  <td className="break-all py-1.5 font-mono text-xs">{r.path}</td>
                  <td className="py-1.5 text-right">{r.views.toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section id="system" title="System">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {facts.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="break-words">{v}</dd>
            </div>
          ))}
        </dl>
      </Section>
    </AdminPage>
  );
}

/** The published receipt keys: which one signs now, which are retired (old receipts still verify). */
function ReceiptKeys({ keys }: { keys: OverviewData["system"]["receiptKeys"] }) {
  if (keys.length === 0) {
    return (
      <span data-testid="receipt-keys">
        None yet: the first paid order creates the signing key and publishes it at{" "}
        <Link className="underline" href="/api/v1/receipt-keys">
          /api/v1/receipt-keys
        </Link>
        .
      </span>
    );
  }
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return (
    <span className="grid gap-1" data-testid="receipt-keys">
      <ul className="grid gap-1">
        {keys.map((k) => (
          <li key={k.kid} className="flex flex-wrap items-baseline gap-x-2">
            <code className="break-all font-mono text-xs">{k.kid}</code>
            <span className="text-muted-foreground">
              {k.current ? `current since ${day(k.createdAt)}` : `retired ${day(k.retiredAt ?? k.createdAt)}`}
              {" · "}
              <span className="tabular-nums">{plural(k.receipts, "receipt")}</span>
            </span>
          </li>
        ))}
      </ul>
      <span className="text-xs text-muted-foreground">
        All are published at{" "}
        <Link className="underline" href="/api/v1/receipt-keys">
          /api/v1/receipt-keys
        </Link>
        ; retired keys stay there so the receipts they signed still verify.
      </span>
    </span>
  );
}
