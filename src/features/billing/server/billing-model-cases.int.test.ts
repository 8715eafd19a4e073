import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money";
import { member, orders, organization, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { changePlan } from "./plan-change";
import { runBillingClock } from "./renew";
import { cancelAtPeriodEnd, scheduleDowngrade } from "./subscription";

/**
 * Sequences the model-based test (`billing-model.int.test.ts`) found, each the smallest that showed
 * the behaviour, kept as focused cases against real PostgreSQL.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
const START = new Date("2026-01-05T09:00:00Z");
const END = addPeriod(START, "monthly");

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Case Owner", email: "c@example.com", onboardingStep: "done" });
});
afterAll(async () => {
  await t.drop();
});

async function subscribedWith(id: string, number: string, plan: "pro" | "team" = "pro") {
  await t.db.insert(organization).values({ id, name: id, slug: id });
  await t.db.insert(member).values({ id: `m-${id}`, organizationId: id, userId: "u1", role: "owner" });
  const card = checkCard({ number, expiry: "12/30", cvc: "123" }, START);
  if (!card.ok) throw new Error("bad test card");
  const outcome = await processCheckout(
    t.db,
    createTestProvider(),
    rates,
    {
      organization: { id, name: id },
      userId: "u1",
      idempotencyKey: crypto.randomUUID(),
      plan,
      interval: "monthly",
      currency: "EUR",
      billing: { name: `${id} GmbH`, country: "DE", vatId: null },
      card: card.card,
    },
    { now: () => START },
  );
  expect(outcome).toMatchObject({ status: "paid" });
}

describe("an upgrade while the renewal is past due", () => {
  it("is refused as past due (update the card), not as a payment being confirmed", async () => {
    // Checkout with the card that approves once, the renewal at the period's end declined: past due,
    // its renewal order pending until the next retry.
    await subscribedWith("case-past-due", "4000000000000341");
    const provider = createTestProvider();
    await runBillingClock(t.db, provider, rates, END);
    const [sub] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, "case-past-due"));
    expect(sub).toMatchObject({ status: "past_due", dunningAttempt: 1 });

    const outcome = await changePlan(
      t.db,
      provider,
      rates,
      {
        organizationId: "case-past-due",
        userId: "u1",
        idempotencyKey: crypto.randomUUID(),
        target: { plan: "team", interval: "monthly" },
      },
      { now: () => new Date(END.getTime() + 3_600_000) },
    );
    expect(outcome).toEqual({
      ok: false,
      error:
        "The last renewal payment was declined, so the plan cannot change until it is paid. Update the card on file first.",
    });
    const prorations = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, "case-past-due"), eq(orders.kind, "proration")));
    expect(prorations).toEqual([]);
  });
});

describe("a downgrade scheduled after a cancellation", () => {
  it("replaces the cancellation, its time and reason included", async () => {
    await subscribedWith("case-cancel-then-downgrade", "4242424242424242", "team");
    const at = new Date(START.getTime() + 86_400_000);
    expect(await cancelAtPeriodEnd(t.db, "case-cancel-then-downgrade", at, "too dear")).toMatchObject({
      ok: true,
      subscription: { cancelAtPeriodEnd: true, canceledAt: at, cancelReason: "too dear" },
    });
    expect(await scheduleDowngrade(t.db, "case-cancel-then-downgrade", "pro", at)).toMatchObject({
      ok: true,
      subscription: { cancelAtPeriodEnd: false, scheduledPlan: "pro", canceledAt: null, cancelReason: null },
    });
  });
});

describe("an upgrade paid after a cancellation", () => {
  it("keeps the plan running and leaves nothing of the cancellation", async () => {
    await subscribedWith("case-cancel-then-upgrade", "4242424242424242");
    const at = new Date(START.getTime() + 86_400_000);
    expect(await cancelAtPeriodEnd(t.db, "case-cancel-then-upgrade", at, "too dear")).toMatchObject({
      ok: true,
    });
    const outcome = await changePlan(
      t.db,
      createTestProvider(),
      rates,
      {
        organizationId: "case-cancel-then-upgrade",
        userId: "u1",
        idempotencyKey: crypto.randomUUID(),
        target: { plan: "team", interval: "monthly" },
      },
      { now: () => at },
    );
    expect(outcome).toMatchObject({ ok: true });
    const [sub] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, "case-cancel-then-upgrade"));
    expect(sub).toMatchObject({
      plan: "team",
      status: "active",
      cancelAtPeriodEnd: false,
      canceledAt: null,
      cancelReason: null,
    });
  });
});
