import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { FORBIDDEN_ERROR } from "@/server/action";
import { paymentMethods, subscriptions } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";
import { createTestAuth, type SignedInOrganization, signedInOrganization } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { updateCardAction } from "./card-actions";
import { processCheckout } from "./server/checkout";
import { runBillingClock } from "./server/renew";

// Replacing the card on file runs for real: a Better Auth session in the request's cookie, the
// membership re-read by the action wrapper, a real database and the offline test provider.

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let people: SignedInOrganization<"olga" | "adam" | "mia">;
const ORG = "org-cards";
// Approves the checkout, declines every later charge: the renewal fails and the org is past due.
const APPROVE_THEN_DECLINE = "4000000000000341";
const DECLINING = "4000000000000002";
const MASTERCARD = "5555555555554444";
const DAY = 86_400_000;

type Answer = { ok: boolean; error?: string; fieldErrors?: Record<string, string>; message?: string };
const as = (key: string) => (input: unknown) =>
  updateCardAction.using(people.environment(key))(input) as Promise<Answer>;
const form = (cardNumber: string) => ({
  cardNumber,
  expiry: "11/31",
  cvc: "321",
  idempotencyKey: crypto.randomUUID(),
});
const card = async () =>
  (await t.db.select().from(paymentMethods).where(eq(paymentMethods.organizationId, ORG)))[0];
const sub = async () =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, ORG)))[0];

/** Every row of every table in the database, as text. */
async function dump(): Promise<string> {
  const tables = await t.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await t.db.execute<{ row: string }>(
      sql`select row_to_json(x)::text as row from ${sql.identifier(name)} x`,
    );
    for (const { row } of rows) parts.push(row);
  }
  return parts.join("\n");
}

beforeAll(async () => {
  t = await createTestDatabase();
  people = await signedInOrganization(
    createTestAuth(t.db, { signInLimit: 1000 }),
    t.db,
    { id: ORG, name: "Cards", slug: "cards" },
    { olga: "owner", adam: "admin", mia: "member" },
  );
  const checked = checkCard({ number: APPROVE_THEN_DECLINE, expiry: "12/30", cvc: "123" }, new Date());
  if (!checked.ok) throw new Error("card");
  const paid = await processCheckout(t.db, createTestProvider(), await loadRateTable(t.db), {
    organization: { id: ORG, name: "Cards" },
    userId: people.ids.olga,
    idempotencyKey: crypto.randomUUID(),
    plan: "pro",
    interval: "monthly",
    currency: "EUR",
    billing: { name: "Cards GmbH", country: "DE", vatId: null },
    card: checked.card,
  });
  expect(paid.status).toBe("paid");
});
afterAll(async () => {
  await t.drop();
});

describe("updating the card on file", () => {
  it("is refused to a member, and the card stays", async () => {
    const before = await card();
    expect(await as("mia")(form(MASTERCARD))).toEqual({ ok: false, error: FORBIDDEN_ERROR });
    expect(await card()).toEqual(before);
  });

  it("names each bad field, and refuses a declining card with its reason, keeping the old card", async () => {
    const before = await card();
    expect(before).toMatchObject({ last4: "0341" });
    const bad = await as("olga")({ ...form("4242 4242 4242 4241"), expiry: "13/30", cvc: "1" });
    expect(bad.ok).toBe(false);
    expect(Object.keys(bad.fieldErrors ?? {}).sort()).toEqual(["cardNumber", "cvc", "expiry"]);
    const declined = await as("adam")(form(DECLINING));
    expect(declined).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The card was not saved: .*declined/i),
      fieldErrors: { cardNumber: expect.stringMatching(/declined/i) },
    });
    expect(await card()).toEqual(before);
  });

  it("charges a past-due renewal at once to the new card, which alone is kept", async () => {
    // The paid period ended yesterday; the renewal on the old card is declined: past due.
    const s = await sub();
    if (!s) throw new Error("no subscription");
    const shift = s.currentPeriodEnd.getTime() - (Date.now() - DAY);
    await t.db
      .update(subscriptions)
      .set({
        currentPeriodStart: new Date(s.currentPeriodStart.getTime() - shift),
        currentPeriodEnd: new Date(s.currentPeriodEnd.getTime() - shift),
      })
      .where(eq(subscriptions.organizationId, ORG));
    await runBillingClock(t.db, createTestProvider(), await loadRateTable(t.db), new Date());
    expect(await sub()).toMatchObject({ status: "past_due" });

    const answer = await as("olga")(form(` ${MASTERCARD.replace(/(\d{4})/g, "$1 ")}`));
    expect(answer).toMatchObject({
      ok: true,
      message: "Card saved (Mastercard ending in 4444). Paid: your plan is active again.",
    });
    expect(JSON.stringify(answer)).not.toContain(MASTERCARD);
    expect(await sub()).toMatchObject({ status: "active", plan: "pro" });
    expect((await sub())?.currentPeriodEnd.getTime()).toBeGreaterThan(Date.now());
    const row = await card();
    expect(row).toMatchObject({
      provider: "test",
      brand: "Mastercard",
      last4: "4444",
      expMonth: 11,
      expYear: 2031,
    });
    expect(row?.methodReference).toMatch(/^test_pm_approve_/);
    const all = await dump();
    expect(all).toContain("4444");
    for (const number of [MASTERCARD, DECLINING, APPROVE_THEN_DECLINE]) expect(all).not.toContain(number);
  });

  it("saves a card without a charge when nothing is due", async () => {
    const answer = await as("adam")(form("4242424242424242"));
    expect(answer).toMatchObject({ ok: true, message: "Card saved: Visa ending in 4242." });
    expect(await card()).toMatchObject({ brand: "Visa", last4: "4242" });
    expect(await sub()).toMatchObject({ status: "active" });
  });
});
