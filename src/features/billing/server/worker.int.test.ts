import { and, eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { quickAddJob, type Runner } from "graphile-worker";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateTable } from "@/core/money";
import * as schema from "@/server/db/schema";
import { creditNotes, invoices, orders, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { paidProOrganization } from "../../../../tests/support/billing";
import { createTestDatabase } from "../../../../tests/support/db";
import { currentSigningKey } from "./receipt-keys";
import { REFUND_RETRY_AFTER_MS, refundInvoice } from "./refunds";
import { startBillingWorker } from "./worker";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
const START = new Date("2026-01-15T08:00:00Z");

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

async function subscribed(n: number) {
  const id = `org-w${n}`;
  await paidProOrganization(t.db, rates, { id, name: `Worker ${n}`, slug: `worker-${n}` }, "u1", START);
  return id;
}

describe("the billing clock on graphile-worker", () => {
  it("renews every due period once with a worker on each of two instances", async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => subscribed(i + 1)));
    const calls: SavedChargeRequest[] = [];
    const inner = createTestProvider();
    const provider: PaymentProvider = {
      id: inner.id,
      charge: (r) => inner.charge(r),
      chargeSaved: async (r) => {
        calls.push(r);
        return inner.chargeSaved(r);
      },
    };
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const deps = (db: typeof t.db) => ({ db, provider: async () => provider, rates: async () => rates });
    const runners: Runner[] = [];
    try {
      runners.push(await startBillingWorker(t.url, deps(t.db), { crontab: "" }));
      runners.push(await startBillingWorker(t.url, deps(drizzle(other, { schema })), { crontab: "" }));
      // Two ticks at the same instant (as two instances' clocks would): each period is enqueued once.
      const at = "2026-02-16T00:00:00.000Z";
      await quickAddJob({ connectionString: t.url }, "billing_tick", { at });
      await quickAddJob({ connectionString: t.url }, "billing_tick", { at });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [left] = await t.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs`;
        const renewed = await t.db
          .select({ id: orders.id })
          .from(orders)
          .where(and(inArray(orders.organizationId, ids), sql`${orders.periodStart} is not null`));
        if ((left?.n ?? 1) === 0 && renewed.length >= ids.length) break;
        if (Date.now() > deadline) throw new Error("the workers did not finish");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
      await other.end();
    }
    for (const id of ids) {
      expect(calls.filter((c) => c.metadata.organizationId === id)).toHaveLength(1);
      const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, id));
      expect(sub?.currentPeriodStart.toISOString()).toBe("2026-02-15T08:00:00.000Z");
    }
  });
  it("asks the provider again about an unanswered refund on the billing_refunds tick", async () => {
    const id = await subscribed(20);
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.organizationId, id));
    const key = await currentSigningKey(t.db);
    const silent: PaymentProvider = {
      ...createTestProvider(),
      refund: async () => {
        throw new Error("socket hang up");
      },
    };
    const refunded = await refundInvoice(
      t.db,
      silent,
      { invoiceNumber: invoice?.number ?? "", amount: "1.00", reason: "Goodwill", userId: null },
      { key },
    );
    expect(refunded).toMatchObject({ ok: true, data: { status: "pending" } });
    const provider = createTestProvider();
    const runner = await startBillingWorker(
      t.url,
      { db: t.db, provider: async () => provider, rates: async () => rates },
      { crontab: "" },
    );
    try {
      const at = new Date(Date.now() + REFUND_RETRY_AFTER_MS + 60_000).toISOString();
      await quickAddJob({ connectionString: t.url }, "billing_refunds", { at });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [note] = await t.db
          .select()
          .from(creditNotes)
          .where(eq(creditNotes.invoiceId, invoice?.id ?? ""));
        if (note?.status === "issued") {
          expect(note.number).toMatch(/^CN-\d{4}-\d{6}$/);
          break;
        }
        if (Date.now() > deadline) throw new Error("the refund was not settled");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.stop();
    }
  });
});
