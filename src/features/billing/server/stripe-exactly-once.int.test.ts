import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import type { RateTable } from "@/core/money";
import { verifyReceipt } from "@/core/receipts/receipt";
import {
  member,
  orders,
  organization,
  paymentMethods,
  payments,
  receipts,
  subscriptions,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createStripeProvider, verifyStripeWebhook } from "@/server/payments/stripe-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { type CheckoutRequest, processCheckout } from "./checkout";
import { publishedKeys, toReceiptKeys } from "./receipt-keys";
import { applyStripeEvent } from "./stripe-webhook";
import { organizationPlan } from "./subscription";

// The official `stripe` client, pointed at a stand-in Stripe API served on 127.0.0.1 by this file:
// no network. The stand-in keeps Stripe's idempotency rule: a POST whose Idempotency-Key it has seen
// gets the saved answer and does nothing; a new key on /v1/payment_intents records one charge.

type Mode = "ok" | "hang-first" | "error-500" | "decline";

interface FakeStripe {
  port: number;
  mode: Mode;
  /** Charges recorded per Idempotency-Key of /v1/payment_intents. */
  charges: Map<string, number>;
  /** Every request: path and Idempotency-Key. */
  requests: { path: string; key: string }[];
  intents: Map<string, { id: string; amount: number; currency: string; metadata: Record<string, string> }>;
  /** The form fields of each /v1/payment_intents call, per Idempotency-Key. */
  intentForms: Map<string, Record<string, string>>;
}

const HANG_MS = 1_500;
const CLIENT_TIMEOUT_MS = 300;

function startFakeStripe(): Promise<{ fake: FakeStripe; server: Server }> {
  const fake: FakeStripe = {
    port: 0,
    mode: "ok",
    charges: new Map(),
    requests: [],
    intents: new Map(),
    intentForms: new Map(),
  };
  const saved = new Map<string, { status: number; body: string }>();
  let counter = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const path = req.url ?? "";
      fake.requests.push({ path, key });
      const send = (status: number, body: string) => {
        if (res.destroyed) return;
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${counter}` });
        res.end(body);
      };
      const replay = saved.get(`${path} ${key}`);
      if (replay) return send(replay.status, replay.body);
      if (fake.mode === "error-500" && path === "/v1/payment_intents") {
        // Not saved: Stripe failed before doing anything. stripe-should-retry keeps the SDK out of it.
        res.setHeader("Stripe-Should-Retry", "false");
        return send(500, JSON.stringify({ error: { type: "api_error", message: "Something went wrong." } }));
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      counter += 1;
      let answer: { status: number; body: string };
      if (path === "/v1/customers") {
        answer = { status: 200, body: JSON.stringify({ id: `cus_${counter}`, object: "customer" }) };
      } else if (path === "/v1/payment_methods") {
        answer = {
          status: 200,
          body: JSON.stringify({ id: `pm_${counter}`, object: "payment_method", type: "card" }),
        };
      } else if (path === "/v1/payment_intents") {
        fake.intentForms.set(key, Object.fromEntries(form));
        if (fake.mode === "decline") {
          answer = {
            status: 402,
            body: JSON.stringify({
              error: {
                type: "card_error",
                code: "card_declined",
                decline_code: "generic_decline",
                message: "Your card was declined.",
              },
            }),
          };
        } else {
          fake.charges.set(key, (fake.charges.get(key) ?? 0) + 1);
          const metadata: Record<string, string> = {};
          for (const [name, value] of form) {
            const m = /^metadata\[(.+)\]$/.exec(name);
            if (m?.[1]) metadata[m[1]] = value;
          }
          const intent = {
            id: `pi_${counter}`,
            object: "payment_intent",
            status: "succeeded",
            amount: Number(form.get("amount")),
            currency: String(form.get("currency")),
            metadata,
          };
          fake.intents.set(key, intent);
          answer = { status: 200, body: JSON.stringify(intent) };
        }
      } else {
        answer = { status: 404, body: JSON.stringify({ error: { type: "invalid_request_error" } }) };
      }
      saved.set(`${path} ${key}`, answer);
      if (fake.mode === "hang-first" && path === "/v1/payment_intents") {
        // The charge went through, but the answer comes after the client gave up.
        setTimeout(() => send(answer.status, answer.body), HANG_MS);
        return;
      }
      send(answer.status, answer.body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      fake.port = (server.address() as AddressInfo).port;
      resolve({ fake, server });
    });
  });
}

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let fake: FakeStripe;
let server: Server;
let orgCounter = 0;
const secret = "whsec_localExactlyOnce";

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Olivia Owner", email: "o@example.com", onboardingStep: "done" });
  ({ fake, server } = await startFakeStripe());
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.drop();
});
beforeEach(() => {
  fake.mode = "ok";
  // The provider reports an unknown outcome on the console (message only); keep the output quiet.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

function stripeClient(maxNetworkRetries = 0) {
  return new Stripe("sk_test_local", {
    host: "127.0.0.1",
    port: fake.port,
    protocol: "http",
    timeout: CLIENT_TIMEOUT_MS,
    maxNetworkRetries,
    telemetry: false,
  });
}
const provider = (retries = 0) => createStripeProvider("sk_test_local", stripeClient(retries));

async function newOrg() {
  orgCounter += 1;
  const id = `org-s${orgCounter}`;
  await t.db
    .insert(organization)
    .values({ id, name: `Stripe Co ${orgCounter}`, slug: `stripe-co-${orgCounter}` });
  await t.db
    .insert(member)
    .values({ id: `ms-${orgCounter}`, organizationId: id, userId: "u1", role: "owner" });
  return { id, name: `Stripe Co ${orgCounter}` };
}

function card(number: string): CheckedCard {
  const checked = checkCard({ number, expiry: "12/30", cvc: "123" }, new Date("2026-11-23T00:00:00Z"));
  if (!checked.ok) throw new Error(`bad card ${number}`);
  return checked.card;
}

function request(org: { id: string; name: string }, over: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    organization: org,
    userId: "u1",
    idempotencyKey: crypto.randomUUID(),
    plan: "pro",
    interval: "monthly",
    currency: "JPY",
    billing: { name: "Stripe Co KK", country: "JP", vatId: null },
    card: card("4242424242424242"),
    ...over,
  };
}

async function state(orgId: string) {
  const rows = await t.db.select().from(orders).where(eq(orders.organizationId, orgId));
  const ids = rows.map((r) => r.id);
  const pays = ids.length
    ? await t.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, ids[0] ?? ""))
    : [];
  const recs = await t.db.select().from(receipts).where(eq(receipts.organizationId, orgId));
  const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId));
  return { orders: rows, payments: pays, receipts: recs, subscription: sub ?? null };
}

function signed(event: object) {
  const payload = JSON.stringify(event);
  return verifyStripeWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }), secret);
}
function intentEvent(
  type: "payment_intent.succeeded" | "payment_intent.payment_failed",
  intent: { id: string; amount: number; currency: string; metadata: Record<string, string> },
  extra: Record<string, unknown> = {},
) {
  return signed({
    id: `evt_${Math.random().toString(16).slice(2)}`,
    object: "event",
    type,
    data: { object: { object: "payment_intent", ...intent, ...extra } },
  });
}

/** A checkout whose PaymentIntent answer is lost to a client timeout: the charge did go through. */
async function timedOutCheckout() {
  const org = await newOrg();
  const req = request(org);
  fake.mode = "hang-first";
  const first = await processCheckout(t.db, provider(), rates, req);
  fake.mode = "ok";
  const piKey = `pi:${org.id}:${req.idempotencyKey}`;
  return { org, req, first, piKey };
}

describe("a Stripe timeout never charges twice", () => {
  it("keeps the order pending, then the same key's retry gets Stripe's saved answer: one charge, one paid order", async () => {
    const { org, req, first, piKey } = await timedOutCheckout();
    expect(first).toMatchObject({ status: "pending" });
    // The charge happened at "Stripe"; we do not know it yet, so nothing is paid, failed or active.
    expect(fake.charges.get(piKey)).toBe(1);
    let s = await state(org.id);
    expect(s.orders.map((o) => o.status)).toEqual(["pending"]);
    expect(s.payments.map((p) => [p.status, p.cardLast4])).toEqual([["unknown", "4242"]]);
    expect(s.subscription).toBeNull();
    expect(await organizationPlan(t.db, org.id)).toBe("free");

    // The keys sent derive from the order's stable key `${orgId}:${formKey}`.
    const keys = fake.requests
      .filter((r) => r.key.endsWith(`${org.id}:${req.idempotencyKey}`))
      .map((r) => r.key);
    expect(new Set(keys)).toEqual(
      new Set([`cus:${org.id}:${req.idempotencyKey}`, `pm:${org.id}:${req.idempotencyKey}`, piKey]),
    );

    const second = await processCheckout(t.db, provider(), rates, req);
    expect(second).toMatchObject({ status: "paid", orderId: s.orders[0]?.id });
    const third = await processCheckout(t.db, provider(), rates, req);
    expect(third).toEqual(second);

    expect(fake.charges.get(piKey)).toBe(1);
    s = await state(org.id);
    expect(s.orders.map((o) => o.status)).toEqual(["paid"]);
    expect(s.payments).toHaveLength(1);
    expect(s.payments[0]).toMatchObject({
      status: "succeeded",
      providerReference: fake.intents.get(piKey)?.id,
    });
    expect(s.receipts).toHaveLength(1);
    expect(s.subscription).toMatchObject({ plan: "pro", status: "active", lastOrderId: s.orders[0]?.id });
    expect(await organizationPlan(t.db, org.id)).toBe("pro");

    // Stripe's own event for the same intent arrives later: nothing changes.
    const intent = fake.intents.get(piKey);
    if (!intent) throw new Error("no intent");
    expect(await applyStripeEvent(t.db, intentEvent("payment_intent.succeeded", intent))).toEqual({
      received: true,
      applied: false,
    });
    expect((await state(org.id)).receipts).toHaveLength(1);
  });

  it("the SDK's own retry after a timeout sends the same key and gets the saved success", async () => {
    const org = await newOrg();
    const req = request(org);
    fake.mode = "hang-first";
    const outcome = await processCheckout(t.db, provider(2), rates, req);
    expect(outcome).toMatchObject({ status: "paid" });
    const piKey = `pi:${org.id}:${req.idempotencyKey}`;
    expect(fake.requests.filter((r) => r.key === piKey).length).toBeGreaterThanOrEqual(2);
    expect(fake.charges.get(piKey)).toBe(1);
    expect((await state(org.id)).receipts).toHaveLength(1);
  });

  it("20 concurrent retries of a pending order charge once and all show the same paid order", async () => {
    const { org, req, first, piKey } = await timedOutCheckout();
    expect(first.status).toBe("pending");
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => processCheckout(t.db, provider(), rates, req)),
    );
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: "paid" });
    expect(fake.charges.get(piKey)).toBe(1);
    const s = await state(org.id);
    expect(s.orders.map((o) => o.status)).toEqual(["paid"]);
    expect(s.receipts).toHaveLength(1);
  });

  it("refuses a new key while an order is pending, and a retry with another card, without calling Stripe", async () => {
    const { org, req, first } = await timedOutCheckout();
    expect(first.status).toBe("pending");
    const before = fake.requests.length;
    const otherTab = await processCheckout(t.db, provider(), rates, request(org));
    expect(otherTab).toMatchObject({ status: "pending", orderId: (first as { orderId: string }).orderId });
    const otherCard = await processCheckout(t.db, provider(), rates, {
      ...req,
      card: card("5555555555554444"),
    });
    expect(otherCard).toMatchObject({ status: "pending" });
    expect((otherCard as { reason: string }).reason).toContain("ending 4242");
    expect(fake.requests.length).toBe(before);
    expect((await state(org.id)).orders).toHaveLength(1);
  });

  it("a 5xx is an unknown outcome (pending), not a decline; the same key then pays", async () => {
    const org = await newOrg();
    const req = request(org);
    fake.mode = "error-500";
    expect(await processCheckout(t.db, provider(), rates, req)).toMatchObject({ status: "pending" });
    expect((await state(org.id)).orders.map((o) => o.status)).toEqual(["pending"]);
    fake.mode = "ok";
    expect(await processCheckout(t.db, provider(), rates, req)).toMatchObject({ status: "paid" });
    expect(fake.charges.get(`pi:${org.id}:${req.idempotencyKey}`)).toBe(1);
  });

  it("a definite decline fails the order with its reason; a new key may then pay", async () => {
    const org = await newOrg();
    fake.mode = "decline";
    const declined = await processCheckout(t.db, provider(), rates, request(org));
    expect(declined).toMatchObject({
      status: "failed",
      code: "generic_decline",
      reason: "Your card was declined.",
    });
    fake.mode = "ok";
    expect(await processCheckout(t.db, provider(), rates, request(org))).toMatchObject({ status: "paid" });
    const s = await state(org.id);
    expect(s.orders.map((o) => o.status).sort()).toEqual(["failed", "paid"]);
  });
});

describe("Stripe webhooks settle a pending order", () => {
  it("payment_intent.succeeded pays it, activates the plan and signs a receipt, exactly once", async () => {
    const { org, req, piKey } = await timedOutCheckout();
    const intent = fake.intents.get(piKey);
    if (!intent) throw new Error("no intent");
    const event = intentEvent("payment_intent.succeeded", intent);
    // Redelivered and concurrent deliveries of the same event: one applies.
    const results = await Promise.all(
      Array.from({ length: 5 }, () => applyStripeEvent(t.db, event, { issuer: "http://localhost:3000" })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    const s = await state(org.id);
    expect(s.orders.map((o) => o.status)).toEqual(["paid"]);
    expect(s.payments[0]).toMatchObject({ status: "succeeded", providerReference: intent.id });
    expect(s.receipts).toHaveLength(1);
    expect(await organizationPlan(t.db, org.id)).toBe("pro");
    const receipt = s.receipts[0];
    if (!receipt) throw new Error("no receipt");
    const keys = toReceiptKeys(await publishedKeys(t.db));
    expect(verifyReceipt(receipt.payload, receipt.signature, keys)).toMatchObject({ valid: true });
    expect(JSON.parse(receipt.payload)).toMatchObject({
      issuer: "http://localhost:3000",
      organization: { id: org.id, name: org.name },
      currency: "JPY",
      total: "2068",
      payment: { provider: "stripe", reference: intent.id, brand: "Visa", last4: "4242" },
    });

    // The customer's retry afterwards shows the same order and receipt without calling Stripe.
    const before = fake.requests.length;
    expect(await processCheckout(t.db, provider(), rates, req)).toEqual({
      status: "paid",
      orderId: s.orders[0]?.id,
      receiptNumber: receipt.receiptNumber,
    });
    expect(fake.requests.length).toBe(before);
    expect(fake.charges.get(piKey)).toBe(1);
  });

  it("payment_intent.payment_failed fails it with Stripe's reason; a new key may then pay", async () => {
    const { org, req, piKey } = await timedOutCheckout();
    const intent = fake.intents.get(piKey);
    if (!intent) throw new Error("no intent");
    const event = intentEvent("payment_intent.payment_failed", intent, {
      last_payment_error: {
        code: "card_declined",
        decline_code: "do_not_honor",
        message: "Declined by the bank.",
      },
    });
    expect(await applyStripeEvent(t.db, event)).toEqual({ received: true, applied: true });
    expect(await applyStripeEvent(t.db, event)).toEqual({ received: true, applied: false });
    const [order] = (await state(org.id)).orders;
    expect(order).toMatchObject({
      status: "failed",
      failureCode: "do_not_honor",
      failureReason: "Declined by the bank.",
    });
    expect(await processCheckout(t.db, provider(), rates, req)).toMatchObject({ status: "failed" });
    expect(await processCheckout(t.db, provider(), rates, request(org))).toMatchObject({ status: "paid" });
  });

  it("ignores a succeeded event whose amount or currency is not the order's", async () => {
    const { org, piKey } = await timedOutCheckout();
    const intent = fake.intents.get(piKey);
    if (!intent) throw new Error("no intent");
    for (const wrong of [{ amount: intent.amount - 1 }, { currency: "usd" }]) {
      expect(
        await applyStripeEvent(t.db, intentEvent("payment_intent.succeeded", { ...intent, ...wrong })),
      ).toEqual({
        received: true,
        applied: false,
      });
    }
    const rows = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, org.id), eq(orders.status, "pending")));
    expect(rows).toHaveLength(1);
    expect(await organizationPlan(t.db, org.id)).toBe("free");
  });
});

describe("the card on file with Stripe", () => {
  it("is a PaymentMethod on a Customer, charged off-session once per idempotency key", async () => {
    const org = await newOrg();
    const req = request(org);
    expect(await processCheckout(t.db, provider(), rates, req)).toMatchObject({ status: "paid" });
    const [saved] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.organizationId, org.id));
    expect(saved).toMatchObject({
      provider: "stripe",
      brand: "Visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
    });
    expect(saved?.customerReference).toMatch(/^cus_/);
    expect(saved?.methodReference).toMatch(/^pm_/);
    expect(fake.intentForms.get(`pi:${org.id}:${req.idempotencyKey}`)).toMatchObject({
      customer: saved?.customerReference,
      payment_method: saved?.methodReference,
      setup_future_usage: "off_session",
    });

    const renewal = {
      amount: { amount: 2068n, currency: "JPY" },
      card: {
        customerReference: saved?.customerReference ?? null,
        methodReference: saved?.methodReference ?? "",
      },
      idempotencyKey: `renew:${org.id}:1`,
      description: "Abacus Pro (monthly) renewal",
      metadata: { organizationId: org.id },
    };
    const first = await provider().chargeSaved(renewal);
    expect(first).toMatchObject({ status: "succeeded" });
    expect(fake.intentForms.get(`pi:${renewal.idempotencyKey}`)).toMatchObject({
      customer: saved?.customerReference,
      payment_method: saved?.methodReference,
      off_session: "true",
      confirm: "true",
      amount: "2068",
      currency: "jpy",
    });
    // The same key again (a retry after a crash): Stripe's saved answer, no second charge.
    expect(await provider().chargeSaved(renewal)).toEqual(first);
    expect(fake.charges.get(`pi:${renewal.idempotencyKey}`)).toBe(1);

    fake.mode = "decline";
    expect(await provider().chargeSaved({ ...renewal, idempotencyKey: `renew:${org.id}:2` })).toMatchObject({
      status: "declined",
      code: "generic_decline",
    });
  });
});
