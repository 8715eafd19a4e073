import "server-only";
import type { CheckedCard } from "@/core/billing/card";
import type { Money } from "@/core/money";

/**
 * What checkout needs from a payment provider. A provider receives the card for the length of one
 * call and returns only a reference, the brand and the last four digits: nothing that reaches the
 * database or a log can reconstruct the card.
 */
export interface ChargeRequest {
  amount: Money;
  card: CheckedCard;
  /**
   * The order's stable key, `${organizationId}:${formKey}`: the same for every attempt to pay one
   * order, so a provider that supports idempotency (Stripe) answers a retry with the first attempt's
   * result instead of charging again.
   */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/**
 * A card kept for later charges: the provider's reusable reference to it (a token, or a Stripe
 * Customer and PaymentMethod) and what a customer recognises it by. Never the number.
 */
export interface SavedCard {
  /** The provider's customer, when it has one (Stripe's `cus_…`). */
  customerReference: string | null;
  /** What the provider charges later: a test token or Stripe's `pm_…`. */
  methodReference: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A charge of a card on file, without the customer present (a renewal, a proration). */
export interface SavedChargeRequest {
  amount: Money;
  card: Pick<SavedCard, "customerReference" | "methodReference">;
  /** Derived from what is paid for and the attempt, so a retried call never charges twice. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/**
 * - `succeeded`: the money was taken; at checkout, `saved` is the card kept for later charges.
 * - `declined`: the provider definitely did not take it (a card decline, an invalid request); the
 *   order may fail and a new attempt under a new key is safe.
 * - `unknown`: no definite answer (timeout, network error, 5xx, a payment still processing). The
 *   money may or may not have been taken: the order stays pending, and only the same key may retry.
 */
export type ChargeResult =
  | { status: "succeeded"; reference: string; saved?: SavedCard }
  | { status: "declined"; code: string; reason: string; reference?: string }
  | { status: "unknown"; reason: string; reference?: string };

/** A refund of (part of) an earlier charge, in the charge's currency. */
export interface RefundRequest {
  /** The charge's provider reference (the payment's `provider_reference`). */
  chargeReference: string;
  amount: Money;
  /** One per credit note: a retried call refunds once and answers the first result. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/**
 * - `succeeded`: the money is on its way back.
 * - `failed`: the provider definitely refunded nothing (no credit note is issued).
 * - `unknown`: no definite answer; only the same key may retry.
 */
export type RefundResult =
  | { status: "succeeded"; reference: string }
  | { status: "failed"; code: string; reason: string }
  | { status: "unknown"; reason: string };

/** A card saved for later charges without charging it now (the customer replaces the card on file). */
export interface SaveCardRequest {
  card: CheckedCard;
  organizationId: string;
  /** The provider's customer already on file, if any; otherwise the provider makes one. */
  customerReference: string | null;
  /** One per attempt to save: a retried call saves once and answers the first result. */
  idempotencyKey: string;
}

/** `declined`: the card was refused and nothing was saved; `unknown`: no definite answer. */
export type SaveCardResult =
  | { status: "saved"; saved: SavedCard }
  | { status: "declined"; code: string; reason: string }
  | { status: "unknown"; reason: string };

export interface PaymentProvider {
  readonly id: "test" | "stripe";
  /**
   * Charges the card typed at checkout and keeps it for later charges. Resolves with the outcome; a
   * thrown error counts as `unknown` (never as a decline).
   */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Charges a card on file off-session; the same outcomes as `charge`. */
  chargeSaved(request: SavedChargeRequest): Promise<ChargeResult>;
  /**
   * Saves a card for later off-session charges without charging it (Stripe: a confirmed SetupIntent).
   * Optional so stand-in providers in tests need not have it; both real providers implement it.
   */
  saveCard?(request: SaveCardRequest): Promise<SaveCardResult>;
  /**
   * Refunds (part of) a charge; a thrown error counts as `unknown`. Optional in the type so that
   * stand-in providers in tests need not have it; both real providers implement it.
   */
  refund?(request: RefundRequest): Promise<RefundResult>;
}
