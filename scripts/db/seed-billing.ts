/**
 * The demo organization's paid Pro plan, paid through the app's own checkout with the offline test
 * provider: the order placed, the approving Visa test card charged and saved as the card on file,
 * then settled, which starts the subscription and issues the numbered invoice and its signed
 * receipt, exactly as for a customer. Run by `seed.mjs` in a child process (the app's server modules
 * need the `react-server` condition), with DATABASE_URL and ABACUS_DATA_DIR set, so the receipt is
 * signed with the instance's own key. Idempotent: an organization with a subscription is left as is.
 */
import { checkCard } from "@/core/billing/card";
import { processCheckout } from "@/features/billing/server/checkout";
import { sellerDetails } from "@/features/billing/server/seller";
import { getConnection, getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";

const [slug, ownerEmail] = process.argv.slice(2);
try {
  if (!slug || !ownerEmail) throw new Error("Usage: seed-billing.ts <organization slug> <owner email>");
  const { sql } = getConnection();
  const [org] = await sql<
    { id: string; name: string }[]
  >`select id, name from organization where slug = ${slug}`;
  const [owner] = await sql<{ id: string }[]>`select id from "user" where email = ${ownerEmail}`;
  const [existing] = org ? await sql`select 1 from subscriptions where organization_id = ${org.id}` : [];
  if (org && owner && !existing) {
    const now = new Date();
    const card = checkCard({ number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" }, now);
    if (!card.ok) throw new Error("The approving test card does not check");
    const db = getDb();
    const outcome = await processCheckout(
      db,
      createTestProvider(),
      await loadRateTable(db),
      {
        organization: { id: org.id, name: org.name },
        userId: owner.id,
        idempotencyKey: crypto.randomUUID(),
        plan: "pro",
        interval: "monthly",
        currency: "USD",
        billing: { name: org.name, country: "US", vatId: null },
        card: card.card,
        couponCode: null,
      },
      {
        now: () => now,
        issuer: getEnv().APP_URL ?? "Abacus",
        seller: sellerDetails(),
        sellerCountry: getEnv().SELLER_COUNTRY ?? null,
      },
    );
    if (outcome.status !== "paid") throw new Error(`The demo plan was not paid: ${JSON.stringify(outcome)}`);
  }
} finally {
  await getConnection().sql.end({ timeout: 5 });
}
