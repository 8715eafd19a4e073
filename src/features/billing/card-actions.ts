"use server";

import { checkCard } from "@/core/billing/card";
import { type ActionResult, action } from "@/server/action";
import { MANAGER_ROLES } from "@/server/authz";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { getPaymentProvider } from "@/server/payments";
import { PAYMENT_PENDING } from "./idempotency";
import { updateCardSchema } from "./plan-schemas";
import { updateCardOnFile } from "./server/card-update";
import { sellerDetails } from "./server/seller";

export type UpdateCardResult = ActionResult<{ brand: string; last4: string; paid: boolean }>;

/**
 * Replaces the card on file (owners and admins). The card lives only in this request: the provider
 * saves it, the database keeps brand, last four and expiry, and no answer repeats the number. A
 * past-due subscription is charged at once to the new card.
 */
export const updateCardAction = action(
  { kind: "org", roles: MANAGER_ROLES },
  updateCardSchema,
  async ({ viewer, input, db }): Promise<UpdateCardResult> => {
    const now = new Date();
    const card = checkCard({ number: input.cardNumber, expiry: input.expiry, cvc: input.cvc }, now);
    if (!card.ok) return { ok: false, error: "Please correct the card details.", fieldErrors: card.errors };
    const outcome = await updateCardOnFile(
      db,
      await getPaymentProvider(),
      await loadRateTable(db),
      { organizationId: viewer.org.id, card: card.card, idempotencyKey: input.idempotencyKey, at: now },
      { issuer: getEnv().APP_URL ?? "Abacus", seller: sellerDetails() },
    );
    if (outcome.status === "declined") {
      return {
        ok: false,
        error: `The card was not saved: ${outcome.reason}`,
        fieldErrors: { cardNumber: outcome.reason },
      };
    }
    if (outcome.status === "unknown") return { ok: false, error: outcome.reason, code: PAYMENT_PENDING };
    const label = `${outcome.brand} ending in ${outcome.last4}`;
    const data = { brand: outcome.brand, last4: outcome.last4, paid: outcome.retry === "renewed" };
    if (outcome.retry === "renewed") {
      return { ok: true, data, message: `Card saved (${label}). Paid: your plan is active again.` };
    }
    if (outcome.retry === "failed" || outcome.retry === "downgraded") {
      return {
        ok: false,
        error: `Card saved (${label}), but the payment was declined: ${outcome.retryReason}`,
      };
    }
    if (outcome.retry === "pending") {
      return {
        ok: false,
        error: `Card saved (${label}); the payment is not confirmed yet.`,
        code: PAYMENT_PENDING,
      };
    }
    return { ok: true, data, message: `Card saved: ${label}.` };
  },
);
