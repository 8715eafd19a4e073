import "server-only";
import { type BillingInterval, getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { checkVatId } from "@/core/billing/vat";
import type { RateTable } from "@/core/money/fx";
import { fail, ok, type Result } from "@/core/result";
import type { Db } from "@/server/db/client";
import { type CheckoutPreview, previewOf } from "../quote";
import { peekCoupon } from "./coupons";

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
