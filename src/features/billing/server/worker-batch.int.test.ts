import { and, eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { quickAddJob, type Runner, runOnce } from "graphile-worker";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateTable } from "@/core/money";
import * as schema from "@/server/db/schema";
import { invoices, orders, payments, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { paidProOrganization } from "../../../../tests/support/billing";
import { createTestDatabase } from "../../../../tests/support/db";
import { RENEWAL_BATCH } from "./renew";
import { type BillingDeps, billingTasks, startBillingWorker } from "./worker";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
const START = new Date("2026-01-15T08:00:00Z");
/** A day after every subscription's first period ended. */
const AT = "2026-02-16T00:00:00.000Z";
const NEXT_PERIOD = "2026-02-15T08:00:00.000Z";

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Olivia Owner", email: "o@example.com", onboardingStep: "done" });
});
afterAll(async () => {
  await t.drop();
});

/** `n` organizations on Pro monthly, each with a paid purchase at START and a card on file. */
async function subscribed(prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `${prefix}-${String(i).padStart(3, "0")}`;
    await paidProOrganization(t.db, rates, { id, name: `Batch ${id}`, slug: id }, "u1", START);
    ids.push(id);
  }
  return ids;
}

/** The test provider, recording every saved-card charge it is asked for. */
function recording(
  around?: (
    r: SavedChargeRequest,
    charge: () => ReturnType<PaymentProvider["chargeSaved"]>,
  ) => ReturnType<PaymentProvider["chargeSaved"]>,
) {
  const calls: SavedChargeRequest[] = [];
  const inner = createTestProvider();
  const provider: PaymentProvider = {
    id: inner.id,
    charge: (r) => inner.charge(r),
    chargeSaved: async (r) => {
      calls.push(r);
      return around ? around(r, () => inner.chargeSaved(r)) : inner.chargeSaved(r);
    },
  };
  return { calls, provider };
}

function deps(db: typeof t.db, provider: PaymentProvider): BillingDeps {
  return { db, provider: async () => provider, rates: async () => rates };
}

/** Jobs left in graphile-worker's queue, by task. */
async function queued(): Promise<Record<string, number>> {
  const rows = await t.sql<{ task: string; n: number }[]>`select task_identifier as task, count(*)::int as n
    from graphile_worker.jobs group by task_identifier`;
  return Object.fromEntries(rows.map((r) => [r.task, r.n]));
}

/** Two instances' workers (one on a connection pool of its own) until the queue is empty and `done`. */
async function runTwoWorkers(provider: PaymentProvider, done: () => Promise<boolean>) {
  const other = postgres(t.url, { max: 5, onnotice: () => {} });
  const runners: Runner[] = [];
  try {
    runners.push(await startBillingWorker(t.url, deps(t.db, provider), { crontab: "" }));
    runners.push(
      await startBillingWorker(t.url, deps(drizzle(other, { schema }), provider), { crontab: "" }),
    );
    const deadline = Date.now() + 90_000;
    for (;;) {
      const left = Object.values(await queued()).reduce((a, b) => a + b, 0);
      if (left === 0 && (await done())) break;
      if (Date.now() > deadline)
        throw new Error(`the workers did not finish: ${JSON.stringify(await queued())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await Promise.all(runners.map((r) => r.stop()));
    await other.end();
  }
}

async function paidRenewals(ids: readonly string[]): Promise<number> {
  const rows = await t.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.organizationId, ids), eq(orders.kind, "renewal"), eq(orders.status, "paid")));
  return rows.length;
}

/** Each organization's next period renewed once: one paid order, one succeeded payment, one invoice. */
async function expectRenewedOnce(ids: readonly string[]) {
  for (const id of ids) {
    const renewals = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, id), eq(orders.kind, "renewal")));
    expect(renewals.map((o) => [o.status, o.periodStart?.toISOString()])).toEqual([["paid", NEXT_PERIOD]]);
    const order = renewals[0];
    const attempts = await t.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.orderId, order?.id ?? ""));
    expect(attempts.map((p) => p.status)).toEqual(["succeeded"]);
    const issued = await t.db
      .select({ number: invoices.number, status: invoices.status })
      .from(invoices)
      .where(eq(invoices.orderId, order?.id ?? ""));
    expect(issued).toHaveLength(1);
    expect(issued[0]?.status).toBe("paid");
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, id));
    expect(sub?.currentPeriodStart.toISOString()).toBe(NEXT_PERIOD);
  }
}

/** Every invoice number of the year issued once, from 1 with no gap. */
async function expectGapFreeNumbers() {
  const [numbers] = await t.sql<{ n: number; distinct_n: number; lo: number; hi: number }[]>`
    select count(*)::int as n, count(distinct number)::int as distinct_n,
      min(substr(number, 10)::int) as lo, max(substr(number, 10)::int) as hi
    from invoices where number like 'INV-2026-%'`;
  expect(numbers).toBeDefined();
  expect(numbers?.distinct_n).toBe(numbers?.n);
  expect(numbers?.lo).toBe(1);
  expect(numbers?.hi).toBe(numbers?.n);
}

describe("the worker's clock renews in batches", () => {
  it("renews 60 due subscriptions once each, in batch jobs, on two instances", async () => {
    const ids = await subscribed("org-b", 60);
    const { calls, provider } = recording();
    // Two ticks at the same instant (as two instances' clocks would): the same batches, enqueued once.
    await quickAddJob({ connectionString: t.url }, "billing_tick", { at: AT });
    await quickAddJob({ connectionString: t.url }, "billing_tick", { at: AT });
    const tasks = billingTasks(deps(t.db, provider));
    await runOnce({ connectionString: t.url, taskList: { billing_tick: tasks.billing_tick } });
    expect(await queued()).toEqual({ billing_renew_batch: Math.ceil(60 / RENEWAL_BATCH) });
    // The payloads (graphile-worker's public view leaves them out).
    const batches = await t.sql<{ ids: string[] }[]>`select j.payload->'organizationIds' as ids
      from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
      where k.identifier = 'billing_renew_batch'`;
    expect(batches.map((b) => b.ids.length).sort((a, b) => a - b)).toEqual([10, 25, 25]);
    expect(batches.flatMap((b) => b.ids).sort()).toEqual(ids);
    // A subscription in two batches: one more batch (another composition, so another key) across
    // the first two, as a tick that listed the subscriptions differently would have enqueued.
    await quickAddJob({ connectionString: t.url }, "billing_renew_batch", {
      organizationIds: ids.slice(12, 12 + RENEWAL_BATCH),
      at: AT,
    });
    await runTwoWorkers(provider, async () => (await paidRenewals(ids)) === ids.length);
    for (const id of ids) {
      const mine = calls.filter((c) => c.metadata.organizationId === id);
      expect(mine, id).toHaveLength(1);
    }
    await expectRenewedOnce(ids);
    await expectGapFreeNumbers();
  });

  it("asks again under the same key after a lost answer, and charges once", async () => {
    const ids = await subscribed("org-l", 3);
    const lost = ids[1] ?? "";
    let lose = true;
    // The provider charges, then the answer is lost after the claim lapsed (a slow network).
    const { calls, provider } = recording(async (r, charge) => {
      const result = await charge();
      if (r.metadata.organizationId === lost && lose) {
        lose = false;
        await t.db
          .update(orders)
          .set({ claimedUntil: sql`now()` })
          .where(and(eq(orders.organizationId, lost), eq(orders.kind, "renewal")));
        throw new Error("socket hang up");
      }
      return result;
    });
    await quickAddJob({ connectionString: t.url }, "billing_tick", { at: AT });
    await runTwoWorkers(provider, async () => (await paidRenewals(ids)) === ids.length);
    const asked = calls.filter((c) => c.metadata.organizationId === lost);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.idempotencyKey).toBe(asked[0]?.idempotencyKey);
    for (const id of ids.filter((id) => id !== lost)) {
      expect(calls.filter((c) => c.metadata.organizationId === id)).toHaveLength(1);
    }
    await expectRenewedOnce(ids);
    await expectGapFreeNumbers();
  });

  it("still runs a billing_renew job queued by an older instance", async () => {
    const [id = ""] = await subscribed("org-o", 1);
    const { calls, provider } = recording();
    // As an instance before batches enqueued it: one subscription, keyed by its period and attempt.
    await quickAddJob(
      { connectionString: t.url },
      "billing_renew",
      { organizationId: id, at: AT },
      { jobKey: `renew:${id}:2026-02-15T08:00:00.000Z:0`, maxAttempts: 10 },
    );
    await runTwoWorkers(provider, async () => (await paidRenewals([id])) === 1);
    expect(calls.filter((c) => c.metadata.organizationId === id)).toHaveLength(1);
    await expectRenewedOnce([id]);
    await expectGapFreeNumbers();
  });
});

describe("starting the workers", () => {
  it("starts several instances' workers at once on a database without graphile-worker's schema", async () => {
    const fresh = await createTestDatabase();
    try {
      await fresh.sql`drop schema if exists graphile_worker cascade`;
      const { provider } = recording();
      const started = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          startBillingWorker(fresh.url, deps(fresh.db, provider), { crontab: "" }),
        ),
      );
      await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.stop() : null)));
      expect(started.map((s) => (s.status === "rejected" ? String(s.reason) : "started"))).toEqual(
        Array(4).fill("started"),
      );
    } finally {
      await fresh.drop();
    }
  });
});
