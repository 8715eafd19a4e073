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
 * - `succeeded`: the money was taken.
 * - `declined`: the provider definitely did not take it (a card decline, an invalid request); the
 *   order may fail and a new attempt under a new key is safe.
 * - `unknown`: no definite answer (timeout, network error, 5xx, a payment still processing). The
 *   money may or may not have been taken: the order stays pending, and only the same key may retry.
 */
export type ChargeResult =
  | { status: "succeeded"; reference: string }
  | { status: "declined"; code: string; reason: string; reference?: string }
  | { status: "unknown"; reason: string; reference?: string };

export interface PaymentProvider {
  readonly id: "test" | "stripe";
  /** Resolves with the outcome; a thrown error counts as `unknown` (never as a decline). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
