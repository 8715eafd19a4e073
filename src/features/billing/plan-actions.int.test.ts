import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import type { ServerAction } from "@/server/action";
import { FORBIDDEN_ERROR } from "@/server/action";
import { billingProfiles, orders, subscriptions } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider } from "@/server/payments/test-provider";
import { createTestAuth, type SignedInOrganization, signedInOrganization } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import * as billingActions from "./actions";
import { processCheckout } from "./server/checkout";
import { createCoupon } from "./server/coupons";

// The billing page's actions run for real: a Better Auth session in the request's cookie, the
// membership re-read by the action wrapper, a real database and the offline test provider.

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let people: SignedInOrganization<"olga" | "adam" | "mia">;
const ORG = "org-billing";

type Answer = { ok: boolean; error?: string; fieldErrors?: Record<string, string>; message?: string };
const byName = new Map(Object.entries(billingActions));
const as =
  (key: string) =>
  (name: keyof typeof billingActions, input: unknown): Promise<Answer> =>
    (byName.get(name) as ServerAction<unknown>).using(people.environment(key))(input) as Promise<Answer>;

const sub = async () =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, ORG)))[0];
const profile = {
  name: "Billing GmbH",
  country: "DE",
  address: "Hauptstraße 1\n10115 Berlin",
  email: "invoices@example.com",
  vatId: "",
};

beforeAll(async () => {
  t = await createTestDatabase();
  people = await signedInOrganization(
    createTestAuth(t.db, { signInLimit: 1000 }),
    t.db,
    { id: ORG, name: "Billing", slug: "billing" },
    { olga: "owner", adam: "admin", mia: "member" },
  );
  const card = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, new Date());
  if (!card.ok) throw new Error("card");
  const paid = await processCheckout(t.db, createTestProvider(), await loadRateTable(t.db), {
    organization: { id: ORG, name: "Billing" },
    userId: people.ids.olga,
    idempotencyKey: crypto.randomUUID(),
    plan: "pro",
    interval: "monthly",
    currency: "EUR",
    billing: { name: "Billing GmbH", country: "DE", vatId: null },
    card: card.card,
  });
  expect(paid.status).toBe("paid");
});
afterAll(async () => {
  await t.drop();
});

describe("billing page actions", () => {
  it("refuse every change to a member, and write nothing", async () => {
    const mia = as("mia");
    const before = await sub();
    const profilesBefore = await t.db.select().from(billingProfiles);
    for (const [name, input] of [
      ["changePlanAction", { plan: "team", interval: "monthly", idempotencyKey: crypto.randomUUID() }],
      ["cancelPlanAction", { reason: "too dear" }],
      ["keepPlanAction", {}],
      ["downgradePlanAction", { plan: "pro" }],
      ["saveBillingProfileAction", profile],
    ] as const) {
      expect(await mia(name, input), name).toEqual({ ok: false, error: FORBIDDEN_ERROR });
    }
    expect(await sub()).toEqual(before);
    expect(await t.db.select().from(billingProfiles)).toEqual(profilesBefore);
    expect(await t.db.select().from(orders).where(eq(orders.kind, "proration"))).toHaveLength(0);
  });

  it("save the billing details for an admin, and name each bad field", async () => {
    const adam = as("adam");
    const profilesBefore = await t.db.select().from(billingProfiles);
    const bad = await adam("saveBillingProfileAction", {
      ...profile,
      name: " ",
      country: "XX",
      email: "nope",
    });
    expect(bad.ok).toBe(false);
    expect(Object.keys(bad.fieldErrors ?? {}).sort()).toEqual(["country", "email", "name"]);
    // A VAT ID with wrong check digits, or from another country than the billing country.
    const typo = await adam("saveBillingProfileAction", { ...profile, vatId: "DE123456789" });
    expect(typo.fieldErrors?.vatId).toMatch(/check digits/);
    const elsewhere = await adam("saveBillingProfileAction", { ...profile, vatId: "FR40303265045" });
    expect(elsewhere.fieldErrors?.vatId).toMatch(/This VAT ID is from France/);
    expect(await t.db.select().from(billingProfiles)).toEqual(profilesBefore);
    expect(await adam("saveBillingProfileAction", { ...profile, vatId: "de 136.695.976" })).toMatchObject({
      ok: true,
    });
    const [row] = await t.db.select().from(billingProfiles).where(eq(billingProfiles.organizationId, ORG));
    expect(row).toMatchObject({
      name: "Billing GmbH",
      country: "DE",
      vatId: "DE136695976",
      email: "invoices@example.com",
    });
  });

  it("cancel with a reason, resume, then upgrade with proration for the owner", async () => {
    const olga = as("olga");
    expect(await olga("cancelPlanAction", { reason: "x".repeat(501) })).toMatchObject({
      ok: false,
      fieldErrors: { reason: expect.stringMatching(/500/) },
    });
    expect(await olga("cancelPlanAction", { reason: "  Moving to a spreadsheet  " })).toMatchObject({
      ok: true,
    });
    expect(await sub()).toMatchObject({ cancelAtPeriodEnd: true, cancelReason: "Moving to a spreadsheet" });
    expect((await sub())?.canceledAt).toBeInstanceOf(Date);
    expect(await olga("keepPlanAction", {})).toMatchObject({ ok: true });
    expect(await sub()).toMatchObject({ cancelAtPeriodEnd: false, cancelReason: null, canceledAt: null });

    const same = await olga("changePlanAction", {
      plan: "pro",
      interval: "monthly",
      idempotencyKey: crypto.randomUUID(),
    });
    expect(same).toEqual({ ok: false, error: "The organization is already on Pro, billed monthly." });
    const up = await olga("changePlanAction", {
      plan: "team",
      interval: "monthly",
      idempotencyKey: crypto.randomUUID(),
    });
    expect(up).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Upgraded: \d+\.\d{2} EUR charged to the card on file\.$/),
    });
    expect(await sub()).toMatchObject({ plan: "team", interval: "monthly" });
    const [proration] = await t.db
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, ORG), eq(orders.kind, "proration")));
    expect(proration).toMatchObject({ status: "paid", userId: people.ids.olga });
  });

  it("name the subscription's coupon when it discounted the upgrade", async () => {
    const coupon = await createCoupon(
      t.db,
      {
        code: "ACTION-TENTH",
        kind: "percent",
        percentOff: "10",
        amounts: {},
        duration: "forever",
        durationPeriods: null,
        expiresAt: null,
        maxRedemptions: null,
      },
      null,
    );
    if (!coupon.ok) throw new Error(coupon.error);
    const ORG2 = "org-billing-coupon";
    const others = await signedInOrganization(
      createTestAuth(t.db, { signInLimit: 1000 }),
      t.db,
      { id: ORG2, name: "Coupon", slug: "billing-coupon" },
      { cora: "owner" },
    );
    const card = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, new Date());
    if (!card.ok) throw new Error("card");
    const paid = await processCheckout(t.db, createTestProvider(), await loadRateTable(t.db), {
      organization: { id: ORG2, name: "Coupon" },
      userId: others.ids.cora,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      billing: { name: "Coupon GmbH", country: "DE", vatId: null },
      card: card.card,
      couponCode: "ACTION-TENTH",
    });
    expect(paid.status).toBe("paid");
    const up = (await (byName.get("changePlanAction") as ServerAction<unknown>).using(
      others.environment("cora"),
    )({ plan: "team", interval: "monthly", idempotencyKey: crypto.randomUUID() })) as Answer;
    expect(up).toMatchObject({
      ok: true,
      message: expect.stringMatching(
        /^Upgraded: \d+\.\d{2} EUR charged to the card on file, with ACTION-TENTH applied\.$/,
      ),
    });
  });
});
