import { z } from "zod";

import { emailField, nameField } from "@/core/auth/fields";

// The field rules live in core so that the Better Auth endpoints enforce them too.
export { emailField, nameField };

export const signInSchema = z.object({
  email: emailField,
  password: z.string().min(1, "Enter your password.").max(128, "Use at most 128 characters."),
  redirectUrl: z.string().max(2048).optional(),
});

export const signUpSchema = z.object({
  name: nameField,
  email: emailField,
  password: z.string().min(1, "Choose a password.").max(128, "Use at most 128 characters."),
  redirectUrl: z.string().max(2048).optional(),
});
