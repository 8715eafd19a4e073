import "server-only";
import Stripe from "stripe";
import type { ChargeRequest, ChargeResult, PaymentProvider } from "./provider";

/**
 * Stripe, through the official SDK. The card is turned into a PaymentMethod and a PaymentIntent is
 * confirmed at once, both with the order's idempotency key, so a retried request cannot charge twice
 * at Stripe either. (Sending card numbers to Stripe's API needs raw card data access on the account;
 * an account without it should put Stripe Elements in front, which this interface allows.) Amounts
 * are our minor units, which are Stripe's smallest currency units.
 */
export function createStripeProvider(secretKey: string, client?: Stripe): PaymentProvider {
  const stripe = client ?? new Stripe(secretKey, { maxNetworkRetries: 2, telemetry: false });
  return {
    id: "stripe",
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      // Stripe takes the amount as a JSON number of minor units: convert the bigint only when the
      // number holds it exactly, and before anything is sent (Stripe refuses more than 8 digits anyway).
      const minor = request.amount.amount;
      if (minor <= 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) {
        return { ok: false, code: "amount_invalid", reason: "The amount cannot be charged through Stripe." };
      }
      try {
        const method = await stripe.paymentMethods.create(
          {
            type: "card",
            card: {
              number: request.card.number,
              exp_month: request.card.expMonth,
              exp_year: request.card.expYear,
              cvc: request.card.cvc,
            },
          },
          { idempotencyKey: `pm:${request.idempotencyKey}` },
        );
        const intent = await stripe.paymentIntents.create(
          {
            amount: Number(minor),
            currency: request.amount.currency.toLowerCase(),
            payment_method: method.id,
            confirm: true,
            description: request.description,
            metadata: request.metadata,
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
          },
          { idempotencyKey: `pi:${request.idempotencyKey}` },
        );
        if (intent.status === "succeeded") return { ok: true, reference: intent.id };
        return {
          ok: false,
          code: "card_declined",
          reason: `The payment needs more steps (${intent.status}); try another card.`,
          reference: intent.id,
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const code = error.decline_code ?? error.code ?? "card_declined";
          return { ok: false, code, reason: error.message };
        }
        throw new Error(error instanceof Error ? error.message : "Stripe request failed");
      }
    },
  };
}

/** Verifies a webhook's `Stripe-Signature` with the signing secret; throws when it does not match. */
export function verifyStripeWebhook(payload: string, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signature, secret);
}
