import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { getPlan, type Plan } from "@/core/billing/plans";
import { applyTax, planPrice } from "@/core/billing/pricing";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money";
import {
  invoiceLines,
  invoices,
  member,
  orders,
  organization,
  subscriptions,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { MEMBER_HARD_CAP, memberLimitOf, organizationPlan } from "@/server/plan-limits";
import { createTestDatabase } from "../../../../tests/support/db";
import { loadBillingPage } from "./billing-page";
import { processCheckout } from "./checkout";
import { createCoupon, type NewCoupon } from "./coupons";
import { changePlan, previewPlanChange, settlePendingProrations } from "./plan-change";
import { runBillingClock } from "./renew";

// The seller's country, for the EU reverse charge (read once by the app's settings).
process.env.SELLER_COUNTRY = "DE";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let orgCounter = 0;
const START = new Date("2026-11-01T00:00:00Z");
const END = addPeriod(START, "monthly");
/** Ten days before the end of a 30-day period, plus 0.7 s (dropped: exact to the second). */
const MID = new Date("2026-11-21T00:00:00.700Z");

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

async function subscribed(
  number = "4242424242424242",
  plan: "pro" | "team" = "pro",
  couponCode: string | null = null,
) {
  orgCounter += 1;
  const n = orgCounter;
  const id = `org-p${n}`;
  await t.db.insert(organization).values({ id, name: `Plans ${n}`, slug: `plans-${n}` });
  await t.db.insert(member).values({ id: `mp-${n}`, organizationId: id, userId: "u1", role: "owner" });
  const outcome = await processCheckout(
    t.db,
    createTestProvider(),
    rates,
    {
      organization: { id, name: `Plans ${n}` },
      userId: "u1",
      idempotencyKey: crypto.randomUUID(),
      plan,
      interval: "monthly",
      currency: "EUR",
      billing: { name: `Plans ${n} GmbH`, country: "DE", vatId: null },
      card: card(number),
      couponCode,
    },
    { now: () => START },
  );
  expect(outcome).toMatchObject({ status: "paid" });
  return id;
}

function counting(inner: PaymentProvider, delayMs = 0) {
  const calls: SavedChargeRequest[] = [];
  const provider: PaymentProvider = {
    id: inner.id,
    charge: (r) => inner.charge(r),
    chargeSaved: async (r) => {
      calls.push(r);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.chargeSaved(r);
    },
  };
  return { provider, calls };
}

/** The same provider, whose charges go through but whose answers never arrive. */
function answerLost(inner: PaymentProvider): PaymentProvider {
  return {
    ...inner,
    chargeSaved: async (r) => {
      await inner.chargeSaved(r);
      return { status: "unknown", reason: "timeout" };
    },
  };
}

const subOf = async (orgId: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId)))[0];
const prorationOrders = (orgId: string) =>
  t.db
    .select()
    .from(orders)
    .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "proration")));
const request = (organizationId: string, plan: "pro" | "team", interval: "monthly" | "yearly") => ({
  organizationId,
  userId: "u1",
  idempotencyKey: crypto.randomUUID(),
  target: { plan, interval },
});

describe("an upgrade mid-period", () => {
  it("charges one proration order with an invoice whose credit and charge lines sum to its total", async () => {
    const orgId = await subscribed();
    const { provider, calls } = counting(createTestProvider());
    const preview = await previewPlanChange(t.db, rates, orgId, { plan: "team", interval: "monthly" }, MID);
    expect(preview.ok).toBe(true);
    const outcome = await changePlan(t.db, provider, rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);

    // The amounts, recomputed here from the paid Pro order and Team's EUR price.
    const [purchase] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "purchase")));
    const teamPrice = planPrice(getPlan("team") as Plan, "monthly", "EUR", rates);
    if (!purchase || !teamPrice.ok) throw new Error("setup");
    const unused = 10n * 86_400n;
    const period = 30n * 86_400n;
    const half = (n: bigint, d: bigint) => {
      const q = n / d;
      const r2 = (n % d) * 2n;
      return r2 > d || (r2 === d && q % 2n === 1n) ? q + 1n : q;
    };
    const credit = half(purchase.netMinor * unused, period);
    const charge = half(teamPrice.value.price.amount * unused, period);
    const taxed = applyTax({ amount: charge - credit, currency: "EUR" }, purchase.taxRate, "exclusive");

    const [order, ...more] = await prorationOrders(orgId);
    expect(more).toHaveLength(0);
    expect(order).toMatchObject({
      status: "paid",
      plan: "team",
      subtotalMinor: charge,
      creditMinor: credit,
      netMinor: charge - credit,
      taxMinor: taxed.tax.amount,
      totalMinor: taxed.total.amount,
      taxRate: purchase.taxRate,
      periodStart: new Date("2026-11-21T00:00:00Z"),
      periodEnd: END,
    });
    expect(calls[0]?.amount).toEqual({ amount: order?.totalMinor, currency: "EUR" });
    if (preview.ok) expect(preview.quote.total).toBe(order?.totalMinor);

    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, order?.id ?? ""));
    expect(invoice?.number).toMatch(/^INV-2026-\d{6}$/);
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ""))
      .orderBy(asc(invoiceLines.position));
    const byKind = Object.fromEntries(lines.map((l) => [l.kind, l.amountMinor]));
    expect(byKind).toMatchObject({
      proration_charge: charge,
      proration_credit: -credit,
      tax: taxed.tax.amount,
    });
    expect(lines.reduce((sum, l) => sum + l.amountMinor, 0n)).toBe(invoice?.totalMinor);
    expect(invoice?.totalMinor).toBe(order?.totalMinor);

    // The new plan's limits at once; the period end unchanged.
    expect(await organizationPlan(t.db, orgId, MID)).toBe("team");
    // Team has no member limit (the hard cap); Pro allowed five.
    expect(await memberLimitOf(t.db, orgId)).toBe(MEMBER_HARD_CAP);
    expect(await subOf(orgId)).toMatchObject({
      plan: "team",
      currentPeriodStart: START,
      currentPeriodEnd: END,
    });
  });

  it("restarts the period on monthly → yearly, crediting the unused month against the year", async () => {
    const orgId = await subscribed();
    const outcome = await changePlan(t.db, createTestProvider(), rates, request(orgId, "pro", "yearly"), {
      now: () => MID,
    });
    expect(outcome).toMatchObject({ ok: true });
    const at = new Date("2026-11-21T00:00:00Z");
    const [order] = await prorationOrders(orgId);
    const yearly = planPrice(getPlan("pro") as Plan, "yearly", "EUR", rates);
    if (!yearly.ok) throw new Error("setup");
    expect(order).toMatchObject({ subtotalMinor: yearly.value.price.amount, periodStart: at });
    // The invoice: the charge for the new year, the credit for the unused rest of the old month.
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, order?.id ?? ""));
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ""))
      .orderBy(asc(invoiceLines.position));
    expect(lines.map((l) => [l.kind, l.periodStart, l.periodEnd, l.description])).toEqual([
      ["proration_charge", at, addPeriod(at, "yearly"), "Pro (yearly), 2026-11-21 to 2027-11-21"],
      [
        "proration_credit",
        at,
        END,
        `Unused time on the previous plan, 2026-11-21 to ${END.toISOString().slice(0, 10)}`,
      ],
      ["tax", null, null, `Tax ${order?.taxRate} %`],
    ]);
    expect(lines.map((l) => l.amountMinor)).toEqual([
      order?.subtotalMinor,
      -(order?.creditMinor ?? 0n),
      order?.taxMinor,
    ]);
    expect(await subOf(orgId)).toMatchObject({
      plan: "pro",
      interval: "yearly",
      currentPeriodStart: at,
      currentPeriodEnd: addPeriod(at, "yearly"),
    });
    // A second upgrade in the new period credits what the proration paid for its own span.
    const later = new Date("2027-05-21T00:00:00Z");
    const second = await previewPlanChange(t.db, rates, orgId, { plan: "team", interval: "yearly" }, later);
    expect(second.ok).toBe(true);
    if (second.ok && order) {
      expect(second.quote.credit).toBeLessThan(order.subtotalMinor);
      expect(second.quote.credit).toBeGreaterThan(0n);
    }
  });

  it("the renewal after an upgrade charges the new plan's whole price from the unchanged period end", async () => {
    const orgId = await subscribed();
    expect(
      await changePlan(t.db, createTestProvider(), rates, request(orgId, "team", "monthly"), {
        now: () => MID,
      }),
    ).toMatchObject({ ok: true });
    const { provider, calls } = counting(createTestProvider());
    await runBillingClock(t.db, provider, rates, new Date(END.getTime() + 60_000));
    const mine = calls.filter((c) => c.metadata.organizationId === orgId);
    expect(mine).toHaveLength(1);
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "renewal")));
    const team = planPrice(getPlan("team") as Plan, "monthly", "EUR", rates);
    if (!team.ok) throw new Error("setup");
    expect(renewal).toMatchObject({
      status: "paid",
      plan: "team",
      subtotalMinor: team.value.price.amount,
      periodStart: END,
      periodEnd: addPeriod(END, "monthly"),
    });
    expect(await subOf(orgId)).toMatchObject({ plan: "team", currentPeriodStart: END });
  });

  it("a declined charge changes nothing and says why", async () => {
    const orgId = await subscribed("4000000000000341");
    const before = await subOf(orgId);
    const outcome = await changePlan(t.db, createTestProvider(), rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(/^The plan was not changed: .*declined/i);
    expect(await subOf(orgId)).toEqual(before);
    const [order] = await prorationOrders(orgId);
    expect(order?.status).toBe("failed");
    const [invoice] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(eq(invoices.orderId, order?.id ?? ""), eq(invoices.status, "paid")));
    expect(invoice?.n).toBe(0);
  });

  it("refuses the same plan, a downgrade, and any change while past due, with specific messages", async () => {
    const orgId = await subscribed("4242424242424242", "team");
    const provider = counting(createTestProvider());
    const same = await changePlan(t.db, provider.provider, rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    expect(same).toEqual({ ok: false, error: "The organization is already on Team, billed monthly." });
    const down = await changePlan(t.db, provider.provider, rates, request(orgId, "pro", "yearly"), {
      now: () => MID,
    });
    expect(down.ok === false && down.error).toMatch(/end of the paid period/);
    await t.db
      .update(subscriptions)
      .set({ status: "past_due" })
      .where(eq(subscriptions.organizationId, orgId));
    const due = await changePlan(t.db, provider.provider, rates, request(orgId, "team", "yearly"), {
      now: () => MID,
    });
    expect(due.ok === false && due.error).toMatch(/renewal payment was declined/);
    expect(provider.calls).toHaveLength(0);
    expect(await prorationOrders(orgId)).toHaveLength(0);
  });
});

describe("the billing page's data", () => {
  it("prices the next charge as the renewal will, and lists each upgrade with its proration", async () => {
    const orgId = await subscribed();
    const page = await loadBillingPage(t.db, rates, orgId, MID);
    const [purchase] = await t.db.select().from(orders).where(eq(orders.organizationId, orgId));
    expect(page.next).toMatchObject({ at: END, plan: "pro", interval: "monthly" });
    // A renewal of Pro monthly in EUR for Germany costs what the purchase cost.
    expect(page.next?.total.amount).toBe(purchase?.totalMinor);
    expect(page.upgrades.map((u) => `${u.plan}/${u.interval}`)).toEqual([
      "pro/yearly",
      "team/monthly",
      "team/yearly",
    ]);
    const team = page.upgrades.find((u) => u.plan === "team" && u.interval === "monthly");
    const direct = await previewPlanChange(t.db, rates, orgId, { plan: "team", interval: "monthly" }, MID);
    expect(team?.preview.ok && direct.ok && team.preview.quote.total === direct.quote.total).toBe(true);
    expect(page.card).toMatchObject({ brand: "Visa", last4: "4242", expMonth: 12, expYear: 2030 });
    expect(page.pendingUpgrade).toBeNull();
  });

  it("shows a reverse-charged renewal's next charge without VAT, as the renewal charges it", async () => {
    const id = "org-reverse";
    await t.db.insert(organization).values({ id, name: "Reverse", slug: "reverse" });
    await t.db.insert(member).values({ id: "mp-reverse", organizationId: id, userId: "u1", role: "owner" });
    const outcome = await processCheckout(
      t.db,
      createTestProvider(),
      rates,
      {
        organization: { id, name: "Reverse" },
        userId: "u1",
        idempotencyKey: crypto.randomUUID(),
        plan: "pro",
        interval: "monthly",
        currency: "EUR",
        billing: { name: "Reverse SARL", country: "FR", vatId: "FR40303265045" },
        card: card("4242424242424242"),
      },
      { now: () => START, sellerCountry: "DE" },
    );
    expect(outcome).toMatchObject({ status: "paid" });
    const next = (await loadBillingPage(t.db, rates, id, MID)).next;
    expect(next).toMatchObject({ reverseCharge: true });
    expect(next?.tax.amount).toBe(0n);
    await runBillingClock(t.db, createTestProvider(), rates, END);
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, id), eq(orders.kind, "renewal")));
    expect(renewal).toMatchObject({ status: "paid", reverseCharge: true, taxMinor: 0n });
    expect(renewal?.totalMinor).toBe(next?.total.amount);
  });
});

describe("a lost answer", () => {
  it("leaves the upgrade pending; a later request settles it under its key, charging once", async () => {
    const orgId = await subscribed();
    const inner = createTestProvider();
    const { provider: counted, calls } = counting(inner);
    const lost = answerLost(counted);
    const first = await changePlan(t.db, lost, rates, request(orgId, "team", "monthly"), { now: () => MID });
    expect(first).toMatchObject({ ok: false, pending: true });
    expect(await subOf(orgId)).toMatchObject({ plan: "pro" });
    // The billing page says so.
    const page = await loadBillingPage(t.db, rates, orgId, MID);
    expect(page.pendingUpgrade).toEqual({ plan: "team", interval: "monthly" });
    // The page was reloaded: a new key, another target even. The pending upgrade is what settles.
    const later = new Date(MID.getTime() + 60_000);
    const second = await changePlan(t.db, counted, rates, request(orgId, "team", "yearly"), {
      now: () => later,
    });
    expect(second).toMatchObject({ ok: true });
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
    const placed = await prorationOrders(orgId);
    expect(placed.map((o) => [o.status, o.interval])).toEqual([["paid", "monthly"]]);
    expect(await subOf(orgId)).toMatchObject({ plan: "team", interval: "monthly", currentPeriodEnd: END });
  });
});

describe("the billing clock", () => {
  it("settles an upgrade whose answer was lost, under its key, charging once", async () => {
    const orgId = await subscribed();
    const { provider: counted, calls } = counting(createTestProvider());
    const lost = answerLost(counted);
    const first = await changePlan(t.db, lost, rates, request(orgId, "team", "monthly"), { now: () => MID });
    expect(first).toMatchObject({ ok: false, pending: true });
    const later = new Date(MID.getTime() + 300_000);
    expect(await settlePendingProrations(t.db, counted, rates, { now: () => later })).toBe(1);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect((await prorationOrders(orgId)).map((o) => o.status)).toEqual(["paid"]);
    expect(await subOf(orgId)).toMatchObject({ plan: "team", interval: "monthly", currentPeriodEnd: END });
    // Nothing is left for the next run.
    expect(await settlePendingProrations(t.db, counted, rates, { now: () => later })).toBe(0);
  });
});

describe("a double click", () => {
  it("charges once whether the two submits share a key or not", async () => {
    for (const shareKey of [false, true]) {
      const orgId = await subscribed();
      // A slow provider: the second submit arrives while the first is being charged.
      const { provider, calls } = counting(createTestProvider(), 150);
      const first = request(orgId, "team", "monthly");
      const second = shareKey ? first : request(orgId, "team", "monthly");
      const results = await Promise.all([
        changePlan(t.db, provider, rates, first, { now: () => MID }),
        changePlan(t.db, provider, rates, second, { now: () => MID }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(calls).toHaveLength(1);
      const placed = await prorationOrders(orgId);
      expect(placed.map((o) => o.status)).toEqual(["paid"]);
      expect(await subOf(orgId)).toMatchObject({ plan: "team", currentPeriodEnd: END });
      // The key of the submit that placed the order (either one, when the keys differ) answers
      // with that paid order again, without charging.
      const winner = results[0]?.ok ? first : second;
      const again = await changePlan(t.db, provider, rates, winner, { now: () => MID });
      expect(again).toMatchObject({ ok: true, orderId: placed[0]?.id });
      expect(calls).toHaveLength(1);
    }
  });
});

describe("a subscription's coupon on an upgrade", () => {
  const half = (n: bigint, d: bigint) => {
    const q = n / d;
    const r2 = (n % d) * 2n;
    return r2 > d || (r2 === d && q % 2n === 1n) ? q + 1n : q;
  };
  const unused = 10n * 86_400n;
  const period = 30n * 86_400n;
  async function coupon(code: string, over: Partial<NewCoupon>) {
    const created = await createCoupon(
      t.db,
      {
        code,
        kind: "percent",
        percentOff: "25",
        amounts: {},
        duration: "repeating",
        durationPeriods: 3,
        expiresAt: null,
        maxRedemptions: null,
        ...over,
      },
      null,
    );
    if (!created.ok) throw new Error(created.error);
    return created.data;
  }
  const purchaseOf = async (orgId: string) =>
    (
      await t.db
        .select()
        .from(orders)
        .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "purchase")))
    )[0];
  const teamMonthly = () => {
    const price = planPrice(getPlan("team") as Plan, "monthly", "EUR", rates);
    if (!price.ok) throw new Error("setup");
    return price.value.price.amount;
  };

  it("discounts the proration's charge while the coupon has charges left, and leaves them as they are", async () => {
    const { id: couponId } = await coupon("UP-QUARTER", {});
    const orgId = await subscribed("4242424242424242", "pro", "UP-QUARTER");
    const purchase = await purchaseOf(orgId);
    if (!purchase) throw new Error("setup");
    expect(purchase.discountMinor).toBeGreaterThan(0n);
    expect(await subOf(orgId)).toMatchObject({ couponId, discountPeriodsLeft: 2 });

    // Recomputed here: the charge for 10 of 30 days of Team, 25 % off it; the credit for the unused
    // third of what Pro was paid after its own 25 %.
    const charge = half(teamMonthly() * unused, period);
    const discount = half(charge * 25n, 100n);
    const credit = half((purchase.subtotalMinor - purchase.discountMinor) * unused, period);
    const net = charge - credit - discount;
    const taxed = applyTax({ amount: net, currency: "EUR" }, purchase.taxRate, "exclusive");

    const preview = await previewPlanChange(t.db, rates, orgId, { plan: "team", interval: "monthly" }, MID);
    expect(preview.ok && preview.quote).toMatchObject({
      charge,
      discount,
      credit,
      coupon: { id: couponId, code: "UP-QUARTER" },
      total: taxed.total.amount,
    });
    const page = await loadBillingPage(t.db, rates, orgId, MID);
    const shown = page.upgrades.find((u) => u.plan === "team" && u.interval === "monthly");
    expect(shown?.preview.ok && shown.preview.quote.discount).toBe(discount);

    const outcome = await changePlan(t.db, createTestProvider(), rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    // The outcome's quote names the coupon as the preview did.
    expect(outcome).toMatchObject({
      ok: true,
      quote: { discount, coupon: { id: couponId, code: "UP-QUARTER" } },
    });
    const [order] = await prorationOrders(orgId);
    expect(order).toMatchObject({
      status: "paid",
      couponId,
      subtotalMinor: charge,
      creditMinor: credit,
      discountMinor: discount,
      netMinor: net,
      taxMinor: taxed.tax.amount,
      totalMinor: taxed.total.amount,
    });
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, order?.id ?? ""));
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ""))
      .orderBy(asc(invoiceLines.position));
    expect(lines.map((l) => [l.kind, l.amountMinor])).toEqual([
      ["proration_charge", charge],
      ["proration_credit", -credit],
      ["discount", -discount],
      ["tax", taxed.tax.amount],
    ]);
    expect(lines[2]?.description).toBe("Discount (coupon UP-QUARTER)");
    expect(lines.reduce((sum, l) => sum + l.amountMinor, 0n)).toBe(invoice?.totalMinor);
    // A proration uses up none of the coupon's charges: the next renewal is still discounted, and
    // the billing page's next charge says what it will be.
    expect(await subOf(orgId)).toMatchObject({ plan: "team", couponId, discountPeriodsLeft: 2 });
    const next = (await loadBillingPage(t.db, rates, orgId, MID)).next;
    expect(next?.discount.amount).toBe(half(teamMonthly() * 25n, 100n));
    await runBillingClock(t.db, createTestProvider(), rates, END);
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, orgId), eq(orders.kind, "renewal")));
    expect(renewal).toMatchObject({
      status: "paid",
      couponId,
      discountMinor: next?.discount.amount,
      totalMinor: next?.total.amount,
    });
  });

  it("takes a fixed amount for the part of the period charged", async () => {
    const { id: couponId } = await coupon("UP-THREE-EUR", {
      kind: "fixed",
      percentOff: null,
      amounts: { EUR: 300n },
      duration: "forever",
      durationPeriods: null,
    });
    const orgId = await subscribed("4242424242424242", "pro", "UP-THREE-EUR");
    const purchase = await purchaseOf(orgId);
    if (!purchase) throw new Error("setup");
    expect(purchase.discountMinor).toBe(300n);
    const charge = half(teamMonthly() * unused, period);
    const discount = half(300n * unused, period); // 100 exactly: a third of 3.00 €
    expect(discount).toBe(100n);
    const credit = half((purchase.subtotalMinor - 300n) * unused, period);
    const outcome = await changePlan(t.db, createTestProvider(), rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    expect(outcome).toMatchObject({ ok: true });
    const [order] = await prorationOrders(orgId);
    expect(order).toMatchObject({
      couponId,
      subtotalMinor: charge,
      creditMinor: credit,
      discountMinor: discount,
      netMinor: charge - credit - discount,
    });
  });

  it("names the coupon in the quote of a retry whose first answer was lost", async () => {
    const { id: couponId } = await coupon("UP-RETRY", {});
    const orgId = await subscribed("4242424242424242", "pro", "UP-RETRY");
    const { provider: counted, calls } = counting(createTestProvider());
    const lost = answerLost(counted);
    const upgrade = request(orgId, "team", "monthly");
    expect(await changePlan(t.db, lost, rates, upgrade, { now: () => MID })).toMatchObject({
      ok: false,
      pending: true,
    });
    const [pending] = await prorationOrders(orgId);
    expect(pending).toMatchObject({ status: "pending", couponId });
    expect(pending?.discountMinor).toBeGreaterThan(0n);

    // The retry of the same key settles the placed order: its quote is rebuilt from that order.
    const later = new Date(MID.getTime() + 60_000);
    const retried = await changePlan(t.db, counted, rates, upgrade, { now: () => later });
    expect(retried).toMatchObject({
      ok: true,
      orderId: pending?.id,
      quote: {
        discount: pending?.discountMinor,
        coupon: { id: couponId, code: "UP-RETRY" },
        total: pending?.totalMinor,
      },
    });
    // Once paid, the same key answers with the same quote, without charging again.
    const again = await changePlan(t.db, counted, rates, upgrade, { now: () => later });
    expect(again).toMatchObject({ ok: true, quote: { coupon: { id: couponId, code: "UP-RETRY" } } });
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect((await prorationOrders(orgId)).map((o) => o.status)).toEqual(["paid"]);
  });

  it("gives no discount once the coupon's charges are used up", async () => {
    await coupon("UP-ONCE", { duration: "once", durationPeriods: null });
    const orgId = await subscribed("4242424242424242", "pro", "UP-ONCE");
    expect(await subOf(orgId)).toMatchObject({ couponId: null });
    const outcome = await changePlan(t.db, createTestProvider(), rates, request(orgId, "team", "monthly"), {
      now: () => MID,
    });
    expect(outcome).toMatchObject({ ok: true });
    const [order] = await prorationOrders(orgId);
    expect(order).toMatchObject({ couponId: null, discountMinor: 0n });
  });
});
