/**
 * The built-in test provider's cards (documented in content/docs). Any expiry in the future and any
 * CVC of the brand's length work with them. Any other valid card number is declined by the test
 * provider, so a real card can never be "charged" by it.
 */
export type TestCardOutcome =
  | "approve"
  | "decline"
  | "insufficient_funds"
  | "expired_card"
  | "slow_approve"
  | "timeout"
  /** Approves the charge at checkout; every later charge of the card on file is declined. */
  | "approve_then_decline";

export interface TestCard {
  readonly number: string;
  readonly brand: string;
  readonly outcome: TestCardOutcome;
  readonly description: string;
}

export const SLOW_APPROVAL_MS = 3000;

export const TEST_CARDS: readonly TestCard[] = [
  { number: "4242424242424242", brand: "Visa", outcome: "approve", description: "Approved" },
  { number: "5555555555554444", brand: "Mastercard", outcome: "approve", description: "Approved" },
  { number: "378282246310005", brand: "American Express", outcome: "approve", description: "Approved" },
  { number: "4000000000000002", brand: "Visa", outcome: "decline", description: "Declined by the bank" },
  {
    number: "4000000000009995",
    brand: "Visa",
    outcome: "insufficient_funds",
    description: "Declined: insufficient funds",
  },
  {
    number: "4000000000000069",
    brand: "Visa",
    outcome: "expired_card",
    description: "Declined: card expired",
  },
  {
    number: "4000000000003063",
    brand: "Visa",
    outcome: "slow_approve",
    description: "Approved after 3 seconds",
  },
  {
    number: "4000000000000119",
    brand: "Visa",
    outcome: "timeout",
    description: "Charged, but the answer is lost: the order stays pending until it is submitted again",
  },
  {
    number: "4000000000000341",
    brand: "Visa",
    outcome: "approve_then_decline",
    description: "Approved at checkout; later charges of the card on file (renewals) are declined",
  },
];

/** Why a payment failed, in words a customer can act on. */
export const DECLINE_REASONS: Readonly<Record<string, string>> = {
  card_declined: "Your card was declined. Try another card or contact your bank.",
  insufficient_funds: "Your card has insufficient funds. Try another card.",
  expired_card: "Your card has expired. Try another card.",
  unknown_test_card: "The test provider accepts only the documented test cards (see the docs).",
  processing_error: "The payment could not be processed. Nothing was charged; try again.",
};
