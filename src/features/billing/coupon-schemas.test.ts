import { describe, expect, it } from "vitest";
import { couponFormSchema, parseCouponAmounts, toNewCoupon } from "./coupon-schemas";

const now = new Date("2026-11-28T10:00:00Z");
const form = (over: Record<string, string> = {}) =>
  couponFormSchema.parse({
    code: "launch-26",
    kind: "percent",
    percentOff: "12.5",
    amounts: "",
    duration: "once",
    durationPeriods: "",
    expiresOn: "",
    maxRedemptions: "",
    ...over,
  });

describe("the new-coupon form", () => {
  it("builds a percent coupon with an upper-case code", () => {
    expect(toNewCoupon(form({ expiresOn: "2026-12-31", maxRedemptions: "50" }), now)).toEqual({
      ok: true,
      coupon: {
        code: "LAUNCH-26",
        kind: "percent",
        percentOff: "12.5",
        amounts: {},
        duration: "once",
        durationPeriods: null,
        expiresAt: new Date("2026-12-31T23:59:59.999Z"),
        maxRedemptions: 50,
      },
    });
  });

  it("parses fixed amounts per currency exactly", () => {
    expect(parseCouponAmounts("usd 5.00, EUR 4.5; JPY 700")).toEqual({
      ok: true,
      amounts: { USD: 500n, EUR: 450n, JPY: 700n },
    });
    expect(parseCouponAmounts("USD 5.001")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^USD: /),
    });
    expect(parseCouponAmounts("USD 5, USD 6")).toEqual({ ok: false, error: "USD is given twice." });
    expect(parseCouponAmounts("XYZ 5")).toMatchObject({ ok: false, error: expect.stringMatching(/^XYZ: /) });
    expect(parseCouponAmounts("five dollars")).toMatchObject({ ok: false });
    expect(parseCouponAmounts("")).toMatchObject({ ok: false });
    expect(parseCouponAmounts("USD 0")).toEqual({
      ok: false,
      error: "USD: the amount must be more than zero.",
    });
  });

  it("gives each bad field its own message", () => {
    const result = toNewCoupon(
      form({
        percentOff: "120",
        duration: "repeating",
        durationPeriods: "0",
        expiresOn: "2026-11-27",
        maxRedemptions: "-1",
      }),
      now,
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        percentOff: "A percentage is more than 0 and at most 100.",
        durationPeriods: "Enter how many charges to discount, 1 to 120.",
        expiresOn: "The last day must be today or later.",
        maxRedemptions: "Enter a whole number from 1 to 1,000,000, or leave it empty.",
      },
    });
    expect(toNewCoupon(form({ kind: "fixed", amounts: "" }), now)).toMatchObject({
      ok: false,
      fieldErrors: { amounts: expect.any(String) },
    });
    expect(toNewCoupon(form({ expiresOn: "2026-02-30" }), now)).toMatchObject({
      fieldErrors: { expiresOn: "Enter a date as YYYY-MM-DD." },
    });
    expect(couponFormSchema.safeParse({ ...form(), code: "a b" }).success).toBe(false);
  });
});
