import "server-only";
import { getEnv } from "../env";
import type { PaymentProvider } from "./provider";
import { createTestProvider } from "./test-provider";

let cached: PaymentProvider | undefined;

/** Stripe when STRIPE_SECRET_KEY is set, otherwise the offline test provider. */
export async function getPaymentProvider(): Promise<PaymentProvider> {
  if (cached) return cached;
  const env = getEnv();
  if (env.STRIPE_SECRET_KEY) {
    const { createStripeProvider } = await import("./stripe-provider");
    cached = createStripeProvider(env.STRIPE_SECRET_KEY);
  } else {
    cached = createTestProvider({ ledgerPath: env.TEST_PROVIDER_LEDGER });
  }
  return cached;
}

export type { PaymentProvider } from "./provider";
