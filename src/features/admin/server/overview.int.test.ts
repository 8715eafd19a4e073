import { quickAddJob, runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditNotes, invoices, orders, organization, subscriptions } from "@/server/db/schema";
import { createTestDatabase } from "../../../../tests/support/db";
import { activeSubscriptions, jobQueue, revenueByCurrency } from "./overview";

let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.insert(organization).values([
    { id: "org-a", name: "A", slug: "org-a" },
    { id: "org-b", name: "B", slug: "org-b" },
    { id: "org-c", name: "C", slug: "org-c" },
  ]);
});
afterAll(() => t.drop());

const order = (n: number, currency: string, total: bigint, status: "paid" | "failed" | "pending") => ({
  organizationId: "org-a",
  idempotencyKey: `key-${n}`,
  plan: "pro" as const,
  interval: "monthly" as const,
  currency,
  subtotalMinor: total,
  netMinor: total,
  taxMinor: 0n,
  totalMinor: total,
  taxRate: "0",
  taxTreatment: "exclusive" as const,
  basePriceUsd: "12",
  fxRate: "1",
  billingName: "A",
  billingCountry: "US",
  status,
  paidAt: status === "paid" ? new Date() : null,
});

describe("admin overview money figures", () => {
  it("sums paid orders per currency exactly, past what a float can hold, ignoring unpaid ones", async () => {
    // 2^53 + 1 minor units twice: a float sum would lose the last digit.
    const big = 9_007_199_254_740_993n;
    await t.db
      .insert(orders)
      .values([
        order(1, "USD", big, "paid"),
        order(2, "USD", big, "paid"),
        order(3, "USD", 500n, "failed"),
        order(4, "JPY", 1980n, "paid"),
        order(5, "KWD", 3615n, "pending"),
      ]);
    expect(await revenueByCurrency(t.db)).toEqual([
      { currency: "JPY", totalMinor: 1980n, refundsMinor: 0n, netMinor: 1980n, orders: 1 },
      {
        currency: "USD",
        totalMinor: 18_014_398_509_481_986n,
        refundsMinor: 0n,
        netMinor: 18_014_398_509_481_986n,
        orders: 2,
      },
    ]);
  });

  it("subtracts issued refunds (credit notes) from gross, not pending or failed ones", async () => {
    const [paid] = await t.db
      .insert(orders)
      .values(order(6, "JPY", 1980n, "paid"))
      .returning();
    const [invoice] = await t.db
      .insert(invoices)
      .values({
        orderId: paid?.id ?? "",
        organizationId: "org-a",
        number: "INV-2026-000001",
        status: "paid",
        currency: "JPY",
        subtotalMinor: 1980n,
        netMinor: 1980n,
        taxMinor: 0n,
        totalMinor: 1980n,
        taxRate: "0",
        billingName: "A",
        billingCountry: "US",
        finalizedAt: new Date(),
      })
      .returning();
    const note = (key: string, total: bigint, status: "issued" | "pending" | "failed", number?: string) => ({
      invoiceId: invoice?.id ?? "",
      organizationId: "org-a",
      number: number ?? null,
      status,
      currency: "JPY",
      netMinor: total,
      taxMinor: 0n,
      totalMinor: total,
      reason: "requested by the customer",
      idempotencyKey: key,
      provider: "test",
      issuedAt: status === "issued" ? new Date() : null,
    });
    await t.db
      .insert(creditNotes)
      .values([
        note("cn-1", 480n, "issued", "CN-2026-000001"),
        note("cn-2", 100n, "pending"),
        note("cn-3", 200n, "failed"),
      ]);
    // The first test's paid JPY order (1,980) is there too.
    const jpy = (await revenueByCurrency(t.db)).find((r) => r.currency === "JPY");
    expect(jpy).toEqual({
      currency: "JPY",
      totalMinor: 3960n,
      refundsMinor: 480n,
      netMinor: 3480n,
      orders: 2,
    });
  });

  it("counts only subscriptions that are active and inside their period", async () => {
    const day = 86_400_000;
    const now = Date.now();
    const sub = (organizationId: string, status: "active" | "ended", end: number) => ({
      organizationId,
      plan: "pro" as const,
      interval: "monthly" as const,
      currency: "USD",
      status,
      currentPeriodStart: new Date(end - 30 * day),
      currentPeriodEnd: new Date(end),
    });
    await t.db
      .insert(subscriptions)
      .values([
        sub("org-a", "active", now + day),
        sub("org-b", "ended", now + day),
        sub("org-c", "active", now - day),
      ]);
    expect(await activeSubscriptions(t.db)).toBe(1);
  });
});

describe("the job queue in the system facts", () => {
  it("is null until graphile-worker's schema exists, then counts each state from its tables", async () => {
    expect(await jobQueue(t.db)).toBeNull();
    await runMigrations({ connectionString: t.url });
    expect(await jobQueue(t.db)).toEqual({
      due: 0,
      scheduled: 0,
      running: 0,
      failed: 0,
      capped: false,
      oldestDueAt: null,
      lastTickAt: null,
    });

    const options = { connectionString: t.url };
    const past = new Date(Date.now() - 60_000);
    await quickAddJob(options, "billing_renew", { n: 1 }, { runAt: past });
    await quickAddJob(options, "billing_renew", { n: 2 });
    await quickAddJob(options, "billing_renew", { n: 3 }, { runAt: new Date(Date.now() + 3_600_000) });
    const running = await quickAddJob(options, "billing_renew", { n: 4 });
    const failed = await quickAddJob(options, "billing_renew", { n: 5 }, { maxAttempts: 2 });
    // As a worker leaves them: one locked while it runs, one with every attempt used.
    await t.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w1', attempts = 1
      where id = ${running.id}`;
    await t.sql`update graphile_worker._private_jobs set attempts = 2, last_error = 'declined'
      where id = ${failed.id}`;
    const tick = new Date("2026-11-28T06:01:00Z");
    await t.sql`insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      values ('billing_tick', ${tick.toISOString()}, ${tick.toISOString()})`;

    const queue = await jobQueue(t.db);
    expect(queue).toMatchObject({ due: 2, scheduled: 1, running: 1, failed: 1, capped: false });
    expect(queue?.oldestDueAt?.getTime()).toBe(past.getTime());
    expect(queue?.lastTickAt?.toISOString()).toBe(tick.toISOString());
  });
});
