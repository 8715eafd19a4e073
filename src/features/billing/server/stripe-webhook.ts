import "server-only";
import { eq } from "drizzle-orm";
import { BODY_CAPS } from "@/core/http/edge-contract";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import { appOrigin } from "@/server/auth";
import type { Db } from "@/server/db/client";
import { orders } from "@/server/db/schema";
import { getEnv } from "@/server/env";
import { getMailer } from "@/server/mail";
import { readBodyCapped } from "@/server/read-body";
import { type BillingMail, type DunningNotice, renewalNotice, sendDunningNotice } from "./dunning";
import { lockOrganizationBilling } from "./outcome";
import { currentSigningKey } from "./receipt-keys";
import { sellerDetails } from "./seller";
import { failPendingOrder, settlePaid } from "./settle";

const MAX_WEBHOOK_BYTES = BODY_CAPS.stripeWebhook;

/**
 * POST /api/billing/stripe-webhook. The event is used only after its signature is verified with the
 * webhook signing secret. Checkout settles most payments synchronously; an order left pending
 * (Stripe's answer was lost to a timeout or a crash) is settled here when Stripe reports its
 * PaymentIntent succeeded or failed. Configure the endpoint for `payment_intent.succeeded` and
 * `payment_intent.payment_failed`.
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
  const { verifyStripeWebhook } = await import("@/server/payments/stripe-provider");
  let event: ReturnType<typeof verifyStripeWebhook>;
  try {
    event = verifyStripeWebhook(payload, signature, env.STRIPE_WEBHOOK_SECRET);
  } catch {
    return Response.json(
      { error: { code: "bad_signature", message: "The signature does not match this event." } },
      { status: 400 },
    );
  }
  return Response.json(
    await applyStripeEvent(db, event, {
      issuer: env.APP_URL ?? "Abacus",
      seller: sellerDetails(),
      mail: { mailer: getMailer(), origin: appOrigin() },
    }),
  );
}

type StripeIntent = {
  id?: string;
  amount?: number;
  currency?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { message?: string; code?: string; decline_code?: string };
};

/**
 * Settles a pending order from Stripe's word about its PaymentIntent, exactly once:
 * `payment_intent.succeeded` marks it paid (plan activated, receipt signed) and
 * `payment_intent.payment_failed` marks it failed (a renewal takes its dunning step). The
 * organization's billing lock orders this against checkout submits and the billing clock; only a
 * pending order (a renewal: its attempt in flight) changes, so a redelivered event, or one about an
 * attempt the clock already settled, changes nothing (`applied: false`). A renewal attempt settled
 * here mails the owners as the clock would have (`renewalNotice`), after the commit; the clock then
 * finds the attempt settled and mails nothing, so each attempt is mailed once.
 */
export async function applyStripeEvent(
  db: Db,
  event: { type: string; data: { object: unknown } },
  options: { issuer?: string; seller?: ReceiptSeller; now?: () => Date; mail?: BillingMail } = {},
): Promise<{ received: true; applied: boolean }> {
  const none = { received: true, applied: false } as const;
  if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed")
    return none;
  const intent = event.data.object as StripeIntent;
  const orderId = intent.metadata?.orderId;
  if (!orderId || !/^[0-9a-f-]{36}$/.test(orderId)) return none;
  const [found] = await db
    .select({ organizationId: orders.organizationId })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!found) return none;
  // Before the transaction, as checkout does (publishing a first key uses a connection of its own).
  const key = event.type === "payment_intent.succeeded" ? await currentSigningKey(db) : null;
  const settled = await db.transaction(
    async (tx): Promise<{ applied: boolean; notice: DunningNotice | null }> => {
      const no = { applied: false, notice: null };
      await lockOrganizationBilling(tx, found.organizationId);
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
      if (order?.status !== "pending") return no;
      let applied: boolean;
      if (key) {
        // The event must be about this order's money: same amount in the same currency.
        if (intent.amount !== Number(order.totalMinor) || intent.currency?.toUpperCase() !== order.currency) {
          console.error("Stripe webhook: the PaymentIntent's amount does not match order", order.id);
          return no;
        }
        const paid = await settlePaid(tx, order, intent.id ?? "stripe", {
          key,
          issuer: options.issuer,
          seller: options.seller,
          paidAt: (options.now ?? (() => new Date()))(),
        });
        applied = paid.applied;
      } else {
        const error = intent.last_payment_error;
        applied = await failPendingOrder(
          tx,
          order,
          error?.decline_code ?? error?.code ?? "card_declined",
          error?.message ?? "The payment failed at Stripe.",
          intent.id ?? null,
        );
      }
      if (!applied) return no;
      const [after] = await tx.select().from(orders).where(eq(orders.id, orderId));
      return { applied, notice: after ? await renewalNotice(tx, after) : null };
    },
  );
  await sendDunningNotice(options.mail, settled.notice);
  return { received: true, applied: settled.applied };
}
