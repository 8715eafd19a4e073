import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, like } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money";
import { mailOutbox, member, orders, organization, payments, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createMailer } from "@/server/mail/outbox";
import { createStripeProvider } from "@/server/payments/stripe-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { renewalKey, runBillingClock } from "./renew";
import { applyStripeEvent } from "./stripe-webhook";

// Dunning through the official `stripe` client against a stand-in Stripe API on 127.0.0.1 (no
// network): off-session PaymentIntents answer with the card errors Stripe sends, decline codes
// included, and a key seen before gets its saved answer (Stripe's idempotency rule).

/** What the next new off-session PaymentIntent answers: success, or a card error with this decline code. */
let nextOffSession: string[] = [];
/**
 * Runs before the fake answers a new off-session PaymentIntent (with its form and its decline code,
 * if it declines): Stripe's webhook delivered while the clock still waits for the answer.
 */
let beforeAnswer: ((form: URLSearchParams, decline: string | undefined) => Promise<void>) | null = null;
/** New PaymentIntents per Idempotency-Key (replays are not counted). */
const intents = new Map<string, number>();
let server: Server;
let port = 0;

function startFake(): Promise<void> {
  const saved = new Map<string, { status: number; body: string }>();
  let counter = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const path = req.url ?? "";
      const send = ({ status, body }: { status: number; body: string }) => {
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${counter}` });
        res.end(body);
      };
      const replay = saved.get(`${path} ${key}`);
      if (replay) return send(replay);
      counter += 1;
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      void respond(form, path, key).then(send);
    });
  });
  const respond = async (form: URLSearchParams, path: string, key: string) => {
    let answer: { status: number; body: string };
    if (path === "/v1/customers") answer = { status: 200, body: JSON.stringify({ id: `cus_${counter}` }) };
    else if (path === "/v1/payment_methods")
      answer = { status: 200, body: JSON.stringify({ id: `pm_${counter}` }) };
    else if (path === "/v1/payment_intents") {
      intents.set(key, (intents.get(key) ?? 0) + 1);
      const decline = form.get("off_session") === "true" ? nextOffSession.shift() : undefined;
      if (form.get("off_session") === "true" && beforeAnswer) await beforeAnswer(form, decline);
      answer = decline
        ? {
            status: 402,
            body: JSON.stringify({
              error: {
                type: "card_error",
                code: "card_declined",
                decline_code: decline,
                message: "Declined.",
              },
            }),
          }
        : {
            status: 200,
            body: JSON.stringify({
              id: `pi_${counter}`,
              object: "payment_intent",
              status: "succeeded",
              amount: Number(form.get("amount")),
              currency: String(form.get("currency")),
            }),
          };
    } else answer = { status: 404, body: JSON.stringify({ error: { type: "invalid_request_error" } }) };
    saved.set(`${path} ${key}`, answer);
    return answer;
  };
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    }),
  );
}

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
const START = new Date("2026-01-31T10:00:00Z");
const END = addPeriod(START, "monthly");
const day = (n: number) => new Date(END.getTime() + n * 86_400_000);

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
  await t.db.insert(user).values({ id: "u1", name: "Owner", email: "o@example.com", onboardingStep: "done" });
  await startFake();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.drop();
});

const stripe = () =>
  createStripeProvider(
    "sk_test_local",
    new Stripe("sk_test_local", {
      host: "127.0.0.1",
      port,
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    }),
  );

async function subscribedOnStripe(id: string) {
  await t.db.insert(organization).values({ id, name: id, slug: id });
  await t.db.insert(member).values({ id: `m-${id}`, organizationId: id, userId: "u1", role: "owner" });
  const checked = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, START);
  if (!checked.ok) throw new Error("bad card");
  const outcome = await processCheckout(
    t.db,
    stripe(),
    rates,
    {
      organization: { id, name: id },
      userId: "u1",
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      billing: { name: `${id} GmbH`, country: "DE", vatId: null },
      card: checked.card,
    },
    { now: () => START },
  );
  expect(outcome).toMatchObject({ status: "paid" });
}

const state = async (id: string) => {
  const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, id));
  const [order] = await t.db
    .select()
    .from(orders)
    .where(and(eq(orders.organizationId, id), eq(orders.kind, "renewal")));
  const attempts = order
    ? await t.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, order.id))
        .orderBy(asc(payments.createdAt))
    : [];
  return { sub, order, attempts };
};

describe("dunning through Stripe", () => {
  it("retries Stripe's soft declines and stops at a hard one, one PaymentIntent per attempt", async () => {
    await subscribedOnStripe("org-sd1");
    nextOffSession = ["insufficient_funds", "lost_card"];
    await runBillingClock(t.db, stripe(), rates, END);
    let s = await state("org-sd1");
    expect(s.sub).toMatchObject({ status: "past_due", dunningAttempt: 1, nextRetryAt: day(1) });
    expect(s.order).toMatchObject({ status: "pending", failureCode: "insufficient_funds" });
    // The same instant again: nothing new is sent to Stripe.
    await runBillingClock(t.db, stripe(), rates, END);
    await runBillingClock(t.db, stripe(), rates, day(1));
    s = await state("org-sd1");
    expect(s.sub).toMatchObject({ status: "ended", dunningAttempt: 2, nextRetryAt: null });
    expect(s.order).toMatchObject({ status: "failed", failureCode: "lost_card" });
    expect(s.attempts.map((a) => [a.status, a.failureCode])).toEqual([
      ["failed", "insufficient_funds"],
      ["failed", "lost_card"],
    ]);
    await runBillingClock(t.db, stripe(), rates, day(10));
    const keys = [1, 2].map((a) => `pi:${renewalKey("org-sd1", END, a)}`);
    expect([...intents].filter(([k]) => k.includes("org-sd1:renew:"))).toEqual(keys.map((k) => [k, 1]));
  });

  it("a retry Stripe approves restores the plan from the old period's end", async () => {
    await subscribedOnStripe("org-sd2");
    nextOffSession = ["generic_decline"];
    await runBillingClock(t.db, stripe(), rates, END);
    expect((await state("org-sd2")).sub).toMatchObject({ status: "past_due" });
    await runBillingClock(t.db, stripe(), rates, day(1));
    const s = await state("org-sd2");
    expect(s.sub).toMatchObject({
      status: "active",
      dunningAttempt: 0,
      currentPeriodStart: END,
      currentPeriodEnd: addPeriod(END, "monthly"),
    });
    expect(s.attempts.map((a) => a.status)).toEqual(["failed", "succeeded"]);
    expect(s.attempts[1]?.providerReference).toMatch(/^pi_/);
  });
});

describe("Stripe's webhook and the billing clock", () => {
  const ORIGIN = "https://abacus.example";
  /** The billing mails about this organization (its name is in every subject), oldest first. */
  const mailsAbout = (id: string) =>
    t.db
      .select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "billing"), like(mailOutbox.subject, `%${id}%`)))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
  const failed = (form: URLSearchParams, decline: string) => ({
    type: "payment_intent.payment_failed",
    data: {
      object: {
        id: "pi_failed",
        metadata: { orderId: form.get("metadata[orderId]") ?? "" },
        last_payment_error: { code: "card_declined", decline_code: decline, message: "Declined." },
      },
    },
  });
  const succeeded = (form: URLSearchParams) => ({
    type: "payment_intent.succeeded",
    data: {
      object: {
        id: "pi_succeeded",
        amount: Number(form.get("amount")),
        currency: String(form.get("currency")),
        metadata: { orderId: form.get("metadata[orderId]") ?? "" },
      },
    },
  });

  it("mails the owners once per attempt, whether the webhook or the clock settles it first", async () => {
    await subscribedOnStripe("org-sd3");
    const mail = { mailer: createMailer(t.db), origin: ORIGIN };
    const webhook: { applied: boolean }[] = [];
    try {
      // Attempt 1: Stripe's webhook is delivered while the clock still waits for Stripe's answer.
      let at = END;
      beforeAnswer = async (form, decline) => {
        const event = decline ? failed(form, decline) : succeeded(form);
        webhook.push(await applyStripeEvent(t.db, event, { mail, now: () => at }));
      };
      nextOffSession = ["insufficient_funds"];
      await runBillingClock(t.db, stripe(), rates, at, { mail });
      expect(webhook).toEqual([{ received: true, applied: true }]);
      let s = await state("org-sd3");
      expect(s.sub).toMatchObject({ status: "past_due", dunningAttempt: 1 });
      expect(s.attempts.map((a) => [a.status, a.failureCode])).toEqual([["failed", "insufficient_funds"]]);
      let mails = await mailsAbout("org-sd3");
      expect(mails.map((m) => [m.to, m.subject])).toEqual([
        ["o@example.com", "Payment failed: org-sd3's Pro plan"],
      ]);
      expect(mails[0]?.text).toContain("Attempt 1 of 4");
      expect(mails[0]?.text).toContain(`${ORIGIN}/dashboard/billing`);
      // Redelivered: already settled, nothing applied, nothing mailed.
      const [order] = await t.db
        .select()
        .from(orders)
        .where(and(eq(orders.organizationId, "org-sd3"), eq(orders.kind, "renewal")));
      const again = new URLSearchParams({ "metadata[orderId]": order?.id ?? "" });
      expect(await applyStripeEvent(t.db, failed(again, "insufficient_funds"), { mail })).toEqual({
        received: true,
        applied: false,
      });

      // Attempt 2: the clock settles first; the webhook that follows finds nothing to apply.
      beforeAnswer = null;
      at = s.sub?.nextRetryAt ?? day(1);
      nextOffSession = ["insufficient_funds"];
      await runBillingClock(t.db, stripe(), rates, at, { mail });
      expect(await applyStripeEvent(t.db, failed(again, "insufficient_funds"), { mail })).toEqual({
        received: true,
        applied: false,
      });
      s = await state("org-sd3");
      expect(s.sub).toMatchObject({ status: "past_due", dunningAttempt: 2 });
      mails = await mailsAbout("org-sd3");
      expect(mails).toHaveLength(2);
      expect(mails[1]?.text).toContain("Attempt 2 of 4");

      // Attempt 3 succeeds and the webhook says so first: one "payment received" mail.
      beforeAnswer = async (form, decline) => {
        const event = decline ? failed(form, decline) : succeeded(form);
        webhook.push(await applyStripeEvent(t.db, event, { mail, now: () => at }));
      };
      at = s.sub?.nextRetryAt ?? day(3);
      await runBillingClock(t.db, stripe(), rates, at, { mail });
      expect(webhook).toEqual([
        { received: true, applied: true },
        { received: true, applied: true },
      ]);
      s = await state("org-sd3");
      expect(s.sub).toMatchObject({ status: "active", dunningAttempt: 0, currentPeriodStart: END });
      expect(s.attempts.map((a) => a.status)).toEqual(["failed", "failed", "succeeded"]);
      mails = await mailsAbout("org-sd3");
      expect(mails.map((m) => m.subject)).toEqual([
        "Payment failed: org-sd3's Pro plan",
        "Payment failed: org-sd3's Pro plan",
        "Payment received: org-sd3's Pro plan is active",
      ]);
    } finally {
      beforeAnswer = null;
    }
  });

  it("a hard decline the webhook settles first ends the plan with one last mail", async () => {
    await subscribedOnStripe("org-sd4");
    const mail = { mailer: createMailer(t.db), origin: ORIGIN };
    try {
      beforeAnswer = async (form, decline) => {
        if (decline) await applyStripeEvent(t.db, failed(form, decline), { mail, now: () => END });
      };
      nextOffSession = ["stolen_card"];
      await runBillingClock(t.db, stripe(), rates, END, { mail });
    } finally {
      beforeAnswer = null;
    }
    const s = await state("org-sd4");
    expect(s.sub).toMatchObject({ status: "ended", nextRetryAt: null });
    expect(s.order).toMatchObject({ status: "failed", failureCode: "stolen_card" });
    const mails = await mailsAbout("org-sd4");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Subscription ended: org-sd4 is on Free");
  });
});
