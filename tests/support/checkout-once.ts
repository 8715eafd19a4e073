/**
 * One checkout submit in a process of its own, for the crash-injection tests:
 * `node --conditions=react-server --import tsx tests/support/checkout-once.ts '<json>'` with
 * `{ organizationId, organizationName, userId, idempotencyKey, cardNumber, at }`. Prints the outcome
 * as one JSON line. Uses the app's own provider (`TEST_PROVIDER_LEDGER`) and database (`DATABASE_URL`).
 */
import { checkCard } from "@/core/billing/card";
import { processCheckout } from "@/features/billing/server/checkout";
import { getConnection, getDb } from "@/server/db/client";
import { loadRateTable } from "@/server/fx";
import { getPaymentProvider } from "@/server/payments";

const input = JSON.parse(process.argv[2] ?? "{}") as {
  organizationId: string;
  organizationName: string;
  userId: string;
  idempotencyKey: string;
  cardNumber: string;
  at: string;
};
const at = new Date(input.at);
const card = checkCard({ number: input.cardNumber, expiry: "12/30", cvc: "123" }, at);
if (!card.ok) throw new Error("Not a valid test card");
try {
  const db = getDb();
  const outcome = await processCheckout(
    db,
    await getPaymentProvider(),
    await loadRateTable(db),
    {
      organization: { id: input.organizationId, name: input.organizationName },
      userId: input.userId,
      idempotencyKey: input.idempotencyKey,
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      billing: { name: `${input.organizationName} GmbH`, country: "DE", vatId: null },
      card: card.card,
    },
    { now: () => at },
  );
  console.log(JSON.stringify(outcome));
} finally {
  await getConnection().sql.end({ timeout: 5 });
}
