import { z } from "zod";
import { isCurrencyCode } from "../money/currencies";
import { ROUNDING_MODES } from "../rounding";

/**
 * Fields shared by every form about people and organizations (sign-up, profile, onboarding,
 * organization settings): one definition, one set of messages.
 */
export const emailField = z
  .string()
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like name@example.com."))
  .transform((value) => value.toLowerCase());

export const nameField = z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters.");

/** A passkey's label, as the profile's passkey form takes it. */
export const passkeyNameField = z.string().trim().max(60, "Use at most 60 characters.");

export const orgNameField = z
  .string()
  .trim()
  .min(1, "Enter the organization's name.")
  .min(2, "Use at least 2 characters.")
  .max(60, "Use at most 60 characters.");

export const orgSlugField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Choose a slug, such as acme-finance.")
  .min(2, "Use at least 2 characters.")
  .max(48, "Use at most 48 characters.")
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "Use lowercase letters, digits and single hyphens, like acme-finance.",
  );

export const createOrgSchema = z.object({ name: orgNameField, slug: orgSlugField });

/** An organization's calculator defaults, as onboarding and the organization's settings take them. */
export const preferencesSchema = z.object({
  defaultCurrency: z.string().trim().toUpperCase().refine(isCurrencyCode, "Choose a currency from the list."),
  roundingMode: z.enum(ROUNDING_MODES, "Choose a rounding mode."),
  precision: z.coerce
    .number("Enter a whole number of digits.")
    .int("Enter a whole number of digits.")
    .min(1, "Use at least 1 significant digit.")
    .max(1000, "Use at most 1,000 significant digits."),
});

/** A URL-safe slug from an organization's name, e.g. "Acme Finance, Ltd." → "acme-finance-ltd". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
}
