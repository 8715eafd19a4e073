import "server-only";
import type { Runner } from "graphile-worker";
import { appOrigin } from "@/server/auth";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { getMailer } from "@/server/mail";
import { getPaymentProvider } from "@/server/payments";
import { backfillInvoices } from "./invoices";
import { sellerDetails } from "./seller";
import { startBillingWorker } from "./worker";

// One worker per server process, kept across hot reloads in development.
const holder = globalThis as typeof globalThis & { __abacusBillingClock?: Promise<Runner | null> };

/**
 * Starts this instance's billing clock (unless BILLING_CLOCK=off). A failure to start is logged and
 * leaves the app serving: the other instances' clocks, or the next start, renew what is due.
 */
export function startBillingClock(): Promise<Runner | null> {
  holder.__abacusBillingClock ??= (async () => {
    const env = getEnv();
    // Orders paid before invoices existed get theirs, numbered by payment date, before the clock runs.
    await backfillInvoices(getDb()).catch((error) =>
      console.error("The invoice backfill did not finish:", error instanceof Error ? error.message : error),
    );
    if (env.BILLING_CLOCK === "off") return null;
    try {
      return await startBillingWorker(env.DATABASE_URL, {
        db: getDb(),
        provider: getPaymentProvider,
        rates: loadRateTable,
        receipt: () => ({ issuer: env.APP_URL ?? "Abacus", seller: sellerDetails() }),
        mail: () => ({ mailer: getMailer(), origin: appOrigin() }),
      });
    } catch (error) {
      console.error("The billing clock did not start:", error instanceof Error ? error.message : error);
      return null;
    }
  })();
  return holder.__abacusBillingClock;
}
