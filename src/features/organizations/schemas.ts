import { z } from "zod";

import { orgNameField, orgSlugField } from "@/core/auth/fields";

// The field rules live in core so that the Better Auth endpoints enforce them too.
export { orgNameField, orgSlugField };

export const createOrgSchema = z.object({ name: orgNameField, slug: orgSlugField });
export const updateOrgSchema = z.object({ name: orgNameField, slug: orgSlugField });
export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter an email address.")
    .pipe(z.email("Enter a valid email address, like name@example.com."))
    .transform((v) => v.toLowerCase()),
  role: z.enum(["member", "admin", "owner"], "Choose a role."),
});
export const memberRoleSchema = z.object({
  memberId: z.string().min(1),
  role: z.enum(["member", "admin", "owner"], "Choose a role."),
});
export const idSchema = z.object({ id: z.string().min(1) });
export const switchSchema = z.object({ organizationId: z.string().min(1) });
export const deleteOrgSchema = z.object({ confirm: z.string() });

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
