import { z } from "zod";

export const contactTopicOptions = [
  { value: "sales", label: "Sales" },
  { value: "support", label: "Support" },
  { value: "billing", label: "Billing" },
  { value: "other", label: "Something else" },
] as const;

export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

export const contactSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Your name can be at most 100 characters."),
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(254, "That email address is too long.")
    .pipe(z.email("Enter a valid email address, like name@example.com.")),
  topic: z.enum(["sales", "support", "billing", "other"], "Choose a topic."),
  message: z
    .string()
    .trim()
    .min(MESSAGE_MIN, `Your message needs at least ${MESSAGE_MIN} characters.`)
    .max(MESSAGE_MAX, `Your message can be at most ${MESSAGE_MAX} characters.`),
  // The honeypot: hidden from people, filled in by bots.
  website: z.string().max(500).optional().default(""),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactField = "name" | "email" | "topic" | "message";
export type ContactResult =
  | { ok: true }
  | { ok: false; error: string; fieldErrors?: Partial<Record<ContactField, string>> };
