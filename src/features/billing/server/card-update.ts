import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { CheckedCard } from "@/core/billing/card";
import type { RateTable } from "@/core/money";
import type { Db } from "@/server/db/client";
import { orders, paymentMethods } from "@/server/db/schema";
import type { PaymentProvider } from "@/server/payments/provider";
import { type RenewalOptions, type RenewalOutcome, retryPastDueNow } from "./renew";

export type CardUpdateOutcome =
  | {
      status: "saved";
      brand: string;
      last4: string;
      /** What charging a past-due renewal at once did (`skipped` when nothing was due). */
      retry: RenewalOutcome;
      /** The bank's reason when that charge was declined. */
      retryReason: string | null;
    }
  | { status: "declined"; reason: string }
  | { status: "unknown"; reason: string };

/**
 * Replaces the organization's card on file: the provider saves the card without charging it (the
 * card itself never reaches the database), then the `payment_methods` row keeps only the provider's
 * references, brand, last four and expiry. A refused card leaves the old card in place. When the
 * subscription is past due, the due renewal is charged at once to the new card.
 */
export async function updateCardOnFile(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  input: { organizationId: string; card: CheckedCard; idempotencyKey: string; at: Date },
  options: Omit<RenewalOptions, "retryNow"> = {},
): Promise<CardUpdateOutcome> {
  if (!provider.saveCard) return { status: "declined", reason: "This payment provider cannot save cards." };
  const [current] = await db
    .select({ provider: paymentMethods.provider, customerReference: paymentMethods.customerReference })
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, input.organizationId));
  const result = await provider.saveCard({
    card: input.card,
    organizationId: input.organizationId,
    // A customer made by another provider means nothing to this one.
    customerReference: current?.provider === provider.id ? (current.customerReference ?? null) : null,
    idempotencyKey: `${input.organizationId}:card:${input.idempotencyKey}`,
  });
  if (result.status === "declined") return { status: "declined", reason: result.reason };
  if (result.status === "unknown") return { status: "unknown", reason: result.reason };
  const row = {
    provider: provider.id,
    customerReference: result.saved.customerReference,
    methodReference: result.saved.methodReference,
    brand: result.saved.brand,
    last4: result.saved.last4,
    expMonth: result.saved.expMonth,
    expYear: result.saved.expYear,
    updatedAt: input.at,
  };
  await db
    .insert(paymentMethods)
    .values({ organizationId: input.organizationId, ...row })
    .onConflictDoUpdate({ target: paymentMethods.organizationId, set: row });
  const retry = await retryPastDueNow(db, provider, rates, input.organizationId, input.at, options);
  let retryReason: string | null = null;
  if (retry === "failed" || retry === "downgraded") {
    const [renewal] = await db
      .select({ reason: orders.failureReason })
      .from(orders)
      .where(and(eq(orders.organizationId, input.organizationId), eq(orders.kind, "renewal")))
      .orderBy(desc(orders.createdAt))
      .limit(1);
    retryReason = renewal?.reason ?? "The bank declined the card.";
  }
  return { status: "saved", brand: row.brand, last4: row.last4, retry, retryReason };
}
