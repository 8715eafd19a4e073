import { z } from "zod";

// The field rules of the account and organization forms, defined once: the features' form schemas
// use them, and src/server/auth/hardening.ts applies them to every Better Auth endpoint that writes
// the same data, so `/api/auth/*` cannot store what the forms refuse.

export const emailField = z
  .string()
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like name@example.com."))
  .transform((value) => value.toLowerCase());

export const nameField = z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters.");

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

export const ORG_MEMBER_ROLES = ["member", "admin", "owner"] as const;
export const orgRoleField = z.enum(ORG_MEMBER_ROLES, "Choose a role.");
