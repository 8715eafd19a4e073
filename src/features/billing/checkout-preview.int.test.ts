import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { FORBIDDEN_ERROR } from "@/server/action";
import { couponRedemptions, coupons, orders, subscriptions } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";
import { consumeRateLimit } from "@/server/rate-limit";
import { createTestAuth, type SignedInOrganization, signedInOrganization } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { checkoutAction, previewCheckoutAction } from "./actions";
import { processCheckout } from "./server/checkout";
import { COUPON_CHECKS } from "./server/checkout-preview";
import { createCoupon, deactivateCoupon, type NewCoupon } from "./server/coupons";

// The checkout's "Apply" runs for real: a Better Auth session in the request's cookie, the action
// wrapper's guard and schema, the coupon read from PostgreSQL. It prices and checks, and writes nothing.

process.env.SELLER_COUNTRY = "DE";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let people: SignedInOrganization<"olga" | "mia">;
const ORG = "org-preview";

const preview = (key: string, input: unknown) => previewCheckoutAction.using(people.environment(key))(input);

const base = { plan: "pro", interval: "monthly", currency: "USD", country: "DE", vatId: "" };

async function coupon(code: string, over: Partial<NewCoupon> = {}) {
  const created = await createCoupon(
    t.db,
    {
      code,
      kind: "percent",
      percentOff: "25",
      amounts: {},
      duration: "once",
      durationPeriods: null,
      expiresAt: null,
      maxRedemptions: null,
      ...over,
    },
    null,
  );
  if (!created.ok) throw new Error(created.error);
  return created.data;
}

const nothingWritten = async () => {
  expect(await t.db.select().from(orders).where(eq(orders.organizationId, ORG))).toEqual([]);
  expect(await t.db.select().from(couponRedemptions)).toEqual([]);
  const counts = await t.db.select({ code: coupons.code, n: coupons.redemptionCount }).from(coupons);
  expect(counts.filter((c) => c.n !== (c.code === "FULL" ? 1 : 0))).toEqual([]);
};

beforeAll(async () => {
  t = await createTestDatabase();
  people = await signedInOrganization(
    createTestAuth(t.db, { signInLimit: 1000 }),
    t.db,
    { id: ORG, name: "Preview", slug: "preview" },
    { olga: "owner", mia: "member" },
  );
  await coupon("QUARTER");
  await coupon("FIVE-USD", { kind: "fixed", percentOff: null, amounts: { USD: 500n } });
  await coupon("BIG-USD", { kind: "fixed", percentOff: null, amounts: { USD: 100_000n } });
  await coupon("EXPIRED", { expiresAt: new Date("2026-01-01T00:00:00Z") });
  const off = await coupon("STOPPED");
  await deactivateCoupon(t.db, off.id);
  // Used up by others (the count as their redemptions left it).
  await coupon("FULL", { maxRedemptions: 1 });
  await t.db.update(coupons).set({ redemptionCount: 1 }).where(eq(coupons.code, "FULL"));
});
afterAll(async () => {
  await t.drop();
});

describe("previewCheckoutAction", () => {
  it("prices Pro monthly with a percent code: subtotal, discount by code, tax on the rest, total", async () => {
    const answer = await preview("olga", { ...base, couponCode: " quarter " });
    // 12.00 − 25 % = 9.00; 19 % of 9.00 = 1.71.
    expect(answer).toEqual({
      ok: true,
      data: {
        plan: "pro",
        interval: "monthly",
        currency: "USD",
        country: "DE",
        code: "QUARTER",
        subtotal: "$12.00",
        discount: "−$3.00",
        taxLabel: "DE 19%",
        tax: "$1.71",
        total: "$10.71",
      },
    });
    await nothingWritten();
  });

  it("re-prices for another plan, interval and country, and caps a fixed amount at the subtotal", async () => {
    // Team yearly: 39 × 10 = 390.00; fixed 5.00 off = 385.00; FR 20 % = 77.00.
    const team = await preview("olga", {
      ...base,
      plan: "team",
      interval: "yearly",
      country: "FR",
      couponCode: "FIVE-USD",
    });
    expect(team.ok && team.data).toMatchObject({
      subtotal: "$390.00",
      discount: "−$5.00",
      taxLabel: "FR 20%",
      tax: "$77.00",
      total: "$462.00",
    });
    const big = await preview("olga", { ...base, country: "US", couponCode: "BIG-USD" });
    expect(big.ok && big.data).toMatchObject({ subtotal: "$12.00", discount: "−$12.00", total: "$0.00" });
  });

  it("prices a valid VAT ID from another member state as a reverse charge, and ignores an invalid one", async () => {
    const reverse = await preview("olga", {
      ...base,
      country: "FR",
      vatId: "FR40303265045",
      couponCode: "QUARTER",
    });
    expect(reverse.ok && reverse.data).toMatchObject({
      taxLabel: "reverse charge",
      tax: "$0.00",
      total: "$9.00",
    });
    const invalid = await preview("olga", {
      ...base,
      country: "FR",
      vatId: "FR40303265046",
      couponCode: "QUARTER",
    });
    expect(invalid.ok && invalid.data).toMatchObject({ taxLabel: "FR 20%", total: "$10.80" });
  });

  it("refuses each bad code beside the code's field, as paying would, and writes nothing", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["NOPE", base, "There is no promotion code NOPE."],
      ["STOPPED", base, "The code STOPPED is no longer active."],
      ["EXPIRED", base, "The code EXPIRED expired on 2026-01-01."],
      ["FULL", base, "The code FULL has been used as many times as it allows."],
      ["FIVE-USD", { ...base, currency: "EUR" }, "The code FIVE-USD cannot be used with EUR: it is for USD."],
      ["", base, "Enter a promotion code."],
      ["half off", base, "A promotion code has letters, digits and dashes only."],
      ["X".repeat(41), base, "A promotion code has at most 40 characters."],
    ];
    for (const [couponCode, input, message] of cases) {
      const answer = await preview("olga", { ...input, couponCode });
      expect(answer.ok, couponCode).toBe(false);
      if (answer.ok) continue;
      expect(answer.fieldErrors?.couponCode, couponCode).toBe(message);
    }
    const noCountry = await preview("olga", { ...base, country: "", couponCode: "QUARTER" });
    expect(noCountry.ok || noCountry.fieldErrors?.country).toBe(
      "Choose your billing country to see the tax.",
    );
    const unknownCountry = await preview("olga", { ...base, country: "ZZ", couponCode: "QUARTER" });
    expect(unknownCountry).toMatchObject({ ok: false, error: "No tax rate is known for country ZZ" });
    await nothingWritten();
  });

  it("is for owners and admins only, and signed-in users only", async () => {
    expect(await preview("mia", { ...base, couponCode: "QUARTER" })).toMatchObject({
      ok: false,
      error: FORBIDDEN_ERROR,
    });
    expect(await preview("nobody", { ...base, couponCode: "QUARTER" })).toMatchObject({ ok: false });
  });

  it("matches what paying charges; once redeemed, the code is refused as used", async () => {
    const shown = await preview("olga", { ...base, couponCode: "QUARTER" });
    expect(shown.ok).toBe(true);
    const card = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, new Date());
    if (!card.ok) throw new Error("card");
    const paid = await processCheckout(t.db, createTestProvider(), await loadRateTable(t.db), {
      organization: { id: ORG, name: "Preview" },
      userId: people.ids.olga,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "USD",
      billing: { name: "Preview GmbH", country: "DE", vatId: null },
      card: card.card,
      couponCode: "QUARTER",
    });
    expect(paid.status).toBe("paid");
    const [order] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, ORG), eq(orders.status, "paid")));
    expect(order).toMatchObject({
      subtotalMinor: 1200n,
      discountMinor: 300n,
      taxMinor: 171n,
      totalMinor: 1071n,
    });
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, ORG));
    expect(sub?.plan).toBe("pro");
    expect(await preview("olga", { ...base, couponCode: "QUARTER" })).toMatchObject({
      ok: false,
      fieldErrors: { couponCode: "Your organization has already used the code QUARTER." },
    });
  });

  it("stops an organization guessing codes: previews and checkouts with a code share one hourly limit", async () => {
    // Use up what is left of this organization's hour (the tests above used some of it).
    const left = await t.db.transaction((tx) => consumeRateLimit(tx, COUPON_CHECKS, ORG));
    if (!left.allowed) throw new Error("the limit was already used up");
    if (left.remaining > 0) {
      await t.db.transaction((tx) => consumeRateLimit(tx, COUPON_CHECKS, ORG, left.remaining));
    }
    const refused = await preview("olga", { ...base, couponCode: "FIVE-USD" });
    expect(refused).toMatchObject({ ok: false, fieldErrors: { couponCode: expect.any(String) } });
    if (refused.ok) return;
    expect(refused.error).toMatch(
      /^Too many promotion codes were tried for this organization\. Try again in \d+ minutes?\.$/,
    );
    const before = await t.db.select().from(orders).where(eq(orders.organizationId, ORG));
    const checkout = await checkoutAction.using(people.environment("olga"))({
      ...base,
      plan: "team",
      name: "Preview GmbH",
      cardNumber: "4242424242424242",
      expiry: "12/30",
      cvc: "123",
      idempotencyKey: crypto.randomUUID(),
      couponCode: "FIVE-USD",
    });
    expect(checkout).toMatchObject({
      ok: false,
      error: refused.error,
      fieldErrors: { couponCode: refused.error },
    });
    // Nothing was placed or charged for the refused checkout.
    expect(await t.db.select().from(orders).where(eq(orders.organizationId, ORG))).toEqual(before);
  });
});
