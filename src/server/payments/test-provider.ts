import "server-only";
import { randomUUID } from "node:crypto";
import {
  DECLINE_REASONS,
  SLOW_APPROVAL_MS,
  TEST_CARDS,
  type TestCardOutcome,
} from "@/core/billing/test-cards";
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  SaveCardRequest,
  SaveCardResult,
  SavedCard,
  SavedChargeRequest,
} from "./provider";

const TOKEN_PREFIX = "test_pm_";

/**
 * A test card's token: what later charges of it do, plus a random part. It names the outcome, never
 * the number, so any process (another app instance, the billing clock) can charge it.
 */
function tokenFor(outcome: TestCardOutcome): string {
  const later = outcome === "approve_then_decline" ? "decline" : "approve";
  return `${TOKEN_PREFIX}${later}_${randomUUID().replace(/-/g, "")}`;
}

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
  // Off-session charges by idempotency key: a retry gets the first answer, never a second charge.
  const savedCharges = new Map<string, ChargeResult>();
  // Refunds by idempotency key, likewise.
  const refunds = new Map<string, RefundResult>();
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
      const saved: SavedCard = {
        customerReference: null,
        methodReference: tokenFor(card.outcome),
        brand: request.card.brand,
        last4: request.card.last4,
        expMonth: request.card.expMonth,
        expYear: request.card.expYear,
      };
      switch (card.outcome) {
        case "approve":
        case "approve_then_decline":
          return { status: "succeeded", reference, saved };
        case "slow_approve":
          await sleep(slowMs);
          return { status: "succeeded", reference, saved };
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
    async chargeSaved(request: SavedChargeRequest): Promise<ChargeResult> {
      const earlier = savedCharges.get(request.idempotencyKey);
      if (earlier) return earlier;
      const token = request.card.methodReference;
      const reference = `test_ch_${randomUUID().replace(/-/g, "")}`;
      let result: ChargeResult;
      if (token.startsWith(`${TOKEN_PREFIX}approve_`)) result = { status: "succeeded", reference };
      else if (token.startsWith(`${TOKEN_PREFIX}decline_`)) {
        result = {
          status: "declined",
          code: "card_declined",
          reason: DECLINE_REASONS.card_declined ?? "",
          reference,
        };
      } else {
        result = {
          status: "declined",
          code: "unknown_test_card",
          reason: DECLINE_REASONS.unknown_test_card ?? "",
        };
      }
      savedCharges.set(request.idempotencyKey, result);
      return result;
    },
    // Saves a test card without charging it: a card whose first charge is declined is refused here.
    async saveCard(request: SaveCardRequest): Promise<SaveCardResult> {
      const card = TEST_CARDS.find((c) => c.number === request.card.number);
      const refuse = (code: string): SaveCardResult => ({
        status: "declined",
        code,
        reason: DECLINE_REASONS[code] ?? code,
      });
      if (!card) return refuse("unknown_test_card");
      if (card.outcome === "decline") return refuse("card_declined");
      if (card.outcome === "insufficient_funds") return refuse("insufficient_funds");
      if (card.outcome === "expired_card") return refuse("expired_card");
      if (card.outcome === "timeout") {
        return { status: "unknown", reason: "The test provider's answer was lost (test card)." };
      }
      const { brand, last4, expMonth, expYear } = request.card;
      const methodReference = tokenFor(card.outcome);
      return {
        status: "saved",
        saved: { customerReference: null, methodReference, brand, last4, expMonth, expYear },
      };
    },
    // Refunds a test charge (a `test_ch_` reference) and nothing else; the same key answers the same.
    async refund(request: RefundRequest): Promise<RefundResult> {
      const earlier = refunds.get(request.idempotencyKey);
      if (earlier) return earlier;
      const result: RefundResult =
        request.chargeReference.startsWith("test_ch_") && request.amount.amount > 0n
          ? { status: "succeeded", reference: `test_re_${randomUUID().replace(/-/g, "")}` }
          : { status: "failed", code: "charge_not_found", reason: "The test provider made no such charge." };
      refunds.set(request.idempotencyKey, result);
      return result;
    },
  };
}
