"use server";

import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import type { ContactResult } from "./constants";
import { submitContactMessage } from "./service";

export async function sendContactMessage(input: unknown): Promise<ContactResult> {
  return submitContactMessage(getDb(), input, {
    subject: await clientSubject(),
    limitPerHour: getEnv().CONTACT_RATE_LIMIT_PER_HOUR,
  });
}
