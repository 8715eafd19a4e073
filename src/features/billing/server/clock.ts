import "server-only";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { createMailer } from "@/server/mail/outbox";
import { createSmtpSender } from "@/server/mail/smtp";
import { getPaymentProvider } from "@/server/payments";
import { type ClockSummary, runBillingClock } from "./renew";
import { sellerDetails } from "./seller";

export class ClockRefused extends Error {}

/**
 * The test clock: runs every renewal due at `at` once, on this instance's database. Only with the
 * offline test provider: moving time forward against a real provider would charge real cards early.
 */
export async function runTestClock(at: Date): Promise<ClockSummary> {
  if (Number.isNaN(at.getTime()))
    throw new ClockRefused("--at must be an ISO 8601 instant, e.g. 2027-01-01T00:00:00Z");
  const provider = await getPaymentProvider();
  if (provider.id !== "test") {
    throw new ClockRefused(
      "The test clock runs only with the offline test provider (unset STRIPE_SECRET_KEY).",
    );
  }
  const db = getDb();
  const env = getEnv();
  // The dunning mails go to the outbox (and SMTP when set); their links go to stderr, never to
  // stdout, which carries the one-line summary.
  const mailer = createMailer(db, {
    deliver: env.SMTP_URL ? createSmtpSender(env.SMTP_URL, env.MAIL_FROM) : undefined,
    announce: (line) => process.stderr.write(`${line}\n`),
  });
  const summary = await runBillingClock(db, provider, await loadRateTable(db), at, {
    issuer: env.APP_URL ?? "Abacus",
    seller: sellerDetails(),
    // As the app's origin (`appOrigin`), without loading Better Auth into a command-line tool.
    mail: { mailer, origin: env.APP_URL ? new URL(env.APP_URL).origin : `http://localhost:${env.PORT}` },
  });
  await mailer.flush();
  return summary;
}
