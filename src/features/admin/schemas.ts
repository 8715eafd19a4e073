import { z } from "zod";
import { PLATFORM_ROLES } from "@/core/auth/roles";
import { isIsoDate, isPositiveRate, MAX_RATES_FILE_CHARS } from "@/core/money/rates";

/** Inputs of the admin actions; every one is validated here before anything runs. */

const id = z.string().trim().min(1, "Missing id").max(100);
const isoDate = z.string().trim().refine(isIsoDate, "Use a real date, YYYY-MM-DD");

export const userIdSchema = z.object({ userId: id });

export const setRoleSchema = z.object({ userId: id, role: z.enum(PLATFORM_ROLES) });

export const banSchema = z.object({
  userId: id,
  reason: z.string().trim().min(3, "Say why, in a few words").max(500, "At most 500 characters"),
  /** Optional last day of the ban (the ban ends at the end of that day, UTC); empty for no end. */
  until: z.union([z.literal(""), isoDate]).default(""),
});

export const deleteUserSchema = z.object({
  userId: id,
  confirm: z.string().trim().min(1, "Type the email address to confirm").max(320),
});

export const rateEditSchema = z.object({
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "A three-letter currency code"),
  rate: z.string().trim().refine(isPositiveRate, "A positive decimal such as 1.0842 (no sign, no exponent)"),
  date: isoDate,
});

export const rateFileSchema = z.object({
  kind: z.enum(["ecb-xml", "csv"]),
  text: z.string().max(MAX_RATES_FILE_CHARS, "The file is too large"),
  /** The date of a CSV file's rates when it has no date column. */
  date: z.union([z.literal(""), isoDate]).default(""),
});

export const contactHandledSchema = z.object({ id: z.uuid(), handled: z.boolean() });
