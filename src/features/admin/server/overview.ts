import "server-only";
import { and, count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import {
  JOB_QUEUE_EXISTS_SQL,
  JOB_QUEUE_SQL,
  type JobQueueRow,
  type JobQueueState,
  jobQueueState,
} from "@/core/jobs/queue";
import { receiptKeyOverview } from "@/features/billing";
import { type AuditActor, writeAudit } from "@/server/audit";
import { appliedSchemaVersion } from "@/server/backup/applied";
import type { Db } from "@/server/db/client";
import {
  contactMessages,
  creditNotes,
  monitoringEvents,
  orders,
  organization,
  pageViews,
  subscriptions,
  user,
} from "@/server/db/schema";
import { getEnv } from "@/server/env";
import { getMonitoringConfig } from "@/server/monitoring";

/** What /admin shows: counts, revenue, sign-ups, inbox, error reports, traffic and system facts. */

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Everything /admin shows, loaded by its page and passed to the overview screen as plain data. */
export async function loadOverview(db: Db, params: Params) {
  const env = getEnv();
  const range: 7 | 30 = one(params.views) === "7" ? 7 : 30;
  const inbox: InboxFilter =
    (["open", "handled", "all"] as const).find((f) => f === one(params.inbox)) ?? "open";
  const errorId = one(params.error);
  const [counts, revenue, signUps, messages, errors, viewsDaily, viewsRoutes, dbVersion, detail, keys] =
    await Promise.all([
      instanceCounts(db),
      revenueByCurrency(db),
      signUpsByDay(db, 30),
      listContactMessages(db, inbox),
      listErrorGroups(db),
      pageViewsByDay(db, range),
      pageViewsByRoute(db, range),
      databaseVersion(db),
      errorId ? getErrorEvent(db, errorId) : Promise.resolve(null),
      receiptKeyOverview(db),
    ]);
  const [schemaVersion, jobs] = await Promise.all([appliedSchemaVersion(db), jobQueue(db)]);
  return {
    range,
    inbox,
    counts,
    revenue,
    signUps,
    messages,
    errors,
    viewsDaily,
    viewsRoutes,
    detail,
    system: {
      databaseMode: env.DATABASE_MODE,
      databaseVersion: dbVersion,
      schemaVersion,
      monitoring: getMonitoringConfig().mode,
      vercel: Boolean(env.VERCEL),
      /** Whether /metrics answers (METRICS_TOKEN is set); never the token itself. */
      metrics: env.METRICS_TOKEN !== undefined,
      billingClock: env.BILLING_CLOCK,
      jobs,
      receiptKeys: keys,
    },
  };
}

export type OverviewData = Awaited<ReturnType<typeof loadOverview>>;

/**
 * The job queue of the billing clock (graphile-worker's tables, one bounded query), or null while
 * no instance has started a clock (its schema does not exist yet).
 */
export async function jobQueue(db: Db): Promise<JobQueueState | null> {
  const [schema] = await db.execute<{ exists: boolean }>(sql.raw(JOB_QUEUE_EXISTS_SQL));
  if (!schema?.exists) return null;
  const [row] = await db.execute<JobQueueRow>(sql.raw(JOB_QUEUE_SQL));
  return row ? jobQueueState(row) : null;
}

export async function instanceCounts(db: Db) {
  const [[users], [orgs]] = await Promise.all([
    db.select({ n: count() }).from(user),
    db.select({ n: count() }).from(organization),
  ]);
  return {
    users: users?.n ?? 0,
    organizations: orgs?.n ?? 0,
    activeSubscriptions: await activeSubscriptions(db),
  };
}

/** Paid organizations: subscriptions that are active and whose current period has not ended. */
export async function activeSubscriptions(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, "active"), sql`${subscriptions.currentPeriodEnd} > now()`));
  return row?.n ?? 0;
}

export type RevenueRow = {
  currency: string;
  /** Gross: every paid order's total. */
  totalMinor: bigint;
  /** Refunded through issued credit notes. */
  refundsMinor: bigint;
  netMinor: bigint;
  orders: number;
};

/**
 * Revenue per currency as exact sums in minor units: gross (paid orders' totals), refunds (issued
 * credit notes) and net, summed as numeric in SQL, carried as text, returned as bigint, never a
 * float. Orders and credit notes keep their organization as plain text, so these figures do not
 * change when a customer leaves.
 */
export async function revenueByCurrency(db: Db): Promise<RevenueRow[]> {
  const rows = await db.execute<{ currency: string; gross: string; refunds: string; orders: number }>(sql`
    select currency, sum(gross)::text as gross, sum(refunds)::text as refunds, sum(n)::int as orders from (
      select ${orders.currency} as currency, ${orders.totalMinor} as gross, 0 as refunds, 1 as n
        from ${orders} where ${orders.status} = 'paid'
      union all
      select ${creditNotes.currency}, 0, ${creditNotes.totalMinor}, 0
        from ${creditNotes} where ${creditNotes.status} = 'issued'
    ) t group by currency order by currency`);
  return rows.map((r) => {
    const gross = BigInt(r.gross);
    const refunds = BigInt(r.refunds);
    return {
      currency: r.currency,
      totalMinor: gross,
      refundsMinor: refunds,
      netMinor: gross - refunds,
      orders: Number(r.orders),
    };
  });
}

export type DayCount = { day: string; count: number };

/** Sign-ups per UTC day over the last `days` days, zero-filled, oldest first. */
export async function signUpsByDay(db: Db, days = 30): Promise<DayCount[]> {
  const rows = await db.execute<{ day: string; count: number }>(sql`
    select d::date::text as day, count(u.id)::int as count
    from generate_series((now() at time zone 'utc')::date - ${days - 1}::int, (now() at time zone 'utc')::date, '1 day') d
    left join "user" u on (u.created_at at time zone 'utc')::date = d::date
    group by d order by d`);
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}

/** Total page views per UTC day over the last `days` days, zero-filled, oldest first. */
export async function pageViewsByDay(db: Db, days: number): Promise<DayCount[]> {
  const rows = await db.execute<{ day: string; count: number }>(sql`
    select d::date::text as day, coalesce(sum(p.views), 0)::int as count
    from generate_series((now() at time zone 'utc')::date - ${days - 1}::int, (now() at time zone 'utc')::date, '1 day') d
    left join ${pageViews} p on p.day = d::date
    group by d order by d`);
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}

/** Page views per route over the last `days` days, most viewed first. */
export async function pageViewsByRoute(db: Db, days: number, limit = 50) {
  return db
    .select({ path: pageViews.path, views: sql<number>`sum(${pageViews.views})::int` })
    .from(pageViews)
    .where(sql`${pageViews.day} > (now() at time zone 'utc')::date - ${days}::int`)
    .groupBy(pageViews.path)
    .orderBy(desc(sql`sum(${pageViews.views})`), pageViews.path)
    .limit(limit);
}

export type InboxFilter = "open" | "handled" | "all";

export async function listContactMessages(db: Db, filter: InboxFilter, limit = 50) {
  const where =
    filter === "open"
      ? isNull(contactMessages.handledAt)
      : filter === "handled"
        ? isNotNull(contactMessages.handledAt)
        : undefined;
  const [rows, [open]] = await Promise.all([
    db.select().from(contactMessages).where(where).orderBy(desc(contactMessages.createdAt)).limit(limit),
    db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.handledAt)),
  ]);
  return {
    open: open?.n ?? 0,
    rows: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      handledAt: r.handledAt?.toISOString() ?? null,
    })),
  };
}

/** Marks a contact message handled (or open again); audited. */
export async function setContactHandled(db: Db, actor: AuditActor, id: string, handled: boolean) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(contactMessages)
      .set({ handledAt: handled ? new Date() : null })
      .where(eq(contactMessages.id, id))
      .returning({ email: contactMessages.email });
    if (!row) return false;
    await writeAudit(tx, actor, {
      action: "contact.set-handled",
      targetType: "contact_message",
      targetId: id,
      targetLabel: row.email,
      before: { handled: !handled },
      after: { handled },
    });
    return true;
  });
}

export type ErrorGroup = {
  latestId: string;
  type: string;
  level: string | null;
  message: string | null;
  url: string | null;
  release: string | null;
  count: number;
  firstSeen: string;
  lastSeen: string;
};

/**
 * Error reports (errors, error logs, user feedback) of the last 30 days, grouped by type, level and
 * message with repeats counted; newest first. Traces, spans and replays are not error reports.
 */
export async function listErrorGroups(db: Db, limit = 50): Promise<ErrorGroup[]> {
  const rows = await db.execute<{
    latest_id: string;
    type: string;
    level: string | null;
    message: string | null;
    url: string | null;
    release: string | null;
    count: number;
    first_seen: string;
    last_seen: string;
  }>(sql`
    select (array_agg(id order by received_at desc))[1]::text as latest_id, type, level, message,
      (array_agg(url order by received_at desc))[1] as url,
      (array_agg(release order by received_at desc))[1] as release,
      count(*)::int as count, min(received_at)::text as first_seen, max(received_at)::text as last_seen
    from ${monitoringEvents}
    where received_at > now() - interval '30 days'
      and (type in ('error', 'feedback') or (type = 'log' and level in ('error', 'fatal')))
    group by type, level, message
    order by max(received_at) desc
    limit ${limit}`);
  return rows.map((r) => ({
    latestId: r.latest_id,
    type: r.type,
    level: r.level,
    message: r.message,
    url: r.url,
    release: r.release,
    count: Number(r.count),
    firstSeen: new Date(r.first_seen).toISOString(),
    lastSeen: new Date(r.last_seen).toISOString(),
  }));
}

/** One stored report with its payload (the event JSON as received, capped by the tunnel). */
export async function getErrorEvent(db: Db, id: string) {
  if (!/^\d{1,18}$/.test(id)) return null;
  const [row] = await db
    .select()
    .from(monitoringEvents)
    .where(eq(monitoringEvents.id, BigInt(id)));
  if (!row) return null;
  const [repeats] = await db
    .select({ n: count() })
    .from(monitoringEvents)
    .where(
      and(
        eq(monitoringEvents.type, row.type),
        row.message === null ? isNull(monitoringEvents.message) : eq(monitoringEvents.message, row.message),
      ),
    );
  return {
    id: row.id.toString(),
    eventId: row.eventId,
    type: row.type,
    level: row.level,
    message: row.message,
    url: row.url,
    release: row.release,
    environment: row.environment,
    traceId: row.traceId,
    payload: row.payload,
    receivedAt: row.receivedAt.toISOString(),
    repeats: repeats?.n ?? 1,
  };
}

export async function databaseVersion(db: Db): Promise<string> {
  const [row] = await db.execute<{ v: string }>(sql`select current_setting('server_version') as v`);
  return row?.v ?? "unknown";
}
