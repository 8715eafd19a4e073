import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { quickAddJob, type Runner } from "graphile-worker";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { MAX_RENEWAL_ATTEMPTS, RETRY_DAYS } from "@/core/billing/dunning";
import { planOf } from "@/core/billing/plans";
import { addPeriod } from "@/core/billing/subscription";
import { type RateTable, toDecimalString } from "@/core/money";
import * as schema from "@/server/db/schema";
import {
  invoices,
  mailOutbox,
  member,
  orders,
  organization,
  paymentMethods,
  payments,
  subscriptions,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createMailer } from "@/server/mail/outbox";
import type { PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { organizationPlan } from "@/server/plan-limits";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { renewalKey, retryPastDueNow, runBillingClock } from "./renew";
import { applyStripeEvent } from "./stripe-webhook";
import { startBillingWorker } from "./worker";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let orgCounter = 0;
const START = new Date("2026-01-31T10:00:00Z");
const END = addPeriod(START, "monthly");
const ORIGIN = "https://abacus.example.com";
const APPROVE_THEN_DECLINE = "4000000000000341";
const day = (n: number) => new Date(END.getTime() + n * 86_400_000);

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
});
afterAll(async () => {
  await t.drop();
});

function card(number: string): CheckedCard {
  const checked = checkCard({ number, expiry: "12/30", cvc: "123" }, new Date("2026-01-01T00:00:00Z"));
  if (!checked.ok) throw new Error(`bad test card ${number}`);
  return checked.card;
}

/**
 * A new organization (two owners and a member) that bought Pro monthly at START with the given
 * card. Other tests' subscriptions are due too: each test looks only at its own organizations.
 */
async function subscribed(number = APPROVE_THEN_DECLINE, owners = 2) {
  orgCounter += 1;
  const n = orgCounter;
  const id = `org-d${n}`;
  const people = [
    ...Array.from({ length: owners }, (_, i) => ({ id: `d${n}-owner${i}`, role: "owner" as const })),
    { id: `d${n}-member`, role: "member" as const },
  ];
  await t.db.insert(user).values(
    people.map((p) => ({
      id: p.id,
      name: p.id,
      email: `${p.id}@example.com`,
      onboardingStep: "done" as const,
    })),
  );
  await t.db.insert(organization).values({ id, name: `Dunning ${n}`, slug: `dunning-${n}` });
  await t.db
    .insert(member)
    .values(people.map((p) => ({ id: `m-${p.id}`, organizationId: id, userId: p.id, role: p.role })));
  const outcome = await processCheckout(
    t.db,
    createTestProvider(),
    rates,
    {
      organization: { id, name: `Dunning ${n}` },
      userId: `d${n}-owner0`,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      billing: { name: `Dunning ${n} GmbH`, country: "DE", vatId: null },
      card: card(number),
    },
    { now: () => START },
  );
  expect(outcome).toMatchObject({ status: "paid" });
  return { id, owners: people.filter((p) => p.role === "owner").map((p) => `${p.id}@example.com`) };
}

/** Counts the off-session charges the provider receives. */
function observed(inner: PaymentProvider) {
  const calls: SavedChargeRequest[] = [];
  const provider: PaymentProvider = {
    id: inner.id,
    charge: (r) => inner.charge(r),
    chargeSaved: async (r) => {
      calls.push(r);
      return inner.chargeSaved(r);
    },
  };
  const keysOf = (orgId: string) =>
    calls.filter((c) => c.metadata.organizationId === orgId).map((c) => c.idempotencyKey);
  return { provider, calls, keysOf };
}

const sub = async (orgId: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId)))[0];

/** The billing mails in the outbox for these addresses, oldest first. */
async function billingMails(addresses: string[]) {
  return t.db
    .select()
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.to, addresses), eq(mailOutbox.kind, "billing")))
    .orderBy(asc(mailOutbox.createdAt));
}

async function renewalOf(orgId: string) {
  const rows = await t.db
    .select()
    .from(orders)
    .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "renewal")));
  expect(rows).toHaveLength(1);
  const order = rows[0];
  if (!order) throw new Error("no renewal");
  const attempts = await t.db
    .select()
    .from(payments)
    .where(eq(payments.orderId, order.id))
    .orderBy(asc(payments.createdAt));
  return { order, attempts };
}

/** What the organization may do at `at`: the limits of its effective plan. */
const limitsAt = async (orgId: string, at: Date) => planOf(await organizationPlan(t.db, orgId, at)).limits;

describe("dunning: a declined renewal is retried on the schedule", () => {
  it("runs the whole schedule: four attempts, one mail per owner at each step, then Free", async () => {
    const org = await subscribed();
    const { provider, keysOf } = observed(createTestProvider());
    const mailer = createMailer(t.db);
    const clock = (at: Date) =>
      runBillingClock(t.db, provider, rates, at, { mail: { mailer, origin: ORIGIN } });
    const pro = planOf("pro").limits;
    const free = planOf("free").limits;
    expect(pro).not.toEqual(free);

    // Paid period: Pro limits, nothing due.
    await clock(new Date(END.getTime() - 1000));
    expect(keysOf(org.id)).toHaveLength(0);
    expect(await limitsAt(org.id, new Date(END.getTime() - 1))).toEqual(pro);

    // The renewal at the period's end is declined: past due, retry in a day, Free limits meanwhile.
    // The first test: its organization is the only one in this database, so the summaries are exact.
    const zero = {
      due: 1,
      renewed: 0,
      failed: 0,
      retried: 0,
      downgraded: 0,
      ended: 0,
      pending: 0,
      skipped: 0,
    };
    expect(await clock(END)).toEqual({ ...zero, at: END.toISOString(), failed: 1 });
    expect(keysOf(org.id)).toEqual([renewalKey(org.id, END, 1)]);
    expect(await sub(org.id)).toMatchObject({
      status: "past_due",
      plan: "pro",
      dunningAttempt: 1,
      nextRetryAt: day(1),
      currentPeriodEnd: END,
    });
    expect(await limitsAt(org.id, END)).toEqual(free);
    let mails = await billingMails(org.owners);
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.to).sort()).toEqual([...org.owners].sort());
    for (const m of mails) {
      expect(m.subject).toBe(`Payment failed: Dunning ${orgCounter}'s Pro plan`);
      expect(m.text).toContain(`${ORIGIN}/dashboard/billing`);
      expect(m.text).toContain("2026-03-01 10:00 UTC");
      const { order } = await renewalOf(org.id);
      const amount = toDecimalString({ amount: order.totalMinor, currency: "EUR" });
      expect(m.text).toContain(`We could not charge ${amount} EUR to Visa ending 0341 for Dunning`);
      expect(m.text).toContain("Attempt 1 of 4");
    }

    // Before the retry is due nothing happens; each retry on its day is one new attempt, own key.
    await clock(day(0.5));
    expect(keysOf(org.id)).toHaveLength(1);
    for (const [i, days] of RETRY_DAYS.entries()) {
      const attempt = i + 2;
      const at = day(days);
      expect(await limitsAt(org.id, at)).toEqual(free);
      const summary = await clock(at);
      const last = attempt === MAX_RENEWAL_ATTEMPTS;
      expect(summary).toEqual({
        ...zero,
        at: at.toISOString(),
        retried: 1,
        failed: last ? 0 : 1,
        downgraded: last ? 1 : 0,
      });
      expect(keysOf(org.id)).toEqual(
        Array.from({ length: attempt }, (_, k) => renewalKey(org.id, END, k + 1)),
      );
      mails = await billingMails(org.owners);
      expect(mails).toHaveLength(2 * attempt);
      if (attempt < MAX_RENEWAL_ATTEMPTS) {
        expect(await sub(org.id)).toMatchObject({
          status: "past_due",
          dunningAttempt: attempt,
          nextRetryAt: day(RETRY_DAYS[attempt - 1] ?? 0),
        });
      } else {
        expect(await sub(org.id)).toMatchObject({ status: "ended", dunningAttempt: 4, nextRetryAt: null });
        for (const m of mails.slice(-2)) {
          expect(m.subject).toBe(`Subscription ended: Dunning ${orgCounter} is on Free`);
          expect(m.text).toContain("last of 4 attempts");
          expect(m.text).toContain(`${ORIGIN}/dashboard/billing`);
        }
      }
    }

    // Ended: Free, and nothing is ever charged again.
    await clock(day(40));
    expect(keysOf(org.id)).toHaveLength(MAX_RENEWAL_ATTEMPTS);
    expect(await limitsAt(org.id, day(40))).toEqual(free);
    expect(await billingMails(org.owners)).toHaveLength(2 * MAX_RENEWAL_ATTEMPTS);
    const { order, attempts } = await renewalOf(org.id);
    expect(order).toMatchObject({ status: "failed", failureCode: "card_declined", claimedUntil: null });
    expect(attempts.map((a) => [a.status, a.failureCode, a.cardLast4])).toEqual(
      Array.from({ length: 4 }, () => ["failed", "card_declined", "0341"]),
    );
    expect(await t.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(0);
    // The member is never mailed.
    expect(await billingMails([`d${orgCounter}-member@example.com`])).toHaveLength(0);
  });

  it("ends at once on a hard decline: one attempt, one last mail, Free", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const inner = createTestProvider();
    const { provider, keysOf } = observed({
      ...inner,
      // The bank reports the card on file stolen.
      chargeSaved: async () => ({
        status: "declined",
        code: "stolen_card",
        reason: "Your card was declined.",
        reference: `test_ch_${crypto.randomUUID()}`,
      }),
    });
    const mailer = createMailer(t.db);
    const clock = (at: Date) =>
      runBillingClock(t.db, provider, rates, at, { mail: { mailer, origin: ORIGIN } });
    const summary = await clock(END);
    expect(summary.downgraded).toBeGreaterThanOrEqual(1);
    expect(await sub(org.id)).toMatchObject({ status: "ended", dunningAttempt: 1, nextRetryAt: null });
    for (const days of [...RETRY_DAYS, 30]) await clock(day(days));
    expect(keysOf(org.id)).toEqual([renewalKey(org.id, END, 1)]);
    const mails = await billingMails(org.owners);
    expect(mails.map((m) => m.subject)).toEqual([`Subscription ended: Dunning ${orgCounter} is on Free`]);
    expect(mails[0]?.text).toContain("will not accept this card again");
    expect(await limitsAt(org.id, END)).toEqual(planOf("free").limits);
    expect((await renewalOf(org.id)).order).toMatchObject({ status: "failed", failureCode: "stolen_card" });
  });

  it("answers a checkout while past due by pointing at the card update, charging nothing", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const inner = createTestProvider();
    const { provider } = observed(inner);
    await runBillingClock(t.db, provider, rates, END, {});
    expect(await sub(org.id)).toMatchObject({ status: "past_due" });
    let charged = 0;
    const counting: PaymentProvider = {
      ...inner,
      charge: async (r) => {
        charged += 1;
        return inner.charge(r);
      },
    };
    const outcome = await processCheckout(
      t.db,
      counting,
      rates,
      {
        organization: { id: org.id, name: "Dunning" },
        userId: `d${orgCounter}-owner0`,
        idempotencyKey: crypto.randomUUID(),
        plan: "team",
        interval: "monthly",
        currency: "EUR",
        billing: { name: "Dunning GmbH", country: "DE", vatId: null },
        card: card("4242424242424242"),
      },
      { now: () => day(0.5) },
    );
    expect(outcome).toMatchObject({ status: "pending" });
    expect(outcome.status === "pending" && outcome.reason).toMatch(/renewal is past due.*billing page/);
    expect(charged).toBe(0);
    expect(await sub(org.id)).toMatchObject({ status: "past_due", plan: "pro" });
  });

  it("a retry that succeeds restores active: the next period starts at the old period's end", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const inner = createTestProvider();
    const { provider, keysOf } = observed(inner);
    const mailer = createMailer(t.db);
    const clock = (at: Date) =>
      runBillingClock(t.db, provider, rates, at, { mail: { mailer, origin: ORIGIN } });
    await clock(END);
    expect(await sub(org.id)).toMatchObject({ status: "past_due", dunningAttempt: 1 });

    // The owner puts a working card on file (as the billing page's card update does).
    const saved = await inner.charge({
      amount: { amount: 100n, currency: "EUR" },
      card: card("5555555555554444"),
      idempotencyKey: `${org.id}:card-update`,
      description: "card check",
      metadata: {},
    });
    if (saved.status !== "succeeded" || !saved.saved) throw new Error("the card was not saved");
    await t.db
      .update(paymentMethods)
      .set({ ...saved.saved, updatedAt: day(0.5) })
      .where(eq(paymentMethods.organizationId, org.id));
    expect(await limitsAt(org.id, day(0.5))).toEqual(planOf("free").limits);

    const summary = await clock(day(1));
    expect(summary.retried).toBeGreaterThanOrEqual(1);
    expect(keysOf(org.id)).toEqual([renewalKey(org.id, END, 1), renewalKey(org.id, END, 2)]);
    // No free days: the paid period runs from the old end, not from the retry.
    expect(await sub(org.id)).toMatchObject({
      status: "active",
      dunningAttempt: 0,
      nextRetryAt: null,
      currentPeriodStart: END,
      currentPeriodEnd: addPeriod(END, "monthly"),
    });
    expect(await limitsAt(org.id, day(1))).toEqual(planOf("pro").limits);
    const { order, attempts } = await renewalOf(org.id);
    expect(order).toMatchObject({ status: "paid", claimedUntil: null });
    expect(attempts.map((a) => [a.status, a.cardLast4])).toEqual([
      ["failed", "0341"],
      ["succeeded", "4444"],
    ]);
    expect(await t.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(1);
    const mails = await billingMails(org.owners);
    expect(mails.map((m) => m.subject)).toEqual([
      `Payment failed: Dunning ${orgCounter}'s Pro plan`,
      `Payment received: Dunning ${orgCounter}'s Pro plan is active`,
    ]);
    expect(mails[1]?.text).toContain("Mastercard ending 4444");

    // Later retries of that period are gone: nothing more is charged until the next period ends.
    for (const days of RETRY_DAYS) await clock(day(days));
    expect(keysOf(org.id)).toHaveLength(2);
  });

  it("charges each attempt once with two instances running the clock at the same instants", async () => {
    const orgs = await Promise.all(Array.from({ length: 5 }, () => subscribed(APPROVE_THEN_DECLINE, 1)));
    const ids = orgs.map((o) => o.id);
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const otherDb = drizzle(other, { schema });
    const { provider, keysOf } = observed(createTestProvider());
    const mail = { mailer: createMailer(t.db), origin: ORIGIN };
    const both = (at: Date) =>
      Promise.all([
        runBillingClock(t.db, provider, rates, at, { mail }),
        runBillingClock(otherDb, provider, rates, at, {
          mail: { mailer: createMailer(otherDb), origin: ORIGIN },
        }),
        runBillingClock(t.db, provider, rates, at, { mail }),
      ]);
    try {
      await both(END);
      await both(day(1));
      for (const o of orgs) {
        expect(keysOf(o.id)).toEqual([renewalKey(o.id, END, 1), renewalKey(o.id, END, 2)]);
        expect(await sub(o.id)).toMatchObject({ status: "past_due", dunningAttempt: 2 });
      }
      // A jump past the rest of the schedule makes the remaining attempts in turn, once each.
      const runs = await both(day(10));
      expect(runs.reduce((n, r) => n + r.retried, 0)).toBeGreaterThanOrEqual(2 * orgs.length);
    } finally {
      await other.end();
    }
    for (const o of orgs) {
      expect(keysOf(o.id)).toEqual(
        Array.from({ length: MAX_RENEWAL_ATTEMPTS }, (_, k) => renewalKey(o.id, END, k + 1)),
      );
      expect(await sub(o.id)).toMatchObject({ status: "ended", dunningAttempt: MAX_RENEWAL_ATTEMPTS });
      expect(await billingMails(o.owners)).toHaveLength(MAX_RENEWAL_ATTEMPTS);
      const { attempts } = await renewalOf(o.id);
      expect(attempts.map((a) => a.status)).toEqual(["failed", "failed", "failed", "failed"]);
    }
    const [renewals] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from orders where organization_id = any(${ids}) and kind = 'renewal'`;
    expect(renewals?.n).toBe(orgs.length);
    expect(
      await t.db
        .select({ id: subscriptions.organizationId })
        .from(subscriptions)
        .where(and(inArray(subscriptions.organizationId, ids), sql`${subscriptions.status} <> 'ended'`)),
    ).toHaveLength(0);
  });
});

describe("retrying a past-due renewal now", () => {
  it("is the schedule's next attempt: declined keeps the schedule, paid restores the plan", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const inner = createTestProvider();
    const { provider, keysOf } = observed(inner);
    const mail = { mailer: createMailer(t.db), origin: ORIGIN };
    expect(await retryPastDueNow(t.db, provider, rates, org.id, END, { mail })).toBe("skipped");
    await runBillingClock(t.db, provider, rates, END, { mail });
    // Still the declining card: attempt 2, and attempt 3 stays on its day.
    expect(await retryPastDueNow(t.db, provider, rates, org.id, day(0.25), { mail })).toBe("failed");
    expect(await sub(org.id)).toMatchObject({ status: "past_due", dunningAttempt: 2, nextRetryAt: day(3) });
    const saved = await inner.charge({
      amount: { amount: 100n, currency: "EUR" },
      card: card("4242424242424242"),
      idempotencyKey: `${org.id}:card-update`,
      description: "card check",
      metadata: {},
    });
    if (saved.status !== "succeeded" || !saved.saved) throw new Error("the card was not saved");
    await t.db.update(paymentMethods).set(saved.saved).where(eq(paymentMethods.organizationId, org.id));
    expect(await retryPastDueNow(t.db, provider, rates, org.id, day(0.5), { mail })).toBe("renewed");
    expect(keysOf(org.id)).toEqual([1, 2, 3].map((a) => renewalKey(org.id, END, a)));
    expect(await sub(org.id)).toMatchObject({
      status: "active",
      dunningAttempt: 0,
      nextRetryAt: null,
      currentPeriodStart: END,
    });
    expect(await limitsAt(org.id, day(0.5))).toEqual(planOf("pro").limits);
    expect((await billingMails(org.owners)).map((m) => m.subject.split(":")[0])).toEqual([
      "Payment failed",
      "Payment failed",
      "Payment received",
    ]);
    expect(await retryPastDueNow(t.db, provider, rates, org.id, day(0.6), { mail })).toBe("skipped");
  });
});

describe("dunning with a period end written by SQL", () => {
  it("follows a period end with microseconds (as the seed's now() writes it)", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const micro = "2026-02-28 10:00:00.123456+00";
    await t.sql`update subscriptions set current_period_end = ${micro}::timestamptz where organization_id = ${org.id}`;
    const at = new Date("2026-02-28T10:00:01Z");
    const { provider, keysOf } = observed(createTestProvider());
    await runBillingClock(t.db, provider, rates, at, {
      mail: { mailer: createMailer(t.db), origin: ORIGIN },
    });
    expect(keysOf(org.id)).toHaveLength(1);
    expect(await sub(org.id)).toMatchObject({
      status: "past_due",
      dunningAttempt: 1,
      nextRetryAt: new Date("2026-03-01T10:00:00.123Z"),
    });
    expect((await billingMails(org.owners)).map((m) => m.subject)).toEqual([
      `Payment failed: Dunning ${orgCounter}'s Pro plan`,
    ]);
    // Nothing more until the retry is due.
    await runBillingClock(t.db, provider, rates, new Date("2026-03-01T10:00:00Z"));
    expect(keysOf(org.id)).toHaveLength(1);
  });
});

describe("dunning keeps each attempt exactly once", () => {
  it("an unanswered retry stays that attempt: after its claim lapses, the same key, never a new one", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const inner = createTestProvider();
    let lose = false;
    const { provider, keysOf } = observed({
      ...inner,
      // The provider's answer to the retry is lost once (it charged nothing: the card declines).
      chargeSaved: async (r) => {
        const answer = await inner.chargeSaved(r);
        if (!lose) return answer;
        lose = false;
        return { status: "unknown", reason: "timeout" };
      },
    });
    const mailer = createMailer(t.db);
    const clock = (at: Date) =>
      runBillingClock(t.db, provider, rates, at, { mail: { mailer, origin: ORIGIN } });
    await clock(END);
    lose = true;
    expect((await clock(day(1))).pending).toBeGreaterThanOrEqual(1);
    expect(keysOf(org.id)).toEqual([renewalKey(org.id, END, 1), renewalKey(org.id, END, 2)]);
    expect((await renewalOf(org.id)).attempts.map((a) => a.status)).toEqual(["failed", "unknown"]);
    // Still claimed: another run leaves it alone.
    await clock(day(1.01));
    expect(keysOf(org.id)).toHaveLength(2);
    // The instance died: the claim lapses, and the next run asks again under attempt 2's key.
    await t.db
      .update(orders)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(and(eq(orders.organizationId, org.id), eq(orders.kind, "renewal")));
    await clock(day(1.02));
    expect(keysOf(org.id)).toEqual([
      renewalKey(org.id, END, 1),
      renewalKey(org.id, END, 2),
      renewalKey(org.id, END, 2),
    ]);
    expect(await sub(org.id)).toMatchObject({ status: "past_due", dunningAttempt: 2, nextRetryAt: day(3) });
    expect((await renewalOf(org.id)).attempts.map((a) => a.status)).toEqual(["failed", "failed"]);
    expect(await billingMails(org.owners)).toHaveLength(2);
  });

  it("a late payment_failed webhook about an attempt already recorded changes nothing", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const mailer = createMailer(t.db);
    await runBillingClock(t.db, createTestProvider(), rates, END, { mail: { mailer, origin: ORIGIN } });
    const before = await sub(org.id);
    const { order } = await renewalOf(org.id);
    const event = {
      type: "payment_intent.payment_failed",
      data: {
        object: {
          id: "pi_late",
          metadata: { orderId: order.id },
          last_payment_error: { code: "card_declined", message: "Declined." },
        },
      },
    };
    expect(await applyStripeEvent(t.db, event)).toEqual({ received: true, applied: false });
    expect(await sub(org.id)).toEqual(before);
    expect((await renewalOf(org.id)).attempts).toHaveLength(1);
  });
});

describe("dunning on graphile-worker", () => {
  it("a tick at the retry instant enqueues each attempt once, and the workers charge it once", async () => {
    const org = await subscribed(APPROVE_THEN_DECLINE, 1);
    const { provider, keysOf } = observed(createTestProvider());
    await runBillingClock(t.db, provider, rates, END);
    expect(await sub(org.id)).toMatchObject({ status: "past_due", dunningAttempt: 1 });
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const deps = (db: typeof t.db) => ({
      db,
      provider: async () => provider,
      rates: async () => rates,
      mail: () => ({ mailer: createMailer(db), origin: ORIGIN }),
    });
    const runners: Runner[] = [];
    try {
      runners.push(await startBillingWorker(t.url, deps(t.db), { crontab: "" }));
      runners.push(await startBillingWorker(t.url, deps(drizzle(other, { schema })), { crontab: "" }));
      const at = day(1).toISOString();
      await quickAddJob({ connectionString: t.url }, "billing_tick", { at });
      await quickAddJob({ connectionString: t.url }, "billing_tick", { at });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [left] = await t.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs`;
        if ((left?.n ?? 1) === 0 && (await sub(org.id))?.dunningAttempt === 2) break;
        if (Date.now() > deadline) throw new Error("the workers did not finish");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
      await other.end();
    }
    expect(keysOf(org.id)).toEqual([renewalKey(org.id, END, 1), renewalKey(org.id, END, 2)]);
    expect(await sub(org.id)).toMatchObject({ status: "past_due", nextRetryAt: day(3) });
    expect(await billingMails(org.owners)).toHaveLength(1);
  });
});
