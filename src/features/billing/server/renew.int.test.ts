import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money";
import * as schema from "@/server/db/schema";
import { member, orders, organization, receipts, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { organizationPlan } from "@/server/plan-limits";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { RENEWAL_BATCH, runBillingClock } from "./renew";
import { cancelAtPeriodEnd, scheduleDowngrade } from "./subscription";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let orgCounter = 0;
const START = new Date("2026-01-31T10:00:00Z");

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

function card(number: string): CheckedCard {
  const checked = checkCard({ number, expiry: "12/30", cvc: "123" }, new Date("2026-01-01T00:00:00Z"));
  if (!checked.ok) throw new Error(`bad test card ${number}`);
  return checked.card;
}

/** A new organization that bought a plan at START with the given card; the clock starts clean. */
async function subscribed(number = "4242424242424242", plan: "pro" | "team" = "pro") {
  orgCounter += 1;
  const n = orgCounter;
  const id = `org-r${n}`;
  await t.db.insert(organization).values({ id, name: `Renew ${n}`, slug: `renew-${n}` });
  await t.db.insert(member).values({ id: `mr-${n}`, organizationId: id, userId: "u1", role: "owner" });
  const outcome = await processCheckout(
    t.db,
    createTestProvider(),
    rates,
    {
      organization: { id, name: `Renew ${n}` },
      userId: "u1",
      idempotencyKey: crypto.randomUUID(),
      plan,
      interval: "monthly",
      currency: "EUR",
      billing: { name: `Renew ${n} GmbH`, country: "DE", vatId: null },
      card: card(number),
    },
    { now: () => START },
  );
  expect(outcome).toMatchObject({ status: "paid" });
  // Other tests' subscriptions are due too: each test looks only at its own organization.
  return id;
}

/** Counts off-session charges per key, and checks that no transaction holds the organization's lock meanwhile. */
function observed(inner: PaymentProvider, probe?: postgres.Sql) {
  const calls: SavedChargeRequest[] = [];
  const lockFree: boolean[] = [];
  const provider: PaymentProvider = {
    id: inner.id,
    charge: (r) => inner.charge(r),
    chargeSaved: async (r) => {
      calls.push(r);
      if (probe) {
        const orgId = r.metadata.organizationId ?? "";
        const [row] = await probe.begin(
          (tx) =>
            tx`select pg_try_advisory_xact_lock(hashtextextended(${`abacus:checkout:${orgId}`}, 0)) as free`,
        );
        lockFree.push(Boolean(row?.free));
      }
      return inner.chargeSaved(r);
    },
  };
  return { provider, calls, lockFree };
}

const sub = async (orgId: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId)))[0];

describe("the billing clock", () => {
  it("renews a due period once, from the end of the last one, with the provider called outside any lock", async () => {
    const orgId = await subscribed();
    const end = addPeriod(START, "monthly");
    expect(end.toISOString()).toBe("2026-02-28T10:00:00.000Z");
    const probe = postgres(t.url, { max: 1, onnotice: () => {} });
    const { provider, calls, lockFree } = observed(createTestProvider(), probe);
    try {
      // Before the period ends nothing is due.
      await runBillingClock(t.db, provider, rates, new Date(end.getTime() - 1000));
      expect(calls.filter((c) => c.metadata.organizationId === orgId)).toHaveLength(0);
      const at = new Date(end.getTime() + 3_600_000);
      expect(await organizationPlan(t.db, orgId, at)).toBe("free");
      await runBillingClock(t.db, provider, rates, at);
      await runBillingClock(t.db, provider, rates, at);
      const mine = calls.filter((c) => c.metadata.organizationId === orgId);
      expect(mine.map((c) => c.idempotencyKey)).toEqual([`${orgId}:renew:${end.toISOString()}:1`]);
      expect(lockFree).not.toContain(false);
      expect(await sub(orgId)).toMatchObject({
        status: "active",
        plan: "pro",
        currentPeriodStart: end,
        currentPeriodEnd: addPeriod(end, "monthly"),
      });
      expect(await organizationPlan(t.db, orgId, at)).toBe("pro");
      const [renewal] = await t.db
        .select()
        .from(orders)
        .where(and(eq(orders.organizationId, orgId), eq(orders.periodStart, end)));
      expect(renewal).toMatchObject({
        status: "paid",
        totalMinor: mine[0]?.amount.amount,
        claimedUntil: null,
      });
      const [receipt] = await t.db
        .select()
        .from(receipts)
        .where(eq(receipts.orderId, renewal?.id ?? ""));
      expect(JSON.parse(receipt?.payload ?? "{}").period).toEqual({
        start: end.toISOString(),
        end: addPeriod(end, "monthly").toISOString(),
      });
    } finally {
      await probe.end();
    }
  });

  it("charges each period once when two instances run the clock at the same instant", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => subscribed()));
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const otherDb = drizzle(other, { schema });
    const { provider, calls } = observed(createTestProvider());
    const at = new Date("2026-03-01T00:00:00Z");
    try {
      await Promise.all([
        runBillingClock(t.db, provider, rates, at),
        runBillingClock(otherDb, provider, rates, at),
        runBillingClock(t.db, provider, rates, at),
      ]);
    } finally {
      await other.end();
    }
    for (const id of ids) {
      expect(calls.filter((c) => c.metadata.organizationId === id)).toHaveLength(1);
      const renewals = await t.db
        .select()
        .from(orders)
        .where(and(eq(orders.organizationId, id), sql`${orders.periodStart} is not null`));
      expect(renewals.map((r) => r.status)).toEqual(["paid"]);
    }
  });

  it("makes the subscription past due when the card on file is declined: Free from the period's end", async () => {
    const orgId = await subscribed("4000000000000341");
    const at = new Date("2026-03-01T00:00:00Z");
    const summary = await runBillingClock(t.db, createTestProvider(), rates, at);
    expect(summary.failed).toBeGreaterThanOrEqual(1);
    // The retries are dunning.int.test.ts's subject: here only the first step.
    expect(await sub(orgId)).toMatchObject({
      status: "past_due",
      dunningAttempt: 1,
      nextRetryAt: new Date("2026-03-01T10:00:00Z"),
    });
    expect(await organizationPlan(t.db, orgId, at)).toBe("free");
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), sql`${orders.periodStart} is not null`));
    expect(renewal).toMatchObject({ status: "pending", failureCode: "card_declined", claimedUntil: null });
  });

  it("charges a scheduled downgrade's plan, and ends a cancelled plan without a charge", async () => {
    const down = await subscribed("4242424242424242", "team");
    const cancelled = await subscribed();
    const now = new Date("2026-02-10T00:00:00Z");
    expect(await scheduleDowngrade(t.db, down, "pro", now)).toMatchObject({ ok: true });
    expect(await cancelAtPeriodEnd(t.db, cancelled, now)).toMatchObject({ ok: true });
    const { provider, calls } = observed(createTestProvider());
    const at = new Date("2026-03-01T00:00:00Z");
    await runBillingClock(t.db, provider, rates, at);
    expect(await sub(down)).toMatchObject({ status: "active", plan: "pro", scheduledPlan: null });
    expect(calls.filter((c) => c.metadata.organizationId === cancelled)).toHaveLength(0);
    expect(await sub(cancelled)).toMatchObject({ status: "ended" });
    expect(await organizationPlan(t.db, cancelled, at)).toBe("free");
  });
});

describe("the billing clock in batches", () => {
  it("renews more than a batch on two instances at once: each period once, invoices numbered 1..N", async () => {
    expect(RENEWAL_BATCH).toBeLessThan(30);
    const plain = await Promise.all(Array.from({ length: 30 }, () => subscribed()));
    const declined = await subscribed("4000000000000341");
    const down = await subscribed("4242424242424242", "team");
    const cancelled = await subscribed();
    const busy = await subscribed();
    const now = new Date("2026-02-10T00:00:00Z");
    expect(await scheduleDowngrade(t.db, down, "pro", now)).toMatchObject({ ok: true });
    expect(await cancelAtPeriodEnd(t.db, cancelled, now)).toMatchObject({ ok: true });
    const at = new Date("2026-04-01T00:00:00Z");
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const otherDb = drizzle(other, { schema });
    // Another transaction (a checkout, say) holds one organization's billing lock while the clocks
    // run: they renew everything else first, then wait for it.
    const holder = postgres(t.url, { max: 1, onnotice: () => {} });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = holder.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${`abacus:checkout:${busy}`}, 0))`;
      locked();
      await released;
    });
    const { provider, calls } = observed(createTestProvider());
    try {
      await lockTaken;
      const runs = Promise.all([
        runBillingClock(t.db, provider, rates, at),
        runBillingClock(otherDb, provider, rates, at),
      ]);
      // Wait for a condition, not a time: every other organization's first renewal settled.
      const others = [...plain, declined, down];
      for (let i = 0; i < 600; i++) {
        const settled = new Set(
          calls.filter((c) => c.metadata.organizationId !== busy).map((c) => c.metadata.organizationId),
        );
        if (others.every((id) => settled.has(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(calls.filter((c) => c.metadata.organizationId === busy)).toHaveLength(0);
      release();
      await holding;
      await runs;
    } finally {
      release();
      await holding.catch(() => {});
      await other.end();
      await holder.end();
    }
    const keys = calls.map((c) => c.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const id of [...plain, down, busy]) {
      const periods = await t.db
        .select()
        .from(orders)
        .where(and(eq(orders.organizationId, id), sql`${orders.periodStart} is not null`));
      // Due at 02-28 and at 03-28: both months renewed, each once.
      expect(periods.map((o) => [o.status, o.kind])).toEqual([
        ["paid", "renewal"],
        ["paid", "renewal"],
      ]);
      expect(calls.filter((c) => c.metadata.organizationId === id)).toHaveLength(2);
      expect(await sub(id)).toMatchObject({
        status: "active",
        currentPeriodEnd: new Date("2026-04-28T10:00:00Z"),
      });
    }
    expect(await sub(down)).toMatchObject({ plan: "pro", scheduledPlan: null });
    // Its first renewal declined, and every retry due by then too (each a charge of its own key).
    expect(await sub(declined)).toMatchObject({ status: "ended" });
    expect(calls.filter((c) => c.metadata.organizationId === declined).length).toBeGreaterThan(1);
    expect(await sub(cancelled)).toMatchObject({ status: "ended" });
    expect(calls.filter((c) => c.metadata.organizationId === cancelled)).toHaveLength(0);
    // Every paid order has one invoice and one receipt naming it; the series is 1..N, no gap.
    const rows = await t.sql<{ number: string; receipt: string | null }[]>`select i.number,
        r.payload::json->>'invoiceNumber' as receipt
      from orders o join invoices i on i.order_id = o.id left join receipts r on r.order_id = o.id
      where o.status = 'paid' order by i.number`;
    const [{ paid } = { paid: -1 }] = await t.sql<{ paid: number }[]>`select count(*)::int as paid
      from orders where status = 'paid'`;
    expect(rows).toHaveLength(paid);
    expect(rows.map((r) => r.number)).toEqual(
      rows.map((_, i) => `INV-2026-${String(i + 1).padStart(6, "0")}`),
    );
    for (const row of rows) expect(row.receipt).toBe(row.number);
  });
});

describe("npm run billing:run", () => {
  const run = (at: string, env: Record<string, string> = {}) =>
    promisify(execFile)(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/tools/billing-run.ts", "--at", at],
      { env: { ...process.env, DATABASE_URL: t.url, ...env } },
    );

  it("runs the due renewals once as of the given instant and prints one JSON line", async () => {
    const orgId = await subscribed();
    // Declined at its period's end, then retried on the schedule: all of it lies before `at`.
    const declining = await subscribed("4000000000000341");
    const at = "2026-04-15T00:00:00Z";
    const first = await run(at);
    const summary = JSON.parse(first.stdout.trim());
    expect(first.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(summary)).toEqual([
      "at",
      "due",
      "renewed",
      "failed",
      "retried",
      "downgraded",
      "pending",
    ]);
    expect(summary).toMatchObject({ at: "2026-04-15T00:00:00.000Z", pending: 0 });
    expect(summary.renewed).toBeGreaterThanOrEqual(1);
    expect(summary.failed).toBeGreaterThanOrEqual(3);
    expect(summary.retried).toBeGreaterThanOrEqual(3);
    expect(summary.downgraded).toBeGreaterThanOrEqual(1);
    expect(await sub(declining)).toMatchObject({ status: "ended", dunningAttempt: 4, nextRetryAt: null });
    // Each step mailed the owner (the mails' links go to stderr, never stdout).
    const [mailed] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from mail_outbox where kind = 'billing' and text like ${`%Renew ${orgCounter}'s %`}`;
    expect(mailed?.n).toBe(4);
    // Monthly from 31 January: the clock jumped two periods, renewed in turn (28 February, 28 March).
    expect((await sub(orgId))?.currentPeriodEnd.toISOString()).toBe("2026-04-28T10:00:00.000Z");
    const renewals = await t.db
      .select({ start: orders.periodStart, status: orders.status })
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), sql`${orders.periodStart} is not null`))
      .orderBy(orders.periodStart);
    expect(renewals.map((r) => [r.start?.toISOString(), r.status])).toEqual([
      ["2026-02-28T10:00:00.000Z", "paid"],
      ["2026-03-28T10:00:00.000Z", "paid"],
    ]);
    expect(JSON.parse((await run(at)).stdout)).toMatchObject({ due: 0, renewed: 0, retried: 0 });
  });

  it("refuses unless the offline test provider is the active one", async () => {
    await expect(
      run("2026-05-01T00:00:00Z", { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("offline test provider") });
  });
});
