import { describe, expect, it } from "vitest";
import type { RateTable } from "../money";
import {
  type CouponRecord,
  type CouponTerms,
  checkRedeemable,
  couponAfterCharge,
  couponDiscount,
  couponPeriods,
  normalizeCouponCode,
} from "./coupon";
import { getPlan, type Plan } from "./plans";
import { quoteOrder } from "./pricing";

const pro = getPlan("pro") as Plan;
const table: RateTable = { base: "EUR", date: "2026-11-20", rates: { USD: "1.2", JPY: "180.5" } };
const percent = (p: string): CouponTerms => ({
  id: "c1",
  code: "P",
  kind: "percent",
  percentOff: p,
  amountMinor: null,
});
const fixed = (amount: bigint): CouponTerms => ({
  id: "c2",
  code: "F",
  kind: "fixed",
  percentOff: null,
  amountMinor: amount,
});

describe("couponDiscount", () => {
  it("takes a percentage of the subtotal, rounded once half-even", () => {
    const usd = { amount: 1200n, currency: "USD" };
    expect(couponDiscount(percent("12.5"), usd, "half-even").amount).toBe(150n);
    const jpy = { amount: 1805n, currency: "JPY" };
    expect(couponDiscount(percent("50"), jpy, "half-even").amount).toBe(902n); // 902.5 → 902 (even)
    expect(couponDiscount(percent("33.33"), jpy, "half-even").amount).toBe(602n); // 601.6065
    expect(couponDiscount(percent("100"), usd, "half-even").amount).toBe(1200n);
  });

  it("caps a fixed amount at the subtotal", () => {
    const usd = { amount: 1200n, currency: "USD" };
    expect(couponDiscount(fixed(500n), usd, "half-even").amount).toBe(500n);
    expect(couponDiscount(fixed(5000n), usd, "half-even").amount).toBe(1200n);
  });
});

describe("quoteOrder with a coupon and a VAT ID", () => {
  const base = { plan: pro, interval: "monthly" as const, table };
  it("discounts before tax, and the parts add up", () => {
    const q = quoteOrder({ ...base, currency: "USD", country: "DE", coupon: fixed(500n) });
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    const v = q.value;
    expect([v.subtotal.amount, v.discount.amount, v.net.amount, v.tax.amount, v.total.amount]).toEqual([
      1200n,
      500n,
      700n,
      133n, // 19 % of 7.00
      833n,
    ]);
    expect(v.coupon).toEqual({ id: "c2", code: "F" });
    expect(v.subtotal.amount - v.discount.amount).toBe(v.net.amount);
  });

  it("a percent coupon on a zero-decimal currency", () => {
    const q = quoteOrder({ ...base, currency: "JPY", country: "JP", coupon: percent("50") });
    expect(q.ok && [q.value.discount.amount, q.value.net.amount, q.value.tax.amount]).toEqual([
      902n,
      903n,
      90n,
    ]);
  });

  it("a fixed coupon above the price leaves nothing to pay", () => {
    const q = quoteOrder({ ...base, currency: "USD", country: "FR", coupon: fixed(99_999n) });
    expect(q.ok && [q.value.discount.amount, q.value.net.amount, q.value.total.amount]).toEqual([
      1200n,
      0n,
      0n,
    ]);
  });

  it("reverse-charges an EU business in another member state than the seller", () => {
    const q = quoteOrder({
      ...base,
      currency: "USD",
      country: "FR",
      vatId: "fr 40 303 265 045",
      sellerCountry: "DE",
    });
    expect(q.ok && q.value).toMatchObject({ reverseCharge: true, taxRate: "0", vatId: "FR40303265045" });
    expect(q.ok && [q.value.tax.amount, q.value.total.amount]).toEqual([0n, 1200n]);
  });

  it("charges VAT in the seller's own country, without a seller country, or with a VAT ID of another country", () => {
    const same = quoteOrder({
      ...base,
      currency: "USD",
      country: "DE",
      vatId: "DE136695976",
      sellerCountry: "DE",
    });
    expect(same.ok && [same.value.reverseCharge, same.value.taxRate, same.value.tax.amount]).toEqual([
      false,
      "19",
      228n,
    ]);
    const noSeller = quoteOrder({ ...base, currency: "USD", country: "FR", vatId: "FR40303265045" });
    expect(noSeller.ok && [noSeller.value.reverseCharge, noSeller.value.vatId]).toEqual([
      false,
      "FR40303265045",
    ]);
    const mismatch = quoteOrder({
      ...base,
      currency: "USD",
      country: "DE",
      vatId: "FR40303265045",
      sellerCountry: "AT",
    });
    expect(mismatch.ok && mismatch.value.reverseCharge).toBe(false);
    const invalid = quoteOrder({
      ...base,
      currency: "USD",
      country: "FR",
      vatId: "FR40303265046",
      sellerCountry: "DE",
    });
    expect(invalid.ok && [invalid.value.reverseCharge, invalid.value.vatId]).toEqual([false, null]);
  });
});

describe("checkRedeemable", () => {
  const now = new Date("2026-11-28T10:00:00Z");
  const coupon: CouponRecord = {
    id: "c3",
    code: "LAUNCH",
    kind: "fixed",
    percentOff: null,
    duration: "once",
    durationPeriods: null,
    expiresAt: new Date("2026-12-31T00:00:00Z"),
    maxRedemptions: 3,
    redemptionCount: 2,
    active: true,
    amounts: { USD: 500n, EUR: 400n },
  };
  const ctx = { currency: "USD", now, usedByOrganization: false };
  it("accepts a coupon in one of its currencies", () => {
    expect(checkRedeemable("launch", coupon, ctx)).toEqual({
      ok: true,
      terms: { id: "c3", code: "LAUNCH", kind: "fixed", percentOff: null, amountMinor: 500n },
    });
  });
  it("refuses each bad case with its own message", () => {
    const refusal = (c: CouponRecord | null, more: Partial<typeof ctx> = {}) => {
      const r = checkRedeemable("launch", c, { ...ctx, ...more });
      return r.ok ? "ok" : `${r.code}: ${r.error}`;
    };
    expect(refusal(null)).toBe("unknown: There is no promotion code LAUNCH.");
    expect(refusal({ ...coupon, active: false })).toBe("inactive: The code LAUNCH is no longer active.");
    expect(refusal({ ...coupon, expiresAt: now })).toBe("expired: The code LAUNCH expired on 2026-11-28.");
    expect(refusal({ ...coupon, redemptionCount: 3 })).toBe(
      "exhausted: The code LAUNCH has been used as many times as it allows.",
    );
    expect(refusal(coupon, { currency: "JPY" })).toBe(
      "currency: The code LAUNCH cannot be used with JPY: it is for EUR, USD.",
    );
    expect(refusal(coupon, { usedByOrganization: true })).toBe(
      "used: Your organization has already used the code LAUNCH.",
    );
  });
  it("a percent coupon fits every currency", () => {
    const p = { ...coupon, kind: "percent" as const, percentOff: "10", amounts: {} };
    expect(checkRedeemable("LAUNCH", p, { ...ctx, currency: "JPY" }).ok).toBe(true);
  });
});

describe("codes and durations", () => {
  it("normalizes typed codes", () => {
    expect(normalizeCouponCode("  launch-2026 ")).toBe("LAUNCH-2026");
    expect(normalizeCouponCode("a")).toBeNull();
    expect(normalizeCouponCode("-ABC")).toBeNull();
    expect(normalizeCouponCode("HALF OFF")).toBeNull();
  });
  it("counts the charges a coupon discounts", () => {
    expect(couponPeriods("once", null)).toBe(1);
    expect(couponPeriods("repeating", 3)).toBe(3);
    expect(couponPeriods("forever", null)).toBeNull();
    expect(couponAfterCharge("c", 3, 1)).toEqual({ couponId: "c", discountPeriodsLeft: 2 });
    expect(couponAfterCharge("c", 3, 3)).toEqual({ couponId: null, discountPeriodsLeft: null });
    expect(couponAfterCharge("c", 1, 1)).toEqual({ couponId: null, discountPeriodsLeft: null });
    expect(couponAfterCharge("c", null, 7)).toEqual({ couponId: "c", discountPeriodsLeft: null });
  });
});
