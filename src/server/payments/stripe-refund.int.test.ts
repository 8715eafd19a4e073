import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeProvider } from "./stripe-provider";

// The Stripe provider's refunds, through the official client, against a local stand-in for
// POST /v1/refunds: a refund per Idempotency-Key (a replay answers the saved refund), Stripe's 400
// for an amount above what is left, and a 500 that says nothing about the outcome.
const refunds: { key: string; form: URLSearchParams }[] = [];
const saved = new Map<string, string>();
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const send = (status: number, body: string) => {
        res.writeHead(status, { "Content-Type": "application/json", "Stripe-Should-Retry": "false" });
        res.end(body);
      };
      if (req.url !== "/v1/refunds")
        return send(404, JSON.stringify({ error: { type: "invalid_request_error" } }));
      const replay = saved.get(key);
      if (replay) return send(200, replay);
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const intent = form.get("payment_intent") ?? "";
      if (intent === "pi_broken") {
        return send(500, JSON.stringify({ error: { type: "api_error", message: "Something went wrong." } }));
      }
      if (Number(form.get("amount")) > 2261) {
        return send(
          400,
          JSON.stringify({
            error: {
              type: "invalid_request_error",
              code: "amount_too_large",
              message: "Refund amount is greater than the charge's unrefunded amount.",
            },
          }),
        );
      }
      refunds.push({ key, form });
      const body = JSON.stringify({
        id: `re_${refunds.length}`,
        object: "refund",
        amount: Number(form.get("amount")),
        payment_intent: intent,
        status: "succeeded",
      });
      saved.set(key, body);
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

const request = (chargeReference: string, amount: bigint, idempotencyKey: string) => ({
  chargeReference,
  amount: { amount, currency: "EUR" },
  idempotencyKey,
  metadata: { invoiceNumber: "INV-2026-000001" },
});

describe("Stripe refunds", () => {
  it("refunds the amount in minor units under re:<credit note key>, once per key", async () => {
    const stripe = provider();
    const first = await stripe.refund?.(request("pi_paid", 1000n, "INV-2026-000001:cn:a"));
    expect(first).toEqual({ status: "succeeded", reference: "re_1" });
    const replay = await stripe.refund?.(request("pi_paid", 1000n, "INV-2026-000001:cn:a"));
    expect(replay).toEqual({ status: "succeeded", reference: "re_1" });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.key).toBe("re:INV-2026-000001:cn:a");
    expect(refunds[0]?.form.get("amount")).toBe("1000");
    expect(refunds[0]?.form.get("payment_intent")).toBe("pi_paid");
    expect(refunds[0]?.form.get("metadata[invoiceNumber]")).toBe("INV-2026-000001");
  });

  it("answers failed when Stripe says nothing was refunded, unknown when it says nothing for sure", async () => {
    const stripe = provider();
    expect(await stripe.refund?.(request("pi_paid", 9999n, "k-too-much"))).toMatchObject({
      status: "failed",
      code: "amount_too_large",
    });
    expect(await stripe.refund?.(request("pi_broken", 100n, "k-broken"))).toMatchObject({
      status: "unknown",
    });
    expect(await stripe.refund?.(request("pi_paid", 0n, "k-zero"))).toMatchObject({
      status: "failed",
      code: "amount_invalid",
    });
  });
});
