import "server-only";
import { getDb } from "../db/client";
import { getEnv } from "../env";
import { createMailer, type Mailer } from "./outbox";
import { createSmtpSender } from "./smtp";

const holder = globalThis as typeof globalThis & { __abacusMailer?: Mailer };

/** The instance's mailer: outbox always, SMTP when SMTP_URL is set, console in development. */
export function getMailer(): Mailer {
  if (holder.__abacusMailer) return holder.__abacusMailer;
  const env = getEnv();
  holder.__abacusMailer = createMailer(getDb(), {
    deliver: env.SMTP_URL ? createSmtpSender(env.SMTP_URL, env.MAIL_FROM) : undefined,
    log: env.NODE_ENV === "development",
  });
  return holder.__abacusMailer;
}
