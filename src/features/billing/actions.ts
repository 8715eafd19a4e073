"use server";

import { z } from "zod";
import { checkCard } from "@/core/billing/card";
import { toDecimalString } from "@/core/money";
import { type ActionResult, action } from "@/server/action";
import { MANAGER_ROLES } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { getPaymentProvider } from "@/server/payments";
import { PAYMENT_PENDING } from "./idempotency";
import { billingProfileSchema, cancelPlanSchema, changePlanSchema } from "./plan-schemas";
import type { CheckoutPreview } from "./quote";
import { checkoutPreviewSchema, checkoutSchema } from "./schemas";
import { saveBillingProfile } from "./server/billing-page";
import { processCheckout } from "./server/checkout";
import { couponCheckRefusal, previewCheckout } from "./server/checkout-preview";
import { changePlan } from "./server/plan-change";
import { sellerDetails } from "./server/seller";
import { cancelAtPeriodEnd, keepPlan, scheduleDowngrade } from "./server/subscription";

const manage = { kind: "org", roles: MANAGER_ROLES } as const;

export const cancelPlanAction = action(
  manage,
  cancelPlanSchema,
  async ({ viewer, input, db }): Promise<ActionResult> => {
    const result = await cancelAtPeriodEnd(db, viewer.org.id, new Date(), input.reason ?? null);
    return result.ok
      ? { ok: true, data: undefined, message: "The plan will end with the current period." }
      : { ok: false, error: result.error, fieldErrors: { reason: result.error } };
  },
);

export type ChangePlanResult = ActionResult<{ receiptNumber: string | null; total: string }>;

/**
 * Upgrades at once, charging the proration to the card on file; the form's key makes a double
 * click or a retry charge once. A decline changes nothing and says why.
 */
export const changePlanAction = action(
  manage,
  changePlanSchema,
  async ({ viewer, input, db }): Promise<ChangePlanResult> => {
    const outcome = await changePlan(
      db,
      await getPaymentProvider(),
      await loadRateTable(db),
      {
        organizationId: viewer.org.id,
        userId: viewer.user.id,
        idempotencyKey: input.idempotencyKey,
        target: { plan: input.plan, interval: input.interval },
      },
      { issuer: getEnv().APP_URL ?? "Abacus", seller: sellerDetails() },
    );
    if (!outcome.ok) {
      return outcome.pending
        ? { ok: false, error: outcome.error, code: PAYMENT_PENDING }
        : { ok: false, error: outcome.error };
    }
    const total = toDecimalString({ amount: outcome.quote.total, currency: outcome.quote.currency });
    return {
      ok: true,
      data: { receiptNumber: outcome.receiptNumber, total },
      message: `Upgraded: ${total} ${outcome.quote.currency} charged to the card on file${
        outcome.quote.coupon ? `, with ${outcome.quote.coupon.code} applied` : ""
      }.`,
    };
  },
);

/** Saves the organization's billing details for its next invoices. */
export const saveBillingProfileAction = action(
  manage,
  billingProfileSchema,
  async ({ viewer, input, db }): Promise<ActionResult> => {
    await saveBillingProfile(db, viewer.org.id, input);
    return { ok: true, data: undefined, message: "Billing details saved." };
  },
);

export const downgradePlanAction = action(
  manage,
  z.object({ plan: z.enum(["pro"], "Choose the plan to move to.") }),
  async ({ viewer, input, db }): Promise<ActionResult> => {
    const result = await scheduleDowngrade(db, viewer.org.id, input.plan);
    return result.ok
      ? { ok: true, data: undefined, message: "Pro starts when the current period ends." }
      : { ok: false, error: result.error };
  },
);

export const keepPlanAction = action(manage, z.object({}), async ({ viewer, db }): Promise<ActionResult> => {
  const result = await keepPlan(db, viewer.org.id);
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
    if (input.couponCode) {
      const refused = await couponCheckRefusal(db, viewer.org.id);
      if (refused) return { ok: false, error: refused, fieldErrors: { couponCode: refused } };
    }
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

export type CheckoutPreviewResult = ActionResult<CheckoutPreview>;

/**
 * The checkout's "Apply": the order priced with a promotion code, checked as paying would check it
 * but not redeemed. Only shown: the checkout prices the order again on the server when it is placed.
 */
export const previewCheckoutAction = action(
  { kind: "org", roles: MANAGER_ROLES, verifiedEmail: true },
  checkoutPreviewSchema,
  async ({ viewer, input, db }): Promise<CheckoutPreviewResult> => {
    const refused = await couponCheckRefusal(db, viewer.org.id);
    if (refused) return { ok: false, error: refused, fieldErrors: { couponCode: refused } };
    return previewCheckout(
      db,
      await loadRateTable(db),
      {
        organizationId: viewer.org.id,
        plan: input.plan,
        interval: input.interval,
        currency: input.currency,
        country: input.country,
        vatId: input.vatId || null,
        couponCode: input.couponCode,
      },
      { sellerCountry: getEnv().SELLER_COUNTRY ?? null },
    );
  },
);
