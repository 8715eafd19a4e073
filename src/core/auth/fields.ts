import { z } from "zod";
import { MEMBER_ROLES } from "@/core/auth/roles";

// The field rules of the account and organization forms are defined once, in
// core/organizations/fields.ts: the features' form schemas use them, and
// src/server/auth/hardening.ts applies them to every Better Auth endpoint that writes the same
// data, so `/api/auth/*` cannot store what the forms refuse.
export {
  emailField,
  nameField,
  orgNameField,
  orgSlugField,
  passkeyNameField,
} from "@/core/organizations/fields";

export const orgRoleField = z.enum(MEMBER_ROLES, "Choose a role.");
