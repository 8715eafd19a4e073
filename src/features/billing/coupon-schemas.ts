import { z } from "zod";
import { COUPON_CODE_MAX_LENGTH, COUPON_CODE_PATTERN } from "@/core/billing/coupon";
import { COUPON_DURATIONS, COUPON_KINDS } from "@/core/billing/vocabulary";
import { parseMoney } from "@/core/money";
import type { NewCoupon } from "./server/coupons";

export const MAX_COUPON_CURRENCIES = 20;
export const MAX_DURATION_PERIODS = 120;
export const MAX_REDEMPTIONS = 1_000_000;

/** "USD 5.00, EUR 4.50" (commas, semicolons or new lines between) → currency → minor units. */
export function parseCouponAmounts(
  text: string,
): { ok: true; amounts: Record<string, bigint> } | { ok: false; error: string } {
  const parts = text
    .split(/[,;\n]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { ok: false, error: "Enter at least one amount, such as USD 5.00." };
  if (parts.length > MAX_COUPON_CURRENCIES) {
    return { ok: false, error: `Give at most ${MAX_COUPON_CURRENCIES} currencies.` };
  }
  const amounts: Record<string, bigint> = {};
  for (const part of parts) {
    const match = /^([A-Za-z]{3})\s*(\S+)$/.exec(part);
    if (!match?.[1] || !match[2])
      return { ok: false, error: `Write "${part}" as a currency code and an amount, such as USD 5.00.` };
    const currency = match[1].toUpperCase();
    if (Object.hasOwn(amounts, currency)) return { ok: false, error: `${currency} is given twice.` };
    const money = parseMoney(match[2], currency);
    if (!money.ok) return { ok: false, error: `${currency}: ${money.error.message}.` };
    if (money.value.amount <= 0n)
      return { ok: false, error: `${currency}: the amount must be more than zero.` };
    amounts[currency] = money.value.amount;
  }
  return { ok: true, amounts };
}

/** The admin's new-coupon form, as typed (every field a string); `toNewCoupon` checks the rest. */
export const couponFormSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Enter the code customers will type.")
    .max(COUPON_CODE_MAX_LENGTH, `A code has at most ${COUPON_CODE_MAX_LENGTH} characters.`)
    .transform((v) => v.toUpperCase())
    .refine(
      (v) => COUPON_CODE_PATTERN.test(v),
      "Use 2 to 40 letters, digits and dashes, starting with a letter or digit.",
    ),
  kind: z.enum(COUPON_KINDS, "Choose a percentage or a fixed amount."),
  percentOff: z.string().trim().max(20, "Use at most 20 characters."),
  amounts: z.string().trim().max(600, "Use at most 600 characters."),
  duration: z.enum(COUPON_DURATIONS, "Choose how long the discount lasts."),
  durationPeriods: z.string().trim().max(10, "Enter a whole number."),
  expiresOn: z.string().trim().max(10, "Enter a date as YYYY-MM-DD."),
  maxRedemptions: z.string().trim().max(10, "Enter a whole number."),
});
export type CouponFormValues = z.input<typeof couponFormSchema>;

type FieldErrors = Partial<Record<keyof CouponFormValues, string>>;

/** Checks what zod cannot see alone (dependent fields, exact decimals, dates) and builds the coupon. */
export function toNewCoupon(
  input: z.output<typeof couponFormSchema>,
  now: Date,
): { ok: true; coupon: NewCoupon } | { ok: false; fieldErrors: FieldErrors } {
  const errors: FieldErrors = {};
  let percentOff: string | null = null;
  let amounts: Record<string, bigint> = {};
  if (input.kind === "percent") {
    if (!/^\d{1,3}(\.\d{1,4})?$/.test(input.percentOff)) {
      errors.percentOff = "Enter a percentage such as 25 or 12.5 (at most 4 decimals).";
    } else if (Number(input.percentOff) <= 0 || Number(input.percentOff) > 100) {
      errors.percentOff = "A percentage is more than 0 and at most 100.";
    } else {
      percentOff = input.percentOff.replace(/^0+(?=\d)/, "");
    }
  } else {
    const parsed = parseCouponAmounts(input.amounts);
    if (parsed.ok) amounts = parsed.amounts;
    else errors.amounts = parsed.error;
  }
  let durationPeriods: number | null = null;
  if (input.duration === "repeating") {
    const n = /^\d{1,4}$/.test(input.durationPeriods) ? Number(input.durationPeriods) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_DURATION_PERIODS) {
      errors.durationPeriods = `Enter how many charges to discount, 1 to ${MAX_DURATION_PERIODS}.`;
    } else durationPeriods = n;
  }
  let expiresAt: Date | null = null;
  if (input.expiresOn) {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(input.expiresOn)
      ? new Date(`${input.expiresOn}T23:59:59.999Z`)
      : null;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== input.expiresOn) {
      errors.expiresOn = "Enter a date as YYYY-MM-DD.";
    } else if (date <= now) {
      errors.expiresOn = "The last day must be today or later.";
    } else expiresAt = date;
  }
  let maxRedemptions: number | null = null;
  if (input.maxRedemptions) {
    const n = /^\d{1,7}$/.test(input.maxRedemptions) ? Number(input.maxRedemptions) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_REDEMPTIONS) {
      errors.maxRedemptions = `Enter a whole number from 1 to ${MAX_REDEMPTIONS.toLocaleString("en-US")}, or leave it empty.`;
    } else maxRedemptions = n;
  }
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return {
    ok: true,
    coupon: {
      code: input.code,
      kind: input.kind,
      percentOff,
      amounts,
      duration: input.duration,
      durationPeriods,
      expiresAt,
      maxRedemptions,
    },
  };
}
