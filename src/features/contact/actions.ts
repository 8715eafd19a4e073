"use server";

import { publicAction } from "@/server/action";
import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { contactSchema } from "./schema";
import { storeContactMessage } from "./service";

export const sendContactMessage = publicAction(contactSchema, async ({ input }) => {
  const result = await storeContactMessage(getDb(), input, {
    subject: await clientSubject(),
    limitPerHour: getEnv().CONTACT_RATE_LIMIT_PER_HOUR,
  });
  return result.ok ? { ok: true, data: undefined } : result;
});
