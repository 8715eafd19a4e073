import { z } from "zod";
import { TAX_COUNTRIES } from "@/core/billing/tax-rates";
import { checkVatId, VAT_ID_MAX_LENGTH } from "@/core/billing/vat";
import { MAX_CANCEL_REASON } from "./server/limits";

/** An immediate upgrade from the billing page; the key makes a double click or a retry charge once. */
export const changePlanSchema = z.object({
  plan: z.enum(["pro", "team"], "Choose Pro or Team."),
  interval: z.enum(["monthly", "yearly"], "Choose monthly or yearly."),
  idempotencyKey: z.uuid("Reload the page and try again."),
});

export const cancelPlanSchema = z.object({
  reason: z
    .string()
    .max(MAX_CANCEL_REASON, `Keep the reason to at most ${MAX_CANCEL_REASON} characters.`)
    .optional(),
});

/** The organization's billing details (`billing_profiles`). */
export const billingProfileSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Enter the name to put on invoices.")
      .max(200, "Use at most 200 characters."),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "Choose the billing country.")
      .refine((code) => TAX_COUNTRIES.includes(code), "Tax is not set up for that country."),
    address: z.string().trim().max(500, "Keep the address to at most 500 characters."),
    email: z
      .string()
      .trim()
      .max(254, "Use at most 254 characters.")
      .refine(
        (v) => v === "" || z.email().safeParse(v).success,
        "Enter an email address, or leave it empty.",
      ),
    vatId: z.string().trim().max(VAT_ID_MAX_LENGTH, `A VAT ID has at most ${VAT_ID_MAX_LENGTH} characters.`),
  })
  .superRefine((values, ctx) => {
    // Valid, and from the billing country: renewals take their tax treatment from these details.
    const problem = checkVatId(values.vatId, values.country);
    if (problem) ctx.addIssue({ code: "custom", path: ["vatId"], message: problem });
  });

export type BillingProfileValues = z.input<typeof billingProfileSchema>;

/** The card-update form. The card fields are checked in detail by `checkCard` (core); here only bounded. */
export const updateCardSchema = z.object({
  cardNumber: z.string().max(40, "This is not a card number we recognise."),
  expiry: z.string().max(10, "Enter the expiry as MM/YY."),
  cvc: z.string().max(8, "Enter the security code."),
  idempotencyKey: z.uuid("Reload the page and try again."),
});
