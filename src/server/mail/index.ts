import "server-only";
import { getDb } from "../db/client";
import { getEnv } from "../env";
import { createMailer, type Mailer } from "./outbox";
import { createSmtpSender } from "./smtp";

const holder = globalThis as typeof globalThis & { __abacusMailer?: Mailer };

/** The instance's mailer: outbox always, SMTP when SMTP_URL is set, the terminal on a local instance. */
export function getMailer(): Mailer {
  if (holder.__abacusMailer) return holder.__abacusMailer;
  const env = getEnv();
  holder.__abacusMailer = createMailer(getDb(), {
    deliver: env.SMTP_URL ? createSmtpSender(env.SMTP_URL, env.MAIL_FROM) : undefined,
    // Written as is, for the person at the terminal: not a log record (the server's console output
    // becomes JSON log lines), and only on a local instance.
    announce: localMail() ? (line) => process.stdout.write(`${line}\n`) : undefined,
  });
  return holder.__abacusMailer;
}

/**
 * A local instance: the embedded database and no mail server. Nothing is delivered, so the links
 * and codes are printed in the terminal that started the app (never anywhere else: they are secrets).
 */
export function localMail(): boolean {
  const env = getEnv();
  return env.DATABASE_MODE === "embedded" && !env.SMTP_URL;
}
