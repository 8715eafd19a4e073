import "server-only";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
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
  return runBillingClock(db, provider, await loadRateTable(db), at, {
    issuer: getEnv().APP_URL ?? "Abacus",
    seller: sellerDetails(),
  });
}
