import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { orders } from "../db/schema";
import { getEnv } from "../env";
import { readBodyCapped } from "../read-body";

const MAX_WEBHOOK_BYTES = 256 * 1024;

/**
 * POST /api/billing/stripe-webhook. The event is used only after its signature is verified with the
 * webhook signing secret. Payments are settled synchronously at checkout, so events serve as a
 * cross-check: a payment Stripe reports as failed for an order we hold as pending marks it failed.
 */
export async function handleStripeWebhook(db: Db, request: Request): Promise<Response> {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) {
    return Response.json(
      { error: { code: "not_configured", message: "Stripe is not configured." } },
      { status: 404 },
    );
  }
  const signature = request.headers.get("stripe-signature");
  if (!signature) {
    return Response.json(
      { error: { code: "bad_signature", message: "Missing Stripe-Signature." } },
      { status: 400 },
    );
  }
  let payload: string;
  try {
    payload = new TextDecoder().decode(await readBodyCapped(request, MAX_WEBHOOK_BYTES));
  } catch {
    return Response.json(
      { error: { code: "too_large", message: "The event is too large." } },
      { status: 413 },
    );
  }
  const { verifyStripeWebhook } = await import("../payments/stripe-provider");
  let event: ReturnType<typeof verifyStripeWebhook>;
  try {
    event = verifyStripeWebhook(payload, signature, env.STRIPE_WEBHOOK_SECRET);
  } catch {
    return Response.json(
      { error: { code: "bad_signature", message: "The signature does not match this event." } },
      { status: 400 },
    );
  }
  return Response.json(await applyStripeEvent(db, event));
}

export async function applyStripeEvent(
  db: Db,
  event: { type: string; data: { object: unknown } },
): Promise<{ received: true; applied: boolean }> {
  if (event.type !== "payment_intent.payment_failed") return { received: true, applied: false };
  const intent = event.data.object as {
    metadata?: Record<string, string>;
    last_payment_error?: { message?: string };
  };
  const orderId = intent.metadata?.orderId;
  if (!orderId || !/^[0-9a-f-]{36}$/.test(orderId)) return { received: true, applied: false };
  const updated = await db
    .update(orders)
    .set({
      status: "failed",
      failureCode: "card_declined",
      failureReason: intent.last_payment_error?.message ?? "The payment failed at Stripe.",
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending")))
    .returning({ id: orders.id, status: orders.status });
  return { received: true, applied: updated.length > 0 };
}
