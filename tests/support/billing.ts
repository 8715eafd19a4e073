import { expect } from "vitest";
import { checkCard } from "@/core/billing/card";
import type { RateTable } from "@/core/money";
import { processCheckout } from "@/features/billing/server/checkout";
import type { Db } from "@/server/db/client";
import { member, organization } from "@/server/db/schema";
import { createTestProvider } from "@/server/payments/test-provider";

/**
 * An organization owned by `userId` on Pro monthly in USD, paid through the real checkout at `at` with
 * the test provider's approving card, which stays on file: what a billing clock test renews.
 */
export async function paidProOrganization(
  db: Db,
  rates: RateTable,
  org: { id: string; name: string; slug: string },
  userId: string,
  at: Date,
): Promise<void> {
  await db.insert(organization).values(org);
  await db.insert(member).values({ id: `m-${org.id}`, organizationId: org.id, userId, role: "owner" });
  const checked = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, at);
  if (!checked.ok) throw new Error("bad test card");
  const outcome = await processCheckout(
    db,
    createTestProvider(),
    rates,
    {
      organization: { id: org.id, name: org.name },
      userId,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "USD",
      billing: { name: `${org.name} LLC`, country: "US", vatId: null },
      card: checked.card,
    },
    { now: () => at },
  );
  expect(outcome).toMatchObject({ status: "paid" });
}
