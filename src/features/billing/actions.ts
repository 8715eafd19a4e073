"use server";

import { z } from "zod";
import { checkCard } from "@/core/billing/card";
import { type ActionResult, action } from "@/server/action";
import { MANAGER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { getPaymentProvider } from "@/server/payments";
import { PAYMENT_PENDING } from "./idempotency";
import { checkoutSchema } from "./schemas";
import { processCheckout } from "./server/checkout";
import { sellerDetails } from "./server/seller";
import { cancelAtPeriodEnd, keepPlan, scheduleDowngrade } from "./server/subscription";

const manage = { kind: "org", roles: MANAGER_ROLES } as const;

export const cancelPlanAction = action(manage, z.object({}), async ({ viewer }): Promise<ActionResult> => {
  const result = await cancelAtPeriodEnd(getDb(), viewer.org.id);
  return result.ok
    ? { ok: true, data: undefined, message: "The plan will end with the current period." }
    : { ok: false, error: result.error };
});

export const downgradePlanAction = action(
  manage,
  z.object({ plan: z.enum(["pro"], "Choose the plan to move to.") }),
  async ({ viewer, input }): Promise<ActionResult> => {
    const result = await scheduleDowngrade(getDb(), viewer.org.id, input.plan);
    return result.ok
      ? { ok: true, data: undefined, message: "Pro starts when the current period ends." }
      : { ok: false, error: result.error };
  },
);

export const keepPlanAction = action(manage, z.object({}), async ({ viewer }): Promise<ActionResult> => {
  const result = await keepPlan(getDb(), viewer.org.id);
  return result.ok
    ? { ok: true, data: undefined, message: "The plan continues as it is." }
    : { ok: false, error: result.error };
});

export type CheckoutResult = ActionResult<{ receiptNumber: string | null; alreadyActive: boolean }>;

/**
 * Pays for a plan. The card lives only in this request: `processCheckout` keeps its brand and last
 * four digits, and nothing here logs the input.
 */
export const checkoutAction = action(
  // Buying needs a confirmed email address, checked on the server for every submit.
  { kind: "org", roles: MANAGER_ROLES, verifiedEmail: true },
  checkoutSchema,
  async ({ viewer, input }): Promise<CheckoutResult> => {
    const card = checkCard({ number: input.cardNumber, expiry: input.expiry, cvc: input.cvc }, new Date());
    if (!card.ok) {
      return { ok: false, error: "Please correct the card details.", fieldErrors: card.errors };
    }
    const db = getDb();
    const outcome = await processCheckout(
      db,
      await getPaymentProvider(),
      await loadRateTable(db),
      {
        organization: viewer.org,
        userId: viewer.user.id,
        idempotencyKey: input.idempotencyKey,
        plan: input.plan,
        interval: input.interval,
        currency: input.currency,
        billing: { name: input.name, country: input.country, vatId: input.vatId || null },
        card: card.card,
        couponCode: input.couponCode || null,
      },
      {
        issuer: getEnv().APP_URL ?? "Abacus",
        seller: sellerDetails(),
        sellerCountry: getEnv().SELLER_COUNTRY ?? null,
      },
    );
    if (outcome.status === "invalid") {
      return outcome.field
        ? { ok: false, error: outcome.message, fieldErrors: { [outcome.field]: outcome.message } }
        : { ok: false, error: outcome.message };
    }
    if (outcome.status === "failed") {
      return { ok: false, error: outcome.reason, fieldErrors: { cardNumber: outcome.reason } };
    }
    // Not known whether the money moved: the form keeps its key, so its retry checks on this order.
    if (outcome.status === "pending") return { ok: false, error: outcome.reason, code: PAYMENT_PENDING };
    return {
      ok: true,
      data: { receiptNumber: outcome.receiptNumber, alreadyActive: outcome.alreadyActive ?? false },
      message: outcome.alreadyActive ? "Your organization already has this plan." : "Payment received.",
    };
  },
);
