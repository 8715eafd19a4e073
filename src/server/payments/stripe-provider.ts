import "server-only";
import Stripe from "stripe";
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  SaveCardRequest,
  SaveCardResult,
  SavedChargeRequest,
} from "./provider";

/** How long one request to Stripe may take before the SDK gives up on it (and retries it, same key). */
export const STRIPE_TIMEOUT_MS = 20_000;

/**
 * Stripe, through the official SDK. At checkout the card becomes a PaymentMethod on a new Customer and
 * a PaymentIntent is confirmed at once (saved for off-session use), sent with `Idempotency-Key:
 * cus:<order key>`, `pm:<order key>` and `pi:<order key>`, where the order
 * key is `${organizationId}:${formKey}` and never changes for one order. A retried request (the SDK's
 * own retries, or a later attempt at the same pending order) therefore gets Stripe's saved answer to
 * the first one instead of a second charge. (Sending card numbers to Stripe's API needs raw card data
 * access on the account; an account without it should put Stripe Elements in front, which this
 * interface allows.) Later charges (`chargeSaved`) confirm an off-session PaymentIntent on that
 * Customer and PaymentMethod under `pi:<key>`, the key derived from what is paid for and the attempt.
 * Amounts are our minor units, which are Stripe's smallest currency units.
 *
 * Only an answer that says no money moved is a decline (a card error, an invalid request). A timeout,
 * a connection error, a 5xx, a rate limit, an idempotency conflict or a payment still `processing` is
 * `unknown`: the order stays pending until a retry under the same key or a webhook settles it.
 */
export function createStripeProvider(secretKey: string, client?: Stripe): PaymentProvider {
  const stripe =
    client ?? new Stripe(secretKey, { maxNetworkRetries: 2, timeout: STRIPE_TIMEOUT_MS, telemetry: false });
  return {
    id: "stripe",
    refund: (request) => stripeRefund(stripe, request),
    saveCard: (request) => stripeSaveCard(stripe, request),
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const amount = stripeAmount(request.amount.amount);
      if (amount === null) return AMOUNT_INVALID;
      try {
        // The card is kept on a Customer for later off-session charges (renewals, prorations).
        const customer = await stripe.customers.create(
          { metadata: request.metadata },
          { idempotencyKey: `cus:${request.idempotencyKey}` },
        );
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
            amount,
            currency: request.amount.currency.toLowerCase(),
            customer: customer.id,
            payment_method: method.id,
            setup_future_usage: "off_session",
            confirm: true,
            description: request.description,
            metadata: request.metadata,
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
          },
          { idempotencyKey: `pi:${request.idempotencyKey}` },
        );
        const result = intentOutcome(intent);
        if (result.status !== "succeeded") return result;
        return {
          ...result,
          saved: {
            customerReference: customer.id,
            methodReference: method.id,
            brand: request.card.brand,
            last4: request.card.last4,
            expMonth: request.card.expMonth,
            expYear: request.card.expYear,
          },
        };
      } catch (error) {
        return classifyStripeError(error);
      }
    },
    async chargeSaved(request: SavedChargeRequest): Promise<ChargeResult> {
      const amount = stripeAmount(request.amount.amount);
      if (amount === null) return AMOUNT_INVALID;
      if (!request.card.customerReference) {
        return { status: "declined", code: "no_customer", reason: "The card on file is not a Stripe card." };
      }
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount,
            currency: request.amount.currency.toLowerCase(),
            customer: request.card.customerReference,
            payment_method: request.card.methodReference,
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: request.metadata,
          },
          { idempotencyKey: `pi:${request.idempotencyKey}` },
        );
        return intentOutcome(intent);
      } catch (error) {
        return classifyStripeError(error);
      }
    },
  };
}

const AMOUNT_INVALID: ChargeResult = {
  status: "declined",
  code: "amount_invalid",
  reason: "The amount cannot be charged through Stripe.",
};

/**
 * Stripe takes the amount as a JSON number of minor units: the bigint converts only when the number
 * holds it exactly, and before anything is sent (Stripe refuses more than 8 digits anyway).
 */
function stripeAmount(minor: bigint): number | null {
  return minor <= 0n || minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}

function intentOutcome(intent: Stripe.PaymentIntent): ChargeResult {
  if (intent.status === "succeeded") return { status: "succeeded", reference: intent.id };
  if (intent.status === "processing") {
    return { status: "unknown", reason: "Stripe is still processing the payment.", reference: intent.id };
  }
  return {
    status: "declined",
    code: "card_declined",
    reason: `The payment needs more steps (${intent.status}); try another card.`,
    reference: intent.id,
  };
}

/** A Stripe error as a charge outcome: a decline only when Stripe's answer says nothing was charged. */
export function classifyStripeError(error: unknown): ChargeResult {
  if (error instanceof Stripe.errors.StripeCardError) {
    const code = error.decline_code ?? error.code ?? "card_declined";
    return { status: "declined", code, reason: error.message };
  }
  // A 4xx about the request itself (never a key still in use, or a key reused with other parameters:
  // those say another attempt under this key exists, and it may have charged).
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.statusCode !== undefined &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    error.statusCode !== 409 &&
    error.statusCode !== 429 &&
    !String(error.code ?? "").startsWith("idempotency")
  ) {
    return { status: "declined", code: error.code ?? "invalid_request", reason: error.message };
  }
  // Never the request (it holds the card): the error's message is Stripe's or the network's own.
  const message = error instanceof Error ? error.message : "unknown error";
  console.error("Stripe charge outcome unknown:", message);
  return {
    status: "unknown",
    reason: "The payment provider did not confirm the payment in time.",
  };
}

/**
 * Replaces the card on file without charging it: the Customer on file (or a new one), a PaymentMethod
 * made from the card as `charge` makes one, and a SetupIntent confirmed for off-session use, under
 * `cus:`, `pm:` and `si:<key>`. A card the bank refuses fails the SetupIntent and nothing is saved.
 */
async function stripeSaveCard(stripe: Stripe, request: SaveCardRequest): Promise<SaveCardResult> {
  try {
    const customerId =
      request.customerReference ??
      (
        await stripe.customers.create(
          { metadata: { organizationId: request.organizationId } },
          { idempotencyKey: `cus:${request.idempotencyKey}` },
        )
      ).id;
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
    const intent = await stripe.setupIntents.create(
      {
        customer: customerId,
        payment_method: method.id,
        usage: "off_session",
        confirm: true,
        metadata: { organizationId: request.organizationId },
        automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      },
      { idempotencyKey: `si:${request.idempotencyKey}` },
    );
    if (intent.status === "processing") {
      return { status: "unknown", reason: "Stripe is still checking the card." };
    }
    if (intent.status !== "succeeded") {
      return {
        status: "declined",
        code: "card_declined",
        reason: `The card needs more steps (${intent.status}); try another card.`,
      };
    }
    const { brand, last4, expMonth, expYear } = request.card;
    return {
      status: "saved",
      saved: { customerReference: customerId, methodReference: method.id, brand, last4, expMonth, expYear },
    };
  } catch (error) {
    const outcome = classifyStripeError(error);
    return outcome.status === "declined"
      ? { status: "declined", code: outcome.code, reason: outcome.reason }
      : { status: "unknown", reason: "The payment provider did not confirm the card in time." };
  }
}

/** A refund on Stripe: `re_…` under `Idempotency-Key: re:<credit note key>`. */
async function stripeRefund(stripe: Stripe, request: RefundRequest): Promise<RefundResult> {
  const amount = stripeAmount(request.amount.amount);
  if (amount === null)
    return { status: "failed", code: "amount_invalid", reason: "The refund amount is not valid." };
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: request.chargeReference, amount, metadata: request.metadata },
      { idempotencyKey: `re:${request.idempotencyKey}` },
    );
    if (refund.status === "succeeded" || refund.status === "pending")
      return { status: "succeeded", reference: refund.id };
    if (refund.status === "failed" || refund.status === "canceled") {
      return {
        status: "failed",
        code: refund.failure_reason ?? "refund_failed",
        reason: `Stripe refused the refund (${refund.status}).`,
      };
    }
    return { status: "unknown", reason: `Stripe has not settled the refund (${refund.status}).` };
  } catch (error) {
    const outcome = classifyStripeError(error);
    return outcome.status === "declined"
      ? { status: "failed", code: outcome.code, reason: outcome.reason }
      : { status: "unknown", reason: "The payment provider did not confirm the refund in time." };
  }
}

/** Verifies a webhook's `Stripe-Signature` with the signing secret; throws when it does not match. */
export function verifyStripeWebhook(payload: string, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signature, secret);
}
