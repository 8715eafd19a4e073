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
  /** Unique per organization and order: a provider that supports it dedupes retries with it. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | { ok: true; reference: string }
  | { ok: false; code: string; reason: string; reference?: string };

export interface PaymentProvider {
  readonly id: "test" | "stripe";
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
