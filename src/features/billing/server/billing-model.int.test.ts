import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import fc from "fast-check";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { attemptAt, MAX_RENEWAL_ATTEMPTS } from "@/core/billing/dunning";
import { addPeriod } from "@/core/billing/subscription";
import { type RateTable, toDecimalString } from "@/core/money";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { invoices, member, organization, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider } from "@/server/payments/provider";
import { createTestProvider, readLedger } from "@/server/payments/test-provider";
import { organizationPlan } from "@/server/plan-limits";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { currentSigningKey } from "./receipt-keys";
import { refundInvoice } from "./refunds";
import { runBillingClock } from "./renew";

/**
 * A model-based test: random sequences of checkouts, clock jumps, clock runs (one instance, or two at
 * once), declines and refunds against two "instances" (two connection pools, two providers sharing
 * one ledger file) on real PostgreSQL, compared after every step with a small in-memory model of
 * what was paid. The model knows only paid periods, cards and refunded amounts; the invariants are
 * checked in the database and in the provider's own record.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let otherSql: postgres.Sql;
let instances: { db: Db; provider: PaymentProvider }[];
let rates: RateTable;
let dir: string;
let ledger: string;

const ORGS = 3;
const CARDS = {
  approve: "4242424242424242",
  approveThenDecline: "4000000000000341",
  decline: "4000000000000002",
} as const;
type CardKind = keyof typeof CARDS;

beforeAll(async () => {
  t = await createTestDatabase();
  otherSql = postgres(t.url, { max: 5, onnotice: () => {} });
  dir = mkdtempSync(join(tmpdir(), "abacus-model-"));
  ledger = join(dir, "provider.jsonl");
  instances = [
    { db: t.db, provider: createTestProvider({ ledgerPath: ledger }) },
    { db: drizzle(otherSql, { schema }), provider: createTestProvider({ ledgerPath: ledger }) },
  ];
  rates = await loadRateTable(t.db);
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Model Owner", email: "m@example.com", onboardingStep: "done" });
});
afterAll(async () => {
  await otherSql.end();
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

type Op =
  | { kind: "checkout"; org: number; plan: "pro" | "team"; yearly: boolean; card: CardKind; via: number }
  | { kind: "advance"; hours: number }
  | { kind: "clock"; both: boolean; hours: number }
  | { kind: "refund"; pick: number; permille: number; via: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("checkout" as const),
      org: fc.nat(ORGS - 1),
      plan: fc.constantFrom("pro" as const, "team" as const),
      yearly: fc.constantFrom(false, false, false, true),
      card: fc.constantFrom<CardKind>("approve", "approve", "approve", "approveThenDecline", "decline"),
      via: fc.nat(1),
    }),
  },
  fc.record({ kind: fc.constant("advance" as const), hours: fc.integer({ min: 1, max: 24 * 75 }) }),
  // The clock runs after a jump of up to 45 days (0: at the current instant again).
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("clock" as const),
      both: fc.boolean(),
      hours: fc.oneof(
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 24 * 45 }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      pick: fc.nat(50),
      permille: fc.integer({ min: 1, max: 1300 }),
      via: fc.nat(1),
    }),
  },
);

interface OrgModel {
  id: string;
  /** Paid periods, in order; they never overlap. */
  periods: { start: Date; end: Date; plan: "pro" | "team" }[];
  interval: "monthly" | "yearly";
  /** Whether renewals of the card on file succeed; null once the subscription stopped renewing. */
  renews: boolean | null;
  /**
   * While a declined renewal waits for its retries (past due): the instant of the last attempt. The
   * organization is on Free meanwhile and a new checkout is refused until a clock run at or after
   * it makes the last attempt, whose decline ends the subscription.
   */
  pastDueUntil: Date | null;
}

function planAt(org: OrgModel, at: Date): "free" | "pro" | "team" {
  return org.periods.find((p) => p.start <= at && at < p.end)?.plan ?? "free";
}

let runCounter = 0;
/** What the runs did, printed once: a check that the sequences reach every path. */
const seen = {
  paidCheckouts: 0,
  declinedCheckouts: 0,
  renewals: 0,
  lapses: 0,
  pastDueRefusals: 0,
  refunds: 0,
  refused: 0,
  twoInstances: 0,
};

/** One run: fresh organizations, a clock starting in 2026, the operations in turn. */
async function runModel(ops: Op[]) {
  runCounter += 1;
  const run = runCounter;
  const orgs: OrgModel[] = [];
  for (let i = 0; i < ORGS; i++) {
    const id = `model-${run}-${i}`;
    await t.db.insert(organization).values({ id, name: `Model ${run}.${i}`, slug: id });
    await t.db
      .insert(member)
      .values({ id: `mm-${run}-${i}`, organizationId: id, userId: "u1", role: "owner" });
    orgs.push({ id, periods: [], interval: "monthly", renews: null, pastDueUntil: null });
  }
  const ids = orgs.map((o) => o.id);
  const refunded = new Map<string, bigint>();
  let now = new Date(Date.UTC(2026, 0, 1 + (run % 28), 9, 0, 0));
  try {
    for (const op of ops) {
      await step(op);
      await checkInvariants();
    }
  } finally {
    // Later runs move their own clocks: this run's subscriptions must not renew meanwhile.
    await t.db
      .update(subscriptions)
      .set({ status: "ended" })
      .where(inArray(subscriptions.organizationId, ids));
  }

  async function step(op: Op) {
    switch (op.kind) {
      case "advance":
        now = new Date(now.getTime() + op.hours * 3_600_000);
        return;
      case "checkout": {
        const org = orgs[op.org] as OrgModel;
        // Buying is for an organization without a paid plan (plan changes are their own path).
        if (planAt(org, now) !== "free") return;
        const checked = checkCard({ number: CARDS[op.card], expiry: "12/30", cvc: "123" }, now);
        if (!checked.ok) throw new Error("bad test card");
        const at = now;
        const interval = op.yearly ? "yearly" : "monthly";
        const { db, provider } = instances[op.via] as (typeof instances)[number];
        const outcome = await processCheckout(
          db,
          provider,
          rates,
          {
            organization: { id: org.id, name: org.id },
            userId: "u1",
            idempotencyKey: crypto.randomUUID(),
            plan: op.plan,
            interval,
            currency: "EUR",
            billing: { name: `${org.id} GmbH`, country: "DE", vatId: null },
            card: checked.card,
          },
          { now: () => at },
        );
        if (org.pastDueUntil) {
          // The unpaid renewal is still being retried: nothing new is charged.
          expect(outcome).toMatchObject({ status: "pending", reason: expect.stringContaining("past due") });
          seen.pastDueRefusals += 1;
          return;
        }
        if (op.card === "decline") {
          expect(outcome).toMatchObject({ status: "failed" });
          seen.declinedCheckouts += 1;
          return;
        }
        expect(outcome).toMatchObject({ status: "paid" });
        org.periods.push({ start: at, end: addPeriod(at, interval), plan: op.plan });
        org.interval = interval;
        org.renews = op.card === "approve";
        seen.paidCheckouts += 1;
        return;
      }
      case "clock": {
        now = new Date(now.getTime() + op.hours * 3_600_000);
        const at = now;
        const runners = op.both ? instances : [instances[0] as (typeof instances)[number]];
        await Promise.all(runners.map((i) => runBillingClock(i.db, i.provider, rates, at)));
        if (op.both) seen.twoInstances += 1;
        for (const org of orgs) {
          const last = org.periods.at(-1);
          let end = last?.end;
          while (last && end && end <= at && org.renews !== null) {
            if (org.renews) {
              const next = addPeriod(end, org.interval);
              org.periods.push({ start: end, end: next, plan: last.plan });
              end = next;
              seen.renewals += 1;
            } else {
              // The renewal at `end` is declined: retried on the dunning schedule.
              org.renews = null;
              org.pastDueUntil = attemptAt(end, MAX_RENEWAL_ATTEMPTS);
            }
          }
          // This run made every attempt due by `at`, the last one included: declined, it ends.
          if (org.pastDueUntil && org.pastDueUntil <= at) {
            org.pastDueUntil = null;
            seen.lapses += 1;
          }
        }
        return;
      }
      case "refund": {
        const paid = await t.db
          .select({ number: invoices.number, total: invoices.totalMinor, currency: invoices.currency })
          .from(invoices)
          .where(inArray(invoices.organizationId, ids))
          .orderBy(invoices.number);
        const invoice = paid[op.pick % Math.max(1, paid.length)];
        if (!invoice?.number) return;
        const left = invoice.total - (refunded.get(invoice.number) ?? 0n);
        let amount = (invoice.total * BigInt(op.permille)) / 1000n;
        if (amount < 1n) amount = 1n;
        const { db, provider } = instances[op.via] as (typeof instances)[number];
        const result = await refundInvoice(
          db,
          provider,
          {
            invoiceNumber: invoice.number,
            amount: toDecimalString({ amount, currency: invoice.currency }),
            reason: "model refund",
            userId: null,
          },
          { key: await currentSigningKey(db), now: () => now },
        );
        if (amount <= left) {
          expect(result).toMatchObject({ ok: true, data: { status: "issued" } });
          refunded.set(invoice.number, (refunded.get(invoice.number) ?? 0n) + amount);
          seen.refunds += 1;
        } else {
          expect(result).toMatchObject({ ok: false, code: "too_much" });
          seen.refused += 1;
        }
        return;
      }
    }
  }

  async function checkInvariants() {
    // At most one paid order per (organization, period start), across the whole database.
    const doubled = await t.sql`select organization_id, period_start from orders
      where status = 'paid' and period_start is not null group by 1, 2 having count(*) > 1`;
    expect(doubled).toEqual([]);
    // Invoice and credit-note numbers: exactly 1..N per series (per year), no gap, no repeat.
    const series = await t.sql`select s.series, s.last_value::int as last,
        (select count(*)::int from (select number from invoices where number like s.series || '-%'
           union all select number from credit_notes where number like s.series || '-%') d) as n,
        (select count(distinct number)::int from (select number from invoices where number like s.series || '-%'
           union all select number from credit_notes where number like s.series || '-%') d) as distinct_n,
        (select coalesce(max(substr(number, length(s.series) + 2)::int), 0) from (select number from invoices
           where number like s.series || '-%' union all select number from credit_notes
           where number like s.series || '-%') d) as hi
      from document_sequences s`;
    for (const s of series) expect(s).toEqual({ ...s, n: s.last, distinct_n: s.last, hi: s.last });
    // Every invoice's lines sum to its total.
    const unbalanced = await t.sql`select i.number from invoices i where i.total_minor <>
      (select coalesce(sum(l.amount_minor), 0) from invoice_lines l where l.invoice_id = i.id)`;
    expect(unbalanced).toEqual([]);
    // Refunds (issued or still being asked for) never exceed the invoice.
    const over = await t.sql`select i.number from invoices i join credit_notes c on c.invoice_id = i.id
      where c.status in ('pending', 'issued') group by i.id having sum(c.total_minor) > i.total_minor`;
    expect(over).toEqual([]);
    // This run's organizations: the plan in effect, the paid orders, one invoice each, and one
    // successful provider charge per paid period (the provider's own record).
    const charged = new Map<string, number>();
    for (const e of readLedger(ledger)) {
      if (e.replay || e.op === "refund" || e.result.status !== "succeeded") continue;
      const org = e.key.slice(0, e.key.indexOf(":"));
      charged.set(org, (charged.get(org) ?? 0) + 1);
    }
    for (const org of orgs) {
      expect(await organizationPlan(t.db, org.id, now), `${org.id} at ${now.toISOString()}`).toBe(
        planAt(org, now),
      );
      const paid =
        await t.sql`select count(*)::int as n from orders where organization_id = ${org.id} and status = 'paid'`;
      expect(paid[0]?.n, `${org.id}'s paid orders`).toBe(org.periods.length);
      const [sub] = await t.sql`select status from subscriptions where organization_id = ${org.id}`;
      expect(sub?.status === "past_due", `${org.id} past due at ${now.toISOString()}`).toBe(
        org.pastDueUntil !== null,
      );
      const issued =
        await t.sql`select count(*)::int as n from invoices where organization_id = ${org.id} and status = 'paid'`;
      expect(issued[0]?.n).toBe(org.periods.length);
      expect(charged.get(org.id) ?? 0, `${org.id}'s provider charges`).toBe(org.periods.length);
    }
  }
}

describe("billing against a model", () => {
  it(
    "keeps its invariants under random checkouts, clock runs on two instances, declines and refunds",
    async () => {
      // A failure prints its seed: `MODEL_SEED=<seed> MODEL_RUNS=<n>` replays it (or runs longer).
      const numRuns = Number(process.env.MODEL_RUNS ?? 25);
      const seed = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 12, size: "max" }), async (ops) => {
          runs += 1;
          await runModel(ops);
        }),
        { numRuns, endOnFailure: true, ...(seed === undefined ? {} : { seed }) },
      );
      expect(runs).toBe(numRuns);
      console.log(`billing model: ${runs} runs passed; steps that acted: ${JSON.stringify(seen)}`);
    },
    120_000 * Math.max(1, Number(process.env.MODEL_RUNS ?? 25) / 25),
  );
});
