import { z } from "zod";
import { emailField, nameField } from "@/core/organizations/fields";

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

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, "This reset link is incomplete.").max(200),
    newPassword: z.string().min(1, "Choose a new password.").max(128, "Use at most 128 characters."),
    confirmPassword: z.string().max(128),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "The two passwords do not match.",
  });

export const twoFactorSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Enter the code.")
    .max(40, "That code is too long.")
    .transform((value) => value.replace(/\s+/g, "")),
  method: z.enum(["totp", "backup"]).default("totp"),
  trustDevice: z.boolean().default(false),
  redirectUrl: z.string().max(2048).optional(),
});

export const passkeySignInSchema = z.object({
  response: z
    .record(z.string().max(64), z.unknown())
    .refine((v) => Object.keys(v).length <= 20, { message: "That passkey response is not valid." }),
  redirectUrl: z.string().max(2048).optional(),
});

export const confirmCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Enter the 6-digit code from the email.")
    .max(20, "That code is too long.")
    .transform((value) => value.replace(/\s+/g, ""))
    .refine((value) => /^\d{6}$/.test(value), "The code is 6 digits, like 123456."),
  redirectUrl: z.string().max(2048).optional(),
});

export const confirmLinkSchema = z.object({ token: z.string().min(1).max(200) });

export const emptySchema = z.object({});
