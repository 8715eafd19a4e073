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
  return {
    id: "test",
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const card = TEST_CARDS.find((c) => c.number === request.card.number);
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
      }
    },
  };
}
