import "server-only";
import { type BillingInterval, getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { checkVatId } from "@/core/billing/vat";
import type { RateTable } from "@/core/money/fx";
import { plural } from "@/core/plural";
import { fail, ok, type Result } from "@/core/result";
import type { Db } from "@/server/db/client";
import { consumeRateLimit, type RateLimitRule } from "@/server/rate-limit";
import { type CheckoutPreview, previewOf } from "../quote";
import { peekCoupon } from "./coupons";

/**
 * Promotion codes one organization may have checked in an hour, by previews and checkouts together:
 * plenty for a person comparing plans and currencies, far too few to guess codes.
 */
export const COUPON_CHECKS: RateLimitRule = { bucket: "coupon-check", limit: 60, windowSeconds: 60 * 60 };

/** Null when the organization may have one more promotion code checked now; else why not. */
export async function couponCheckRefusal(db: Db, organizationId: string): Promise<string | null> {
  const decision = await db.transaction((tx) => consumeRateLimit(tx, COUPON_CHECKS, organizationId));
  if (decision.allowed) return null;
  const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
  return `Too many promotion codes were tried for this organization. Try again in ${plural(minutes, "minute")}.`;
}

export interface PreviewRequest {
  organizationId: string;
  plan: "pro" | "team";
  interval: BillingInterval;
  currency: string;
  country: string;
  vatId: string | null;
  couponCode: string;
}

/**
 * What the checkout would charge with a promotion code, before paying: the code is checked as
 * placing the order checks it (`peekCoupon`, the same `checkRedeemable`), but nothing is redeemed or
 * written. The charge itself is priced again on the server when the order is placed; this answer is
 * only shown. A VAT ID that does not validate is left out of the price (the pay button says why).
 */
export async function previewCheckout(
  db: Db,
  rates: RateTable | null,
  request: PreviewRequest,
  options: { now?: Date; sellerCountry?: string | null } = {},
): Promise<Result<CheckoutPreview>> {
  const plan = getPlan(request.plan);
  if (!plan) return fail("Unknown plan.");
  const vatId = request.vatId && !checkVatId(request.vatId, request.country) ? request.vatId : null;
  const price = (coupon: Parameters<typeof quoteOrder>[0]["coupon"]) =>
    quoteOrder({
      plan,
      interval: request.interval,
      currency: request.currency,
      country: request.country,
      table: rates,
      coupon,
      vatId,
      sellerCountry: options.sellerCountry ?? null,
    });
  const plain = price(null);
  if (!plain.ok) return fail(plain.error.message);
  const checked = await peekCoupon(db, {
    code: request.couponCode,
    organizationId: request.organizationId,
    currency: request.currency,
    now: options.now ?? new Date(),
  });
  if (!checked.ok) return fail(checked.error, { fieldErrors: { couponCode: checked.error } });
  const quote = price(checked.terms);
  if (!quote.ok) return fail(quote.error.message);
  return ok(previewOf(quote.value, checked.terms.code));
}
