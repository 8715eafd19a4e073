import "server-only";
import type { CheckedCard } from "@/core/billing/card";
import { getEnv } from "@/server/env";
import type { ChargeResult, PaymentProvider, SavedChargeRequest } from "@/server/payments/provider";
import type { OrderRow } from "./outcome";

/**
 * Tests only: kills this process right after the provider answered, before anything is recorded
 * (the crash-injection tests). Inert unless `BILLING_TEST_CRASH` names this point.
 */
function crashAfterCharge(point: "after_checkout_charge" | "after_saved_charge") {
  if (getEnv().BILLING_TEST_CRASH === point) process.kill(process.pid, "SIGKILL");
}

/** The key sent to the provider for every attempt at one order (Stripe: `pm:`/`pi:` + this). */
export function providerKeyOf(order: Pick<OrderRow, "organizationId" | "idempotencyKey">): string {
  return `${order.organizationId}:${order.idempotencyKey}`;
}

/**
 * Asks the provider for the order's money: the order's own amounts (a retry never re-quotes) and
 * key, so every attempt is the same request. A provider that throws or times out is an unknown
 * answer, never a decline.
 */
export async function chargeOrder(
  provider: PaymentProvider,
  order: OrderRow,
  card: CheckedCard,
  description: string,
): Promise<ChargeResult> {
  try {
    const result = await provider.charge({
      amount: { amount: order.totalMinor, currency: order.currency },
      card,
      idempotencyKey: providerKeyOf(order),
      description,
      metadata: { orderId: order.id, organizationId: order.organizationId },
    });
    crashAfterCharge("after_checkout_charge");
    return result;
  } catch (error) {
    // Never log the request: it holds the card. The error's message is the provider's own.
    console.error("Payment provider error:", error instanceof Error ? error.message : "unknown");
    return { status: "unknown", reason: "The payment provider did not answer." };
  }
}

/** Charges a card on file; like `chargeOrder`, a provider that throws is an unknown answer. */
export async function chargeSavedCard(
  provider: PaymentProvider,
  request: SavedChargeRequest,
): Promise<ChargeResult> {
  try {
    const result = await provider.chargeSaved(request);
    crashAfterCharge("after_saved_charge");
    return result;
  } catch (error) {
    console.error("Payment provider error:", error instanceof Error ? error.message : "unknown");
    return { status: "unknown", reason: "The payment provider did not answer." };
  }
}
