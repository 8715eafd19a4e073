import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, organization } from "@/server/db/schema";
import { createStripeProvider, verifyStripeWebhook } from "@/server/payments/stripe-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { applyStripeEvent } from "./stripe-webhook";

// Never against the network: webhooks are signed locally with a made-up secret, and the provider
// is given a stand-in client that records what it would send.
const secret = "whsec_localTestSecret123";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

function signed(event: object, key = secret) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: key });
  return { payload, header };
}

const failedEvent = (orderId: string) => ({
  id: "evt_1",
  object: "event",
  type: "payment_intent.payment_failed",
  data: {
    object: { id: "pi_1", metadata: { orderId }, last_payment_error: { message: "Your card was declined." } },
  },
});

describe("Stripe webhooks", () => {
  it("accepts an event signed with the signing secret", () => {
    const { payload, header } = signed(failedEvent("00000000-0000-4000-8000-000000000000"));
    expect(verifyStripeWebhook(payload, header, secret).type).toBe("payment_intent.payment_failed");
  });

  it("refuses a wrong secret, an altered payload and a missing timestamp", () => {
    const { payload, header } = signed(failedEvent("00000000-0000-4000-8000-000000000000"), "whsec_other");
    expect(() => verifyStripeWebhook(payload, header, secret)).toThrow();
    const good = signed(failedEvent("00000000-0000-4000-8000-000000000000"));
    expect(() =>
      verifyStripeWebhook(good.payload.replace("declined", "approved"), good.header, secret),
    ).toThrow();
    expect(() => verifyStripeWebhook(good.payload, "v1=abc", secret)).toThrow();
  });

  it("marks a pending order failed, and leaves a paid one alone", async () => {
    await t.db.insert(organization).values({ id: "o1", name: "O", slug: "o-1" });
    const base = {
      organizationId: "o1",
      plan: "pro" as const,
      interval: "monthly" as const,
      currency: "USD",
      subtotalMinor: 1200n,
      netMinor: 1200n,
      taxMinor: 0n,
      totalMinor: 1200n,
      taxRate: "0",
      taxTreatment: "exclusive" as const,
      basePriceUsd: "12.00",
      fxRate: "1",
      billingName: "O",
      billingCountry: "US",
    };
    const [pending] = await t.db
      .insert(orders)
      .values({ ...base, idempotencyKey: "k1", status: "pending" })
      .returning();
    const [paid] = await t.db
      .insert(orders)
      .values({ ...base, idempotencyKey: "k2", status: "paid", paidAt: new Date() })
      .returning();
    const e1 = signed(failedEvent(pending?.id ?? ""));
    expect(await applyStripeEvent(t.db, verifyStripeWebhook(e1.payload, e1.header, secret))).toEqual({
      received: true,
      applied: true,
    });
    const e2 = signed(failedEvent(paid?.id ?? ""));
    expect(await applyStripeEvent(t.db, verifyStripeWebhook(e2.payload, e2.header, secret))).toEqual({
      received: true,
      applied: false,
    });
  });
});

describe("the Stripe provider", () => {
  const card = {
    number: "4242424242424242",
    brand: "Visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2030,
    cvc: "123",
  };
  const request = {
    amount: { amount: 2068n, currency: "JPY" },
    card,
    idempotencyKey: "org:key",
    description: "Abacus Pro (monthly)",
    metadata: { orderId: "o" },
  };

  it("confirms a PaymentIntent in minor units with the idempotency key", async () => {
    const calls: { params: Record<string, unknown>; options: Record<string, unknown> }[] = [];
    const fake = {
      customers: {
        create: async (params: Record<string, unknown>, options: Record<string, unknown>) => {
          calls.push({ params, options });
          return { id: "cus_1" };
        },
      },
      paymentMethods: {
        create: async (params: Record<string, unknown>, options: Record<string, unknown>) => {
          calls.push({ params, options });
          return { id: "pm_1" };
        },
      },
      paymentIntents: {
        create: async (params: Record<string, unknown>, options: Record<string, unknown>) => {
          calls.push({ params, options });
          return { id: "pi_1", status: "succeeded" };
        },
      },
    } as unknown as Stripe;
    const provider = createStripeProvider("sk_test_x", fake);
    expect(await provider.charge(request)).toEqual({
      status: "succeeded",
      reference: "pi_1",
      saved: {
        customerReference: "cus_1",
        methodReference: "pm_1",
        brand: "Visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
      },
    });
    expect(calls[0]).toMatchObject({ options: { idempotencyKey: "cus:org:key" } });
    expect(calls[2]).toMatchObject({
      params: {
        amount: 2068,
        currency: "jpy",
        customer: "cus_1",
        payment_method: "pm_1",
        setup_future_usage: "off_session",
        confirm: true,
      },
      options: { idempotencyKey: "pi:org:key" },
    });
    expect(JSON.stringify(calls[2])).not.toContain(card.number);
  });

  it("refuses an amount a JSON number cannot hold exactly, before calling Stripe", async () => {
    let called = false;
    const fake = {
      paymentMethods: {
        create: async () => {
          called = true;
          return { id: "pm_1" };
        },
      },
    } as unknown as Stripe;
    const huge = { ...request, amount: { amount: 9_007_199_254_740_993n, currency: "JPY" } };
    expect(await createStripeProvider("sk_test_x", fake).charge(huge)).toMatchObject({
      status: "declined",
      code: "amount_invalid",
    });
    expect(called).toBe(false);
  });

  it("turns a card error into a decline with Stripe's reason", async () => {
    const fake = {
      customers: { create: async () => ({ id: "cus_1" }) },
      paymentMethods: { create: async () => ({ id: "pm_1" }) },
      paymentIntents: {
        create: async () => {
          throw new Stripe.errors.StripeCardError({
            type: "card_error",
            message: "Your card has insufficient funds.",
            code: "card_declined",
            decline_code: "insufficient_funds",
          });
        },
      },
    } as unknown as Stripe;
    expect(await createStripeProvider("sk_test_x", fake).charge(request)).toEqual({
      status: "declined",
      code: "insufficient_funds",
      reason: "Your card has insufficient funds.",
    });
  });
});
