import "server-only";
import { randomUUID } from "node:crypto";
import { DECLINE_REASONS, SLOW_APPROVAL_MS, TEST_CARDS } from "@/core/billing/test-cards";
import type { ChargeRequest, ChargeResult, PaymentProvider } from "./provider";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built-in provider: works offline and charges nothing. Its outcome depends only on the test card
 * (see `TEST_CARDS` and the docs); any other card is declined.
 */
export function createTestProvider(options: { slowMs?: number } = {}): PaymentProvider {
  const slowMs = options.slowMs ?? SLOW_APPROVAL_MS;
  // The timeout card's charges, by idempotency key: like a real provider, a retry with the same key
  // gets the first attempt's result (here: the charge that went through) instead of a new charge.
  const lostAnswers = new Map<string, string>();
  return {
    id: "test",
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const card = TEST_CARDS.find((c) => c.number === request.card.number);
      const earlier = lostAnswers.get(request.idempotencyKey);
      if (earlier) return { status: "succeeded", reference: earlier };
      const reference = `test_ch_${randomUUID().replace(/-/g, "")}`;
      const decline = (code: string): ChargeResult => ({
        status: "declined",
        code,
        reason: DECLINE_REASONS[code] ?? code,
        reference,
      });
      if (!card) return decline("unknown_test_card");
      switch (card.outcome) {
        case "approve":
          return { status: "succeeded", reference };
        case "slow_approve":
          await sleep(slowMs);
          return { status: "succeeded", reference };
        case "decline":
          return decline("card_declined");
        case "insufficient_funds":
          return decline("insufficient_funds");
        case "expired_card":
          return decline("expired_card");
        case "timeout":
          lostAnswers.set(request.idempotencyKey, reference);
          return { status: "unknown", reason: "The test provider's answer was lost (test card)." };
      }
    },
  };
}
