import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { createStripeProvider } from "./stripe-provider";

// Saving a card on Stripe without charging it, through the official client, against a local
// stand-in for /v1/customers, /v1/payment_methods and /v1/setup_intents: one object per
// Idempotency-Key (a replay answers the saved one), and Stripe's card error for a declining card.
const DECLINING = "4000000000000002";
const calls: { path: string; key: string; form: URLSearchParams }[] = [];
const saved = new Map<string, string>();
const methodNumbers = new Map<string, string>();
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const path = req.url ?? "";
      const send = (status: number, body: string) => {
        res.writeHead(status, { "Content-Type": "application/json", "Stripe-Should-Retry": "false" });
        res.end(body);
      };
      const replay = saved.get(`${path} ${key}`);
      if (replay) return send(200, replay);
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      calls.push({ path, key, form });
      const n = calls.length;
      let body: string;
      if (path === "/v1/customers") {
        body = JSON.stringify({ id: `cus_${n}`, object: "customer" });
      } else if (path === "/v1/payment_methods") {
        methodNumbers.set(`pm_${n}`, form.get("card[number]") ?? "");
        body = JSON.stringify({ id: `pm_${n}`, object: "payment_method", type: "card" });
      } else if (path === "/v1/setup_intents") {
        if (methodNumbers.get(form.get("payment_method") ?? "") === DECLINING) {
          return send(
            402,
            JSON.stringify({
              error: {
                type: "card_error",
                code: "card_declined",
                decline_code: "generic_decline",
                message: "Your card was declined.",
              },
            }),
          );
        }
        body = JSON.stringify({
          id: `seti_${n}`,
          object: "setup_intent",
          status: "succeeded",
          customer: form.get("customer"),
          payment_method: form.get("payment_method"),
          usage: form.get("usage"),
        });
      } else {
        return send(404, JSON.stringify({ error: { type: "invalid_request_error" } }));
      }
      saved.set(`${path} ${key}`, body);
      send(200, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function provider() {
  const client = new Stripe("sk_test_local", {
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
    telemetry: false,
  });
  return createStripeProvider("sk_test_local", client);
}

function card(number: string): CheckedCard {
  const checked = checkCard({ number, expiry: "12/30", cvc: "123" }, new Date("2026-11-28T00:00:00Z"));
  if (!checked.ok) throw new Error("test card invalid");
  return checked.card;
}

describe("Stripe: saving a card with a SetupIntent", () => {
  it("keeps the Customer on file and confirms an off-session SetupIntent once per key", async () => {
    const stripe = provider();
    const request = {
      card: card("4242424242424242"),
      organizationId: "org_1",
      customerReference: "cus_existing",
      idempotencyKey: "org_1:save:a",
    };
    const first = await stripe.saveCard?.(request);
    expect(first).toEqual({
      status: "saved",
      saved: {
        customerReference: "cus_existing",
        methodReference: "pm_1",
        brand: "Visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
      },
    });
    const replay = await stripe.saveCard?.(request);
    expect(replay).toEqual(first);
    expect(calls.map((c) => `${c.path} ${c.key}`)).toEqual([
      "/v1/payment_methods pm:org_1:save:a",
      "/v1/setup_intents si:org_1:save:a",
    ]);
    const setup = calls[1]?.form;
    expect(setup?.get("usage")).toBe("off_session");
    expect(setup?.get("confirm")).toBe("true");
    expect(setup?.get("customer")).toBe("cus_existing");
    expect(setup?.get("payment_method")).toBe("pm_1");
    // Nothing is charged: no PaymentIntent is ever created.
    expect(calls.some((c) => c.path.startsWith("/v1/payment_intents"))).toBe(false);
  });

  it("makes a Customer when there is none, and answers a declining card's reason", async () => {
    const stripe = provider();
    calls.length = 0;
    const made = await stripe.saveCard?.({
      card: card("5555555555554444"),
      organizationId: "org_2",
      customerReference: null,
      idempotencyKey: "org_2:save:b",
    });
    expect(made?.status).toBe("saved");
    expect(calls[0]?.path).toBe("/v1/customers");
    expect(calls[0]?.key).toBe("cus:org_2:save:b");
    if (made?.status === "saved") expect(made.saved.customerReference).toBe("cus_1");
    const declined = await stripe.saveCard?.({
      card: card(DECLINING),
      organizationId: "org_2",
      customerReference: "cus_existing",
      idempotencyKey: "org_2:save:c",
    });
    expect(declined).toEqual({
      status: "declined",
      code: "generic_decline",
      reason: "Your card was declined.",
    });
  });
});
