import { z } from "zod";
import { COUPON_CODE_MAX_LENGTH, COUPON_CODE_PATTERN } from "@/core/billing/coupon";
import { VAT_ID_MAX_LENGTH, validateVatId } from "@/core/billing/vat";

/** The checkout form. Card fields are checked in detail by `checkCard` (core); here only bounded. */
export const checkoutSchema = z.object({
  plan: z.enum(["pro", "team"], "Choose Pro or Team."),
  interval: z.enum(["monthly", "yearly"], "Choose monthly or yearly."),
  currency: z.string().regex(/^[A-Z]{3}$/, "Choose a currency."),
  name: z
    .string()
    .trim()
    .min(1, "Enter the name to put on the receipt.")
    .max(200, "Use at most 200 characters."),
  country: z.string().regex(/^[A-Z]{2}$/, "Choose your billing country."),
  vatId: z
    .string()
    .trim()
    .max(VAT_ID_MAX_LENGTH, `A VAT ID has at most ${VAT_ID_MAX_LENGTH} characters.`)
    .superRefine((value, ctx) => {
      if (value === "") return;
      const checked = validateVatId(value);
      if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.error });
    }),
  couponCode: z
    .string()
    .trim()
    .max(COUPON_CODE_MAX_LENGTH, `A promotion code has at most ${COUPON_CODE_MAX_LENGTH} characters.`)
    .transform((value) => value.toUpperCase())
    .refine(
      (value) => value === "" || COUPON_CODE_PATTERN.test(value),
      "A promotion code has letters, digits and dashes only.",
    )
    .optional()
    .default(""),
  cardNumber: z.string().max(40, "This is not a card number we recognise."),
  expiry: z.string().max(10, "Enter the expiry as MM/YY."),
  cvc: z.string().max(8, "Enter the security code."),
  idempotencyKey: z.uuid("Reload the page and try again."),
});

export type CheckoutValues = z.input<typeof checkoutSchema>;

/**
 * The checkout's "Apply" of a promotion code: the order's choices and the code, bounded like the
 * checkout's own. The VAT ID is only bounded here: one that does not validate is priced without.
 */
export const checkoutPreviewSchema = checkoutSchema
  .pick({ plan: true, interval: true, currency: true })
  .extend({
    country: z.string().regex(/^[A-Z]{2}$/, "Choose your billing country to see the tax."),
    vatId: z
      .string()
      .trim()
      .max(VAT_ID_MAX_LENGTH, `A VAT ID has at most ${VAT_ID_MAX_LENGTH} characters.`)
      .optional()
      .default(""),
    couponCode: z
      .string()
      .trim()
      .max(COUPON_CODE_MAX_LENGTH, `A promotion code has at most ${COUPON_CODE_MAX_LENGTH} characters.`)
      .transform((value) => value.toUpperCase())
      .refine((value) => value !== "", "Enter a promotion code.")
      .refine(
        (value) => value === "" || COUPON_CODE_PATTERN.test(value),
        "A promotion code has letters, digits and dashes only.",
      ),
  });

export const verifyReceiptBody = z.object({
  receipt: z.union([z.string().max(16_384, "The receipt is too large."), z.record(z.string(), z.unknown())], {
    error: "receipt must be the receipt's JSON (an object or its text)",
  }),
  signature: z.string({ error: "signature is required (base64)" }).max(200, "signature is too long"),
});
