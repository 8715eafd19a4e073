import { z } from "zod";
import { MEMBER_ROLES } from "@/core/auth/roles";
import {
  createOrgSchema,
  orgNameField,
  orgSlugField,
  preferencesSchema,
  slugify,
} from "@/core/organizations/fields";

export { createOrgSchema, orgNameField, orgSlugField, preferencesSchema, slugify };

export const updateOrgSchema = z.object({ name: orgNameField, slug: orgSlugField });
export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter an email address.")
    .pipe(z.email("Enter a valid email address, like name@example.com."))
    .transform((v) => v.toLowerCase()),
  role: z.enum(MEMBER_ROLES, "Choose a role."),
});
export const memberRoleSchema = z.object({
  memberId: z.string().min(1),
  role: z.enum(MEMBER_ROLES, "Choose a role."),
});
export const idSchema = z.object({ id: z.string().min(1) });
export const deleteOrgSchema = z.object({ confirm: z.string() });
