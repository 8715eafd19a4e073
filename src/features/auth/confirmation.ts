import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import { cookies } from "next/headers";
import {
  attemptIdFromCookie,
  CONFIRM_COOKIE,
  describeAttempt,
  describeConfirmationLink,
} from "@/server/auth/verification";
import { getDb } from "@/server/db/client";
import { mailOutbox } from "@/server/db/schema";
import { getEnv } from "@/server/env";
import { localMail } from "@/server/mail";
import { getSecrets } from "@/server/secrets";

/** Where this instance's mail goes, as the confirmation screens explain it. */
export type MailHint = "delivered" | "terminal" | "terminal-dev" | "outbox";

export function mailHint(): MailHint {
  const env = getEnv();
  if (localMail()) return env.NODE_ENV === "development" ? "terminal-dev" : "terminal";
  return env.SMTP_URL ? "delivered" : "outbox";
}

/** The confirmation this browser started (its signed cookie), if still open. */
export async function currentAttempt() {
  const raw = (await cookies()).get(CONFIRM_COOKIE)?.value;
  const id = attemptIdFromCookie(raw, getSecrets().authSecret);
  return id ? describeAttempt(getDb(), id) : null;
}

/** The address a confirmation link is for, or null when it is broken, used or expired. */
export function linkTarget(token: string) {
  return describeConfirmationLink(getDb(), token);
}

/**
 * In development on a local instance only: the newest mail to this browser's attempt address (the
 * code and link, or the "you already have an account" notice), as printed in the terminal.
 */
export async function localConfirmationMail() {
  if (mailHint() !== "terminal-dev") return null;
  const attempt = await currentAttempt();
  if (!attempt) return null;
  const [row] = await getDb()
    .select({ subject: mailOutbox.subject, text: mailOutbox.text })
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.to, attempt.email), inArray(mailOutbox.kind, ["verify-email", "account-exists"])),
    )
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return row ?? null;
}
