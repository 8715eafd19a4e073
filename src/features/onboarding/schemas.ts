import { z } from "zod";
import { BILLING_INTERVALS, PLAN_IDS } from "@/core/billing/plans";
import { ROUNDING_MODES } from "@/core/decimal/rounding";
import { isCurrencyCode } from "@/core/money/currencies";
import { nameField } from "@/core/organizations/fields";

export const profileSchema = z.object({ name: nameField });

export const preferencesSchema = z.object({
  defaultCurrency: z.string().trim().toUpperCase().refine(isCurrencyCode, "Choose a currency from the list."),
  roundingMode: z.enum(ROUNDING_MODES, "Choose a rounding mode."),
  precision: z.coerce
    .number("Enter a whole number of digits.")
    .int("Enter a whole number of digits.")
    .min(1, "Use at least 1 significant digit.")
    .max(1000, "Use at most 1,000 significant digits."),
});

export const planChoiceSchema = z.object({
  plan: z.enum(PLAN_IDS, "Choose a plan."),
  interval: z.enum(BILLING_INTERVALS).default("monthly"),
});

export const invitationIdSchema = z.object({
  invitationId: z.string().min(1, "That invitation link is incomplete."),
});
