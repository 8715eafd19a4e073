import { z } from "zod";
import { MESSAGE_MAX, MESSAGE_MIN } from "./constants";

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
