import "server-only";
import type { z } from "zod";
import { plural } from "@/core/plural";
import { fieldErrorsOf, INVALID_INPUT_ERROR } from "@/server/action";
import type { Db } from "@/server/db/client";
import { contactMessages } from "@/server/db/schema";
import { consumeRateLimit } from "@/server/rate-limit";
import type { ContactField, ContactResult } from "./constants";
import { contactSchema } from "./schema";

type ContactInput = z.infer<typeof contactSchema>;

export const CONTACT_WINDOW_SECONDS = 60 * 60;

/**
 * Validates and stores a contact message. The rate-limit check and the insert share one
 * transaction, so a refused or failed message leaves nothing behind and does not count.
 */
export async function submitContactMessage(
  db: Db,
  raw: unknown,
  options: { subject: string; limitPerHour: number },
): Promise<ContactResult> {
  const parsed = contactSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<ContactField, string>> = {};
    for (const [key, message] of Object.entries(fieldErrorsOf(parsed.error))) {
      if (key in { name: 1, email: 1, topic: 1, message: 1 }) fieldErrors[key as ContactField] = message;
    }
    return { ok: false, error: INVALID_INPUT_ERROR, fieldErrors };
  }
  return storeContactMessage(db, parsed.data, options);
}

/** Stores an already validated message (the server action parses through the public wrapper). */
export async function storeContactMessage(
  db: Db,
  input: ContactInput,
  options: { subject: string; limitPerHour: number },
): Promise<ContactResult> {
  const { website, ...message } = input;
  if (website.trim() !== "") {
    // A bot filled in the hidden field: answer as if it worked, store nothing.
    return { ok: true, data: undefined };
  }
  return db.transaction(async (tx) => {
    const decision = await consumeRateLimit(
      tx,
      { bucket: "contact", limit: options.limitPerHour, windowSeconds: CONTACT_WINDOW_SECONDS },
      options.subject,
    );
    if (!decision.allowed) {
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      return {
        ok: false as const,
        error: `You have sent ${options.limitPerHour} messages in the last hour. Please try again in ${plural(minutes, "minute")}.`,
      };
    }
    await tx.insert(contactMessages).values(message);
    return { ok: true as const, data: undefined };
  });
}
