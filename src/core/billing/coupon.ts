/**
 * Coupons (promotion codes): whether one may be redeemed, the exact discount it gives, and how many
 * charges it still discounts. Pure; the database side is `features/billing/server/coupons.ts`.
 *
 * The discount is taken from the order's subtotal (its net before tax): a percentage is
 * `round(subtotal × p / 100)` to the currency's minor units, rounded once (`quoteOrder` rounds
 * half-even, like prices); a fixed amount is the coupon's amount in the order's currency, capped at
 * the subtotal. Tax is then computed on
 * what is left, so every invoice line stays exact.
 */
import type { Money } from "../money";
import { applyDiscount } from "../money/tax";
import type { RoundingMode } from "../rounding";
import type { CouponDuration, CouponKind } from "./vocabulary";

/** What a customer types: letters, digits and dashes, 2 to 40 characters, compared upper-cased. */
export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{1,39}$/;
export const COUPON_CODE_MAX_LENGTH = 40;

/** Upper-cases and trims a typed code; null when it cannot be a code at all. */
export function normalizeCouponCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return COUPON_CODE_PATTERN.test(code) ? code : null;
}

/** A coupon's terms as an order needs them: its discount in one currency. */
export interface CouponTerms {
  readonly id: string;
  readonly code: string;
  readonly kind: CouponKind;
  /** A percent coupon's percentage ("25", "12.5"); null for a fixed one. */
  readonly percentOff: string | null;
  /** A fixed coupon's amount in the order's currency (minor units); null for a percent one. */
  readonly amountMinor: bigint | null;
}

/** The discount a coupon gives on a subtotal, exact: never negative, never above the subtotal. */
export function couponDiscount(coupon: CouponTerms, subtotal: Money, rounding: RoundingMode): Money {
  if (subtotal.amount <= 0n) return { amount: 0n, currency: subtotal.currency };
  if (coupon.kind === "percent") {
    if (coupon.percentOff === null) throw new RangeError(`Coupon ${coupon.code} has no percentage`);
    return applyDiscount(subtotal, `${coupon.percentOff}%`, rounding).discount;
  }
  if (coupon.amountMinor === null || coupon.amountMinor <= 0n) {
    throw new RangeError(`Coupon ${coupon.code} has no amount in ${subtotal.currency}`);
  }
  // bigint: Math.min does not apply.
  if (coupon.amountMinor >= subtotal.amount) return subtotal;
  return { amount: coupon.amountMinor, currency: subtotal.currency };
}

/** A coupon as stored, with its amounts per currency (fixed coupons). */
export interface CouponRecord {
  readonly id: string;
  readonly code: string;
  readonly kind: CouponKind;
  readonly percentOff: string | null;
  readonly duration: CouponDuration;
  readonly durationPeriods: number | null;
  readonly expiresAt: Date | null;
  readonly maxRedemptions: number | null;
  readonly redemptionCount: number;
  readonly active: boolean;
  /** Currency code → amount in minor units. */
  readonly amounts: Readonly<Record<string, bigint>>;
}

export type CouponRefusal = "unknown" | "inactive" | "expired" | "exhausted" | "currency" | "used";

export type Redeemable = { ok: true; terms: CouponTerms } | { ok: false; code: CouponRefusal; error: string };

/**
 * Whether `coupon` (null: no coupon has the code typed) may be redeemed now by an organization for an
 * order in `currency`, with one specific message per reason. The checks run in this order: a
 * deactivated coupon says so even once expired.
 */
export function checkRedeemable(
  typed: string,
  coupon: CouponRecord | null,
  context: { currency: string; now: Date; usedByOrganization: boolean },
): Redeemable {
  const shown = typed.trim().toUpperCase().slice(0, COUPON_CODE_MAX_LENGTH);
  if (!coupon) return { ok: false, code: "unknown", error: `There is no promotion code ${shown}.` };
  const code = coupon.code;
  if (!coupon.active) return { ok: false, code: "inactive", error: `The code ${code} is no longer active.` };
  if (coupon.expiresAt && coupon.expiresAt <= context.now) {
    return {
      ok: false,
      code: "expired",
      error: `The code ${code} expired on ${coupon.expiresAt.toISOString().slice(0, 10)}.`,
    };
  }
  if (coupon.maxRedemptions !== null && coupon.redemptionCount >= coupon.maxRedemptions) {
    return {
      ok: false,
      code: "exhausted",
      error: `The code ${code} has been used as many times as it allows.`,
    };
  }
  const currency = context.currency.toUpperCase();
  let amountMinor: bigint | null = null;
  if (coupon.kind === "fixed") {
    amountMinor = coupon.amounts[currency] ?? null;
    if (amountMinor === null) {
      const usable = Object.keys(coupon.amounts).sort().join(", ");
      return {
        ok: false,
        code: "currency",
        error: `The code ${code} cannot be used with ${currency}: it is for ${usable || "no currency"}.`,
      };
    }
  }
  if (context.usedByOrganization) {
    return { ok: false, code: "used", error: `Your organization has already used the code ${code}.` };
  }
  return {
    ok: true,
    terms: { id: coupon.id, code, kind: coupon.kind, percentOff: coupon.percentOff, amountMinor },
  };
}

/** How many charges a coupon discounts: 1, N, or null for every charge. */
export function couponPeriods(duration: CouponDuration, durationPeriods: number | null): number | null {
  if (duration === "once") return 1;
  if (duration === "repeating") return durationPeriods ?? 1;
  return null;
}

/**
 * The subscription's coupon after a paid charge: `discounted` charges so far (this one included) of
 * a coupon discounting `periods` charges (null: every charge). Once used up, the subscription
 * carries no coupon.
 */
export function couponAfterCharge(
  couponId: string,
  periods: number | null,
  discounted: number,
): { couponId: string | null; discountPeriodsLeft: number | null } {
  if (periods === null) return { couponId, discountPeriodsLeft: null };
  const left = periods - discounted;
  return left > 0 ? { couponId, discountPeriodsLeft: left } : { couponId: null, discountPeriodsLeft: null };
}
