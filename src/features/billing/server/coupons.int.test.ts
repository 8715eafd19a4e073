import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money";
import * as schema from "@/server/db/schema";
import {
  billingProfiles,
  couponRedemptions,
  coupons,
  invoiceLines,
  invoices,
  member,
  orders,
  organization,
  subscriptions,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { type CheckoutRequest, processCheckout } from "./checkout";
import { createCoupon, deactivateCoupon, listCoupons, type NewCoupon } from "./coupons";
import { runBillingClock } from "./renew";

// Renewals read the seller's country from the environment (read once, lazily).
process.env.SELLER_COUNTRY = "DE";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let orgCounter = 0;
const START = new Date("2026-03-01T10:00:00Z");

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

async function newOrg() {
  orgCounter += 1;
  const id = `org-c${orgCounter}`;
  await t.db.insert(organization).values({ id, name: `Coupon ${orgCounter}`, slug: `coupon-${orgCounter}` });
  await t.db
    .insert(member)
    .values({ id: `mc-${orgCounter}`, organizationId: id, userId: "u1", role: "owner" });
  return { id, name: `Coupon ${orgCounter}` };
}

function card(number: string): CheckedCard {
  const checked = checkCard({ number, expiry: "12/30", cvc: "123" }, new Date("2026-01-01T00:00:00Z"));
  if (!checked.ok) throw new Error(`bad test card ${number}`);
  return checked.card;
}

function request(org: { id: string; name: string }, over: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    organization: org,
    userId: "u1",
    idempotencyKey: crypto.randomUUID(),
    plan: "pro",
    interval: "monthly",
    currency: "EUR",
    billing: { name: "Acme GmbH", country: "DE", vatId: null },
    card: card("4242424242424242"),
    ...over,
  };
}

const checkout = (r: CheckoutRequest, db = t.db) =>
  processCheckout(db, createTestProvider(), rates, r, { now: () => START, sellerCountry: "DE" });

let couponCounter = 0;
async function coupon(over: Partial<NewCoupon> = {}) {
  couponCounter += 1;
  const input: NewCoupon = {
    code: `TEST-${couponCounter}`,
    kind: "percent",
    percentOff: "25",
    amounts: {},
    duration: "once",
    durationPeriods: null,
    expiresAt: null,
    maxRedemptions: null,
    ...over,
  };
  const created = await createCoupon(t.db, input, "u1");
  if (!created.ok) throw new Error(created.error);
  return created.data;
}

async function ordersOf(orgId: string) {
  return t.db.select().from(orders).where(eq(orders.organizationId, orgId)).orderBy(orders.createdAt);
}

const halfEven = (num: bigint, den: bigint) => {
  const q = num / den;
  const r = num % den;
  if (r * 2n > den || (r * 2n === den && q % 2n === 1n)) return q + 1n;
  return q;
};

describe("a coupon at checkout and on renewals", () => {
  it("discounts the purchase and the next renewal exactly, then stops", async () => {
    const org = await newOrg();
    const c = await coupon({ percentOff: "12.5", duration: "repeating", durationPeriods: 2 });
    const outcome = await checkout(request(org, { couponCode: c.code }));
    expect(outcome).toMatchObject({ status: "paid" });
    const [purchase] = await ordersOf(org.id);
    if (!purchase) throw new Error("no order");
    const discount = halfEven(purchase.subtotalMinor * 125n, 1000n);
    expect(purchase.discountMinor).toBe(discount);
    expect(purchase.couponId).toBe(c.id);
    expect(purchase.netMinor).toBe(purchase.subtotalMinor - discount);
    expect(purchase.taxMinor).toBe(halfEven(purchase.netMinor * 19n, 100n));
    // The invoice's discount line names the code, and the lines sum to the total.
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orderId, purchase.id));
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ""));
    const discountLine = lines.find((l) => l.kind === "discount");
    expect(discountLine?.amountMinor).toBe(-discount);
    expect(discountLine?.description).toContain(c.code);
    expect(lines.reduce((sum, l) => sum + l.amountMinor, 0n)).toBe(purchase.totalMinor);
    // One redemption, counted; the subscription has one discounted charge left.
    const redemptions = await t.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, c.id));
    expect(redemptions.map((r) => r.orderId)).toEqual([purchase.id]);
    const [row] = await t.db.select().from(coupons).where(eq(coupons.id, c.id));
    expect(row?.redemptionCount).toBe(1);
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, org.id));
    expect([sub?.couponId, sub?.discountPeriodsLeft]).toEqual([c.id, 1]);

    // First renewal: discounted the same way; then the coupon is used up.
    const firstEnd = addPeriod(START, "monthly");
    await runBillingClock(t.db, createTestProvider(), rates, firstEnd);
    const renewal = (await ordersOf(org.id)).find((o) => o.kind === "renewal");
    expect(renewal).toMatchObject({ status: "paid", couponId: c.id, discountMinor: discount });
    const [after] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, org.id));
    expect([after?.couponId, after?.discountPeriodsLeft]).toEqual([null, null]);

    // Second renewal: full price.
    await runBillingClock(t.db, createTestProvider(), rates, addPeriod(firstEnd, "monthly"));
    const renewals = (await ordersOf(org.id)).filter((o) => o.kind === "renewal");
    expect(renewals).toHaveLength(2);
    expect(renewals[1]).toMatchObject({ status: "paid", couponId: null, discountMinor: 0n });
    expect(renewals[1]?.netMinor).toBe(purchase.subtotalMinor);
  });

  it("a fixed amount is taken in the order's currency and capped at the subtotal", async () => {
    const org = await newOrg();
    const c = await coupon({
      kind: "fixed",
      percentOff: null,
      amounts: { EUR: 500n, USD: 600n },
      duration: "forever",
    });
    expect(await checkout(request(org, { couponCode: c.code.toLowerCase() }))).toMatchObject({
      status: "paid",
    });
    const [purchase] = await ordersOf(org.id);
    expect(purchase).toMatchObject({ discountMinor: 500n, couponId: c.id });
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, org.id));
    expect([sub?.couponId, sub?.discountPeriodsLeft]).toEqual([c.id, null]);

    const big = await coupon({ kind: "fixed", percentOff: null, amounts: { EUR: 10_000_000n } });
    const org2 = await newOrg();
    expect(await checkout(request(org2, { couponCode: big.code }))).toMatchObject({ status: "paid" });
    const [free] = await ordersOf(org2.id);
    expect(free && [free.discountMinor === free.subtotalMinor, free.netMinor, free.totalMinor]).toEqual([
      true,
      0n,
      0n,
    ]);
  });
});

describe("bad promotion codes", () => {
  it("refuses each with its own message and writes nothing", async () => {
    const org = await newOrg();
    const expired = await coupon({ expiresAt: new Date("2026-02-28T23:59:59.999Z") });
    const capped = await coupon({ maxRedemptions: 1 });
    const usd = await coupon({ kind: "fixed", percentOff: null, amounts: { USD: 500n } });
    const inactive = await coupon();
    expect(await deactivateCoupon(t.db, inactive.id)).toMatchObject({ ok: true });
    expect(await checkout(request(await newOrg(), { couponCode: capped.code }))).toMatchObject({
      status: "paid",
    });

    const cases: [string, string][] = [
      ["NOPE-123", "There is no promotion code NOPE-123."],
      [expired.code, `The code ${expired.code} expired on 2026-02-28.`],
      [capped.code, `The code ${capped.code} has been used as many times as it allows.`],
      [usd.code, `The code ${usd.code} cannot be used with EUR: it is for USD.`],
      [inactive.code, `The code ${inactive.code} is no longer active.`],
    ];
    for (const [code, message] of cases) {
      expect(await checkout(request(org, { couponCode: code }))).toEqual({
        status: "invalid",
        message,
        field: "couponCode",
      });
    }
    expect(await ordersOf(org.id)).toEqual([]);
    const [row] = await t.db.select().from(coupons).where(eq(coupons.id, capped.id));
    expect(row?.redemptionCount).toBe(1);

    // Used once by this organization: a second purchase with it is refused.
    const once = await coupon();
    expect(await checkout(request(org, { couponCode: once.code }))).toMatchObject({ status: "paid" });
    expect(await checkout(request(org, { couponCode: once.code, plan: "team" }))).toEqual({
      status: "invalid",
      message: `Your organization has already used the code ${once.code}.`,
      field: "couponCode",
    });
    expect(await ordersOf(org.id)).toHaveLength(1);
  });

  it("a declined card gives the redemption back", async () => {
    const org = await newOrg();
    const c = await coupon({ maxRedemptions: 1 });
    const declined = await checkout(request(org, { couponCode: c.code, card: card("4000000000000002") }));
    expect(declined).toMatchObject({ status: "failed" });
    const [row] = await t.db.select().from(coupons).where(eq(coupons.id, c.id));
    expect(row?.redemptionCount).toBe(0);
    expect(await t.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, c.id))).toEqual(
      [],
    );
    expect(await checkout(request(org, { couponCode: c.code }))).toMatchObject({ status: "paid" });
  });

  it("holds the cap under concurrency: N + 3 checkouts of a cap-N coupon, two instances", async () => {
    const cap = 5;
    const c = await coupon({ maxRedemptions: cap });
    const orgs = [];
    for (let i = 0; i < cap + 3; i++) orgs.push(await newOrg());
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const otherDb = drizzle(other, { schema });
    try {
      const outcomes = await Promise.all(
        orgs.map((org, i) => checkout(request(org, { couponCode: c.code }), i % 2 ? otherDb : t.db)),
      );
      const paid = outcomes.filter((o) => o.status === "paid");
      const refused = outcomes.filter((o) => o.status === "invalid");
      expect([paid.length, refused.length]).toEqual([cap, 3]);
      for (const o of refused) {
        expect(o).toMatchObject({ message: `The code ${c.code} has been used as many times as it allows.` });
      }
    } finally {
      await other.end();
    }
    const [row] = await t.db.select().from(coupons).where(eq(coupons.id, c.id));
    expect(row?.redemptionCount).toBe(cap);
    const redemptions = await t.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, c.id));
    expect(redemptions).toHaveLength(cap);
    const discounted = await t.db.select().from(orders).where(eq(orders.couponId, c.id));
    expect(discounted).toHaveLength(cap);
  });
});

describe("admin", () => {
  it("creates, lists and deactivates; a code in use is refused", async () => {
    const c = await coupon({
      code: "ADMIN-LIST",
      kind: "fixed",
      percentOff: null,
      amounts: { EUR: 400n, USD: 500n },
      maxRedemptions: 10,
    });
    const again = await createCoupon(
      t.db,
      {
        code: "ADMIN-LIST",
        kind: "percent",
        percentOff: "10",
        amounts: {},
        duration: "once",
        durationPeriods: null,
        expiresAt: null,
        maxRedemptions: null,
      },
      "u1",
    );
    expect(again).toMatchObject({ ok: false, fieldErrors: { code: "The code ADMIN-LIST exists already." } });
    let listed = (await listCoupons(t.db)).find((r) => r.code === "ADMIN-LIST");
    expect(listed).toMatchObject({
      value: "€4.00, $5.00",
      redemptions: "0 / 10",
      state: "active",
      duration: "First charge",
    });
    expect(await deactivateCoupon(t.db, c.id)).toEqual({ ok: true, data: { code: "ADMIN-LIST" } });
    listed = (await listCoupons(t.db)).find((r) => r.code === "ADMIN-LIST");
    expect(listed?.state).toBe("inactive");
  });
});

describe("VAT IDs and the reverse charge", () => {
  it("reverse-charges an EU business in another member state, also on renewal", async () => {
    const org = await newOrg();
    const outcome = await checkout(
      request(org, { billing: { name: "Société SA", country: "FR", vatId: "fr 40 303 265 045" } }),
    );
    expect(outcome).toMatchObject({ status: "paid" });
    const [purchase] = await ordersOf(org.id);
    expect(purchase).toMatchObject({
      reverseCharge: true,
      taxMinor: 0n,
      taxRate: "0",
      vatId: "FR40303265045",
    });
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, purchase?.id ?? ""));
    expect(invoice).toMatchObject({ reverseCharge: true, vatId: "FR40303265045" });
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ""));
    expect(lines.find((l) => l.kind === "tax")?.description).toContain("Reverse charge");
    const [profile] = await t.db
      .select()
      .from(billingProfiles)
      .where(eq(billingProfiles.organizationId, org.id));
    expect(profile).toMatchObject({ name: "Société SA", country: "FR", vatId: "FR40303265045" });

    await runBillingClock(t.db, createTestProvider(), rates, addPeriod(START, "monthly"));
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, org.id), eq(orders.kind, "renewal")));
    expect(renewal).toMatchObject({
      status: "paid",
      reverseCharge: true,
      taxMinor: 0n,
      vatId: "FR40303265045",
    });
  });

  it("charges VAT to a business in the seller's own country", async () => {
    const org = await newOrg();
    await checkout(request(org, { billing: { name: "Acme GmbH", country: "DE", vatId: "DE136695976" } }));
    const [purchase] = await ordersOf(org.id);
    expect(purchase).toMatchObject({ reverseCharge: false, taxRate: "19", vatId: "DE136695976" });
    expect(purchase?.taxMinor).toBe(halfEven((purchase?.netMinor ?? 0n) * 19n, 100n));
  });

  it("refuses a malformed VAT ID, or one from another country, and writes nothing", async () => {
    const org = await newOrg();
    const bad = await checkout(request(org, { billing: { name: "X", country: "DE", vatId: "DE136695977" } }));
    expect(bad).toMatchObject({
      status: "invalid",
      field: "vatId",
      message: expect.stringMatching(/check digits/),
    });
    const other = await checkout(
      request(org, { billing: { name: "X", country: "DE", vatId: "FR40303265045" } }),
    );
    expect(other).toMatchObject({
      status: "invalid",
      field: "vatId",
      message: expect.stringMatching(/from France/),
    });
    expect(await ordersOf(org.id)).toEqual([]);
  });
});
