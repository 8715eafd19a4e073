import { z } from "zod";
import { emailField, nameField, passkeyNameField } from "@/core/organizations/fields";

export const nameSchema = z.object({ name: nameField });
export const emailSchema = z.object({ email: emailField });
export const passwordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password."),
    newPassword: z.string().min(1, "Choose a new password.").max(128, "Use at most 128 characters."),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "The two new passwords do not match.",
  });
export const sessionIdSchema = z.object({ sessionId: z.string().min(1) });
export const deleteAccountSchema = z.object({
  password: z.string().min(1, "Enter your password to confirm."),
  confirm: z.literal("DELETE", "Type DELETE to confirm."),
});
export const twoFactorPasswordSchema = z.object({
  password: z.string().min(1, "Enter your password.").max(128, "Use at most 128 characters."),
});
export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from your app."),
});
/** A WebAuthn response from the browser (its fields are checked by Better Auth's passkey plugin). */
export const webAuthnResponseField = z
  .record(z.string().max(64), z.unknown())
  .refine((v) => Object.keys(v).length <= 20, {
    message: "That passkey response is not valid.",
  });
export const addPasskeySchema = z.object({
  response: webAuthnResponseField,
  name: passkeyNameField.optional(),
});
export const passkeyIdSchema = z.object({ id: z.string().min(1).max(200) });
