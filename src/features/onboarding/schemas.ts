import { z } from "zod";
import { BILLING_INTERVALS, PLAN_IDS } from "@/core/billing/plans";
import { isCurrencyCode } from "@/core/money/currencies";
import { nameField } from "@/core/organizations/fields";

export const profileSchema = z.object({ name: nameField });

export { preferencesSchema } from "@/core/organizations/fields";

export const planChoiceSchema = z.object({
  plan: z.enum(PLAN_IDS, "Choose a plan."),
  interval: z.enum(BILLING_INTERVALS).default("monthly"),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCurrencyCode, "Choose a currency from the list.")
    .optional(),
});

export const invitationIdSchema = z.object({
  invitationId: z.string().min(1, "That invitation link is incomplete."),
});
