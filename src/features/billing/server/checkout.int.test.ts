import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CheckedCard, checkCard } from "@/core/billing/card";
import { TEST_CARDS } from "@/core/billing/test-cards";
import type { RateTable } from "@/core/money";
import { canonicalJson, verifyReceipt } from "@/core/receipts/receipt";
import * as schema from "@/server/db/schema";
import {
  member,
  orders,
  organization,
  paymentMethods,
  payments,
  receipts,
  subscriptions,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import type { PaymentProvider } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { MEMBER_HARD_CAP, memberLimitOf } from "@/server/plan-limits";
import { createTestDatabase } from "../../../../tests/support/db";
import { type CheckoutRequest, processCheckout } from "./checkout";
import { jwks, publishedKeys, receiptKeyOverview, rotateReceiptKey, toReceiptKeys } from "./receipt-keys";
import { cancelAtPeriodEnd, keepPlan, organizationPlan, scheduleDowngrade } from "./subscription";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rates: RateTable;
let orgCounter = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  rates = await loadRateTable(t.db);
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Olivia Owner", email: "o@example.com", onboardingStep: "done" });
});
afterAll(async () => {
  await t.drop();
});

async function newOrg() {
  orgCounter += 1;
  const id = `org-${orgCounter}`;
  await t.db.insert(organization).values({ id, name: `Acme ${orgCounter}`, slug: `acme-${orgCounter}` });
  await t.db
    .insert(member)
    .values({ id: `m-${orgCounter}`, organizationId: id, userId: "u1", role: "owner" });
  return { id, name: `Acme ${orgCounter}` };
}

function card(number: string): CheckedCard {
  const checked = checkCard(
    { number, expiry: "12/30", cvc: number.startsWith("37") ? "1234" : "123" },
    new Date("2026-11-23T00:00:00Z"),
  );
  if (!checked.ok) throw new Error(`bad test card ${number}`);
  return checked.card;
}

function request(org: { id: string; name: string }, over: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    organization: org,
    userId: "u1",
    idempotencyKey: crypto.randomUUID(),
    plan: "pro",
    interval: "monthly",
    currency: "JPY",
    billing: { name: "Acme KK", country: "JP", vatId: null },
    card: card("4242424242424242"),
    ...over,
  };
}

/** Wraps a provider and counts the charges it makes. */
function counting(inner: PaymentProvider) {
  const counter = { charges: 0 };
  const provider: PaymentProvider = {
    id: inner.id,
    charge: async (r) => {
      counter.charges += 1;
      return inner.charge(r);
    },
    chargeSaved: (r) => inner.chargeSaved(r),
  };
  return { provider, counter };
}

describe("every test card", () => {
  const expected: Record<string, { status: string; code?: string }> = {
    approve: { status: "paid" },
    approve_then_decline: { status: "paid" },
    slow_approve: { status: "paid" },
    decline: { status: "failed", code: "card_declined" },
    insufficient_funds: { status: "failed", code: "insufficient_funds" },
    expired_card: { status: "failed", code: "expired_card" },
    timeout: { status: "pending" },
  };
  for (const test of TEST_CARDS) {
    it(`${test.number} (${test.description})`, async () => {
      const org = await newOrg();
      const provider = counting(createTestProvider({ slowMs: 200 }));
      const req = request(org, { card: card(test.number) });
      const outcome = await processCheckout(t.db, provider.provider, rates, req);
      expect(outcome).toMatchObject(expected[test.outcome] ?? {});
      if (test.outcome === "timeout") {
        // Pending, no plan yet; the same key then gets the charge that went through: one charge.
        const [pending] = await t.db.select().from(orders).where(eq(orders.organizationId, org.id));
        expect(pending?.status).toBe("pending");
        expect(await organizationPlan(t.db, org.id)).toBe("free");
        expect(await processCheckout(t.db, provider.provider, rates, req)).toMatchObject({ status: "paid" });
        expect(provider.counter.charges).toBe(2);
        const pays = await t.db
          .select()
          .from(payments)
          .where(eq(payments.orderId, pending?.id ?? ""));
        expect(pays.map((p) => p.status)).toEqual(["succeeded"]);
      }
      const [order] = await t.db.select().from(orders).where(eq(orders.organizationId, org.id));
      // After its retry, the timeout card's order is paid like any approved one.
      expect(order?.status).toBe(test.outcome === "timeout" ? "paid" : expected[test.outcome]?.status);
      // 12 USD at the snapshot's rates: 1880 JPY + 10% = 188 JPY tax.
      expect([order?.netMinor, order?.taxMinor, order?.totalMinor]).toEqual([1880n, 188n, 2068n]);
      const [payment] = await t.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, order?.id ?? ""));
      expect(payment).toMatchObject({ cardBrand: test.brand, cardLast4: test.number.slice(-4) });
      if (order?.status === "failed") {
        expect(order.failureReason).toMatch(/card|funds|expired/i);
        expect(await organizationPlan(t.db, org.id)).toBe("free");
      } else {
        expect(order?.paidAt).toBeInstanceOf(Date);
        expect(await organizationPlan(t.db, org.id)).toBe("pro");
      }
    });
  }

  it("declines any other valid card number", async () => {
    const org = await newOrg();
    const outcome = await processCheckout(
      t.db,
      createTestProvider(),
      rates,
      request(org, { card: card("4111111111111111") }),
    );
    expect(outcome).toMatchObject({ status: "failed", code: "unknown_test_card" });
  });
});

describe("exactly once", () => {
  it("calls the provider with no transaction holding the organization's lock", async () => {
    const org = await newOrg();
    const probe = postgres(t.url, { max: 1, onnotice: () => {} });
    const inner = createTestProvider();
    const lockFree: boolean[] = [];
    const provider: PaymentProvider = {
      id: inner.id,
      charge: async (r) => {
        // What a webhook of this organization would do meanwhile: take its lock, without waiting.
        const [row] = await probe.begin(
          (tx) =>
            tx`select pg_try_advisory_xact_lock(hashtextextended(${`abacus:checkout:${org.id}`}, 0)) as free`,
        );
        lockFree.push(Boolean(row?.free));
        return inner.charge(r);
      },
      chargeSaved: (r) => inner.chargeSaved(r),
    };
    try {
      expect(await processCheckout(t.db, provider, rates, request(org))).toMatchObject({ status: "paid" });
    } finally {
      await probe.end();
    }
    expect(lockFree).toEqual([true]);
  });

  it("charges once for 20 concurrent submits of one key, across two app instances", async () => {
    const org = await newOrg();
    // A second pool on the same database stands in for a second app instance.
    const other = postgres(t.url, { max: 5, onnotice: () => {} });
    const otherDb = drizzle(other, { schema });
    const { provider, counter } = counting(createTestProvider({ slowMs: 300 }));
    const req = request(org, { card: card("4000000000003063") });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => processCheckout(i % 2 ? otherDb : t.db, provider, rates, req)),
      );
      expect(counter.charges).toBe(1);
      expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
      expect(outcomes[0]).toMatchObject({ status: "paid" });
      const rows = await t.db.select().from(orders).where(eq(orders.organizationId, org.id));
      expect(rows).toHaveLength(1);
      const pays = await t.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, rows[0]?.id ?? ""));
      expect(pays).toHaveLength(1);
    } finally {
      await other.end();
    }
  });

  it("shows a second tab (its own key) the order that is already paid, without charging", async () => {
    const org = await newOrg();
    const { provider, counter } = counting(createTestProvider());
    const first = await processCheckout(t.db, provider, rates, request(org));
    const second = await processCheckout(t.db, provider, rates, request(org));
    expect(counter.charges).toBe(1);
    expect(second).toMatchObject({
      status: "paid",
      orderId: (first as { orderId: string }).orderId,
      alreadyActive: true,
    });
  });

  it("keeps a decline as a failed order; a new key may then pay", async () => {
    const org = await newOrg();
    const failed = await processCheckout(
      t.db,
      createTestProvider(),
      rates,
      request(org, { card: card("4000000000000002") }),
    );
    expect(failed).toMatchObject({ status: "failed", code: "card_declined" });
    const paid = await processCheckout(t.db, createTestProvider(), rates, request(org));
    expect(paid).toMatchObject({ status: "paid" });
    const statuses = (await t.db.select().from(orders).where(eq(orders.organizationId, org.id))).map(
      (o) => o.status,
    );
    expect(statuses.sort()).toEqual(["failed", "paid"]);
  });
});

describe("the card number", () => {
  it("reaches neither the database nor a log", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "));
      }),
    );
    const failing: PaymentProvider = {
      id: "test",
      charge: async () => {
        throw new Error("provider exploded");
      },
      chargeSaved: async () => {
        throw new Error("provider exploded");
      },
    };
    try {
      const org = await newOrg();
      await processCheckout(
        t.db,
        createTestProvider(),
        rates,
        request(org, { card: card("5555555555554444") }),
      );
      const org2 = await newOrg();
      await processCheckout(t.db, failing, rates, request(org2, { card: card("378282246310005") }));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // Every row of every table, as text.
    const tables = await t.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public'`;
    let dump = "";
    for (const { table_name } of tables) {
      const rows = await t.sql.unsafe(`select t::text as row from "${table_name}" t`);
      dump += rows.map((r) => r.row).join("\n");
    }
    expect(dump).toContain("4444");
    for (const number of ["5555555555554444", "378282246310005", "555555555555", "37828224631"]) {
      expect(dump).not.toContain(number);
      expect(logged.join("\n")).not.toContain(number);
    }
    expect(logged.join("\n")).toContain("provider exploded");
  });
});

describe("receipts", () => {
  async function paidReceipt() {
    const org = await newOrg();
    const outcome = await processCheckout(t.db, createTestProvider(), rates, request(org), {
      issuer: "http://localhost:3000",
    });
    if (outcome.status !== "paid") throw new Error("not paid");
    const [row] = await t.db.select().from(receipts).where(eq(receipts.orderId, outcome.orderId));
    if (!row) throw new Error("no receipt");
    return row;
  }

  it("signs RFC 8785 canonical JSON that verifies against the published keys", async () => {
    const row = await paidReceipt();
    expect(row.payload).toBe(canonicalJson(JSON.parse(row.payload)));
    const payload = JSON.parse(row.payload);
    expect(payload).toMatchObject({
      type: "abacus.receipt",
      currency: "JPY",
      net: "1880",
      tax: "188",
      total: "2068",
      taxRate: "10",
      basePrice: { currency: "USD", amount: "12.00" },
      fx: { date: "2026-11-20" },
      payment: { brand: "Visa", last4: "4242" },
    });
    const keys = toReceiptKeys(await publishedKeys(t.db));
    expect(verifyReceipt(row.payload, row.signature, keys)).toMatchObject({ valid: true, kid: row.kid });
    // The parsed value verifies in its canonical form; re-indented text is refused, as by OpenSSL.
    expect(verifyReceipt(payload, row.signature, keys).valid).toBe(true);
    expect(verifyReceipt(JSON.stringify(payload, null, 2), row.signature, keys)).toMatchObject({
      valid: false,
      code: "not_canonical",
    });
  });

  it("refuses an altered or forged receipt", async () => {
    const row = await paidReceipt();
    const keys = toReceiptKeys(await publishedKeys(t.db));
    const altered = { ...JSON.parse(row.payload), total: "1" };
    expect(verifyReceipt(altered, row.signature, keys)).toMatchObject({
      valid: false,
      code: "bad_signature",
    });
    const { generateKeyPairSync, sign } = await import("node:crypto");
    const forger = generateKeyPairSync("ed25519");
    const forgedSig = sign(null, Buffer.from(canonicalJson(altered)), forger.privateKey).toString("base64");
    expect(verifyReceipt(altered, forgedSig, keys)).toMatchObject({ valid: false, code: "bad_signature" });
    expect(verifyReceipt({ ...altered, kid: "someone-else" }, forgedSig, keys)).toMatchObject({
      valid: false,
      code: "unknown_key",
    });
    expect(verifyReceipt("{not json", row.signature, keys)).toMatchObject({
      valid: false,
      code: "malformed",
    });
    expect(verifyReceipt(row.payload, "AAAA", keys)).toMatchObject({ valid: false, code: "malformed" });
  });

  it("keeps old receipts valid after a key rotation", async () => {
    const before = await paidReceipt();
    const rotated = await rotateReceiptKey(t.db);
    expect(rotated.kid).not.toBe(before.kid);
    const after = await paidReceipt();
    expect(after.kid).toBe(rotated.kid);
    const published = await publishedKeys(t.db);
    const set = jwks(published);
    expect(set.keys.find((k) => k.kid === before.kid)?.status).toBe("retired");
    expect(set.keys.find((k) => k.kid === rotated.kid)?.status).toBe("current");
    const keys = toReceiptKeys(published);
    expect(verifyReceipt(before.payload, before.signature, keys).valid).toBe(true);
    expect(verifyReceipt(after.payload, after.signature, keys).valid).toBe(true);
    // A receipt cannot borrow the other key's id.
    const swapped = { ...JSON.parse(before.payload), kid: after.kid };
    expect(verifyReceipt(swapped, before.signature, keys).valid).toBe(false);
  });

  it("lists the keys for the admin overview: the current one first, each with its receipts", async () => {
    const signed = await paidReceipt();
    const overview = await receiptKeyOverview(t.db);
    expect(overview[0]).toMatchObject({ kid: signed.kid, current: true, retiredAt: null });
    expect(overview.filter((k) => k.current)).toHaveLength(1);
    expect(overview.slice(1).every((k) => !k.current && k.retiredAt instanceof Date)).toBe(true);
    const [{ n } = { n: 0 }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from receipts where kid = ${signed.kid}`;
    expect(overview[0]?.receipts).toBe(n);
    expect(overview.reduce((sum, k) => sum + k.receipts, 0)).toBe(
      (await t.db.select().from(receipts)).length,
    );
  });

  it("verifies with the OpenSSL command the docs give", async () => {
    const row = await paidReceipt();
    const key = (await publishedKeys(t.db)).find((k) => k.kid === row.kid);
    const docs = readFileSync(path.join(process.cwd(), "content/docs/610-receipts.md"), "utf8");
    const block = /<!-- openssl-verify -->\s*```sh\n([\s\S]*?)```/.exec(docs)?.[1] ?? "";
    const commands = block.split("\n").filter((line) => line.startsWith("openssl "));
    expect(commands.length).toBeGreaterThan(0);
    const dir = mkdtempSync(path.join(tmpdir(), "abacus-receipt-"));
    try {
      writeFileSync(path.join(dir, "receipt.json"), row.payload);
      writeFileSync(path.join(dir, "receipt.sig"), Buffer.from(row.signature, "base64"));
      writeFileSync(path.join(dir, "receipt-key.pem"), key?.publicKeyPem ?? "");
      for (const command of commands) {
        const out = execFileSync("/bin/sh", ["-c", command], { cwd: dir, encoding: "utf8" });
        expect(out).toMatch(/Signature Verified Successfully/);
      }
      // The same command refuses an altered file.
      writeFileSync(path.join(dir, "receipt.json"), row.payload.replace('"total":"2068"', '"total":"2067"'));
      expect(() =>
        execFileSync("/bin/sh", ["-c", commands[0] ?? "false"], { cwd: dir, stdio: "pipe" }),
      ).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("downgrade and cancel at period end", () => {
  it("keeps the paid plan until the period ends", async () => {
    const org = await newOrg();
    await processCheckout(
      t.db,
      createTestProvider(),
      rates,
      request(org, {
        plan: "team",
        currency: "EUR",
        billing: { name: "Acme GmbH", country: "DE", vatId: "DE136695976" },
      }),
    );
    expect(await organizationPlan(t.db, org.id)).toBe("team");
    expect(await scheduleDowngrade(t.db, org.id, "pro")).toMatchObject({
      ok: true,
      subscription: { scheduledPlan: "pro" },
    });
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, org.id));
    const end = sub?.currentPeriodEnd ?? new Date();
    expect(await organizationPlan(t.db, org.id)).toBe("team");
    // The downgrade is what a renewal would charge; unrenewed, the period ends on Free.
    expect(await organizationPlan(t.db, org.id, end)).toBe("free");
    expect(await cancelAtPeriodEnd(t.db, org.id)).toMatchObject({
      ok: true,
      subscription: { cancelAtPeriodEnd: true, scheduledPlan: null },
    });
    expect(await organizationPlan(t.db, org.id, end)).toBe("free");
    expect(await cancelAtPeriodEnd(t.db, org.id)).toMatchObject({ ok: false });
    expect(await keepPlan(t.db, org.id)).toMatchObject({
      ok: true,
      subscription: { cancelAtPeriodEnd: false },
    });
    expect(await organizationPlan(t.db, org.id, new Date(end.getTime() - 1))).toBe("team");
    const free = await newOrg();
    expect(await cancelAtPeriodEnd(t.db, free.id)).toMatchObject({ ok: false });
    await t.db.execute(sql`select 1`);
  });
});

describe("a period that ends unpaid", () => {
  it("keeps no paid limits once it is over", async () => {
    const org = await newOrg();
    await processCheckout(t.db, createTestProvider(), rates, request(org, { plan: "team" }));
    expect(await organizationPlan(t.db, org.id)).toBe("team");
    expect(await memberLimitOf(t.db, org.id)).toBe(MEMBER_HARD_CAP);
    // The period ended a second ago and nothing renewed it.
    await t.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.organizationId, org.id));
    expect(await organizationPlan(t.db, org.id)).toBe("free");
    expect(await memberLimitOf(t.db, org.id)).toBe(1);
  });
});

describe("financial records", () => {
  it("outlive the organization and the user that paid: revenue does not change", async () => {
    await t.db
      .insert(user)
      .values({ id: "u-leaver", name: "Lea Leaver", email: "lea@example.com", onboardingStep: "done" });
    const org = await newOrg();
    const paid = await processCheckout(t.db, createTestProvider(), rates, {
      ...request(org, { billing: { name: "Leaver KK", country: "JP", vatId: null } }),
      userId: "u-leaver",
    });
    if (paid.status !== "paid") throw new Error(`expected a paid order, got ${paid.status}`);
    const revenue = async () =>
      (
        await t.db.execute<{ total: string }>(
          sql`select coalesce(sum(total_minor), 0)::text as total from orders where status = 'paid'`,
        )
      )[0]?.total;
    const before = await revenue();

    await t.db.delete(organization).where(eq(organization.id, org.id));
    await t.db.delete(user).where(eq(user.id, "u-leaver"));

    const [order] = await t.db.select().from(orders).where(eq(orders.id, paid.orderId));
    expect(order).toMatchObject({
      status: "paid",
      organizationId: org.id,
      billingName: "Leaver KK",
      userId: null,
    });
    expect(await t.db.select().from(payments).where(eq(payments.orderId, paid.orderId))).toHaveLength(1);
    const [receipt] = await t.db.select().from(receipts).where(eq(receipts.orderId, paid.orderId));
    expect(receipt?.receiptNumber).toBe(paid.receiptNumber);
    const keys = toReceiptKeys(await publishedKeys(t.db));
    expect(verifyReceipt(receipt?.payload ?? "", receipt?.signature ?? "", keys).valid).toBe(true);
    expect(await revenue()).toBe(before);
    // A record is never deleted by accident either: payments and receipts hold their order.
    await expect(t.db.delete(orders).where(eq(orders.id, paid.orderId))).rejects.toThrow();
  });
});

describe("the card on file", () => {
  async function cardOnFile(orgId: string) {
    const [row] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.organizationId, orgId));
    return row;
  }
  const later = (token: string, key: string) => ({
    amount: { amount: 2068n, currency: "JPY" },
    card: { customerReference: null, methodReference: token },
    idempotencyKey: key,
    description: "Abacus Pro (monthly) renewal",
    metadata: {},
  });

  it("is kept at checkout as brand, last four, expiry and a token that charges it later", async () => {
    const org = await newOrg();
    const provider = createTestProvider();
    await processCheckout(t.db, provider, rates, request(org, { card: card("5555555555554444") }));
    const saved = await cardOnFile(org.id);
    expect(saved).toMatchObject({
      provider: "test",
      brand: "Mastercard",
      last4: "4444",
      expMonth: 12,
      expYear: 2030,
    });
    expect(saved?.methodReference).toMatch(/^test_pm_/);
    expect(saved?.methodReference).not.toContain("5555555555554444");
    // Another instance (a new provider object) charges the token; the same key answers the same.
    const other = createTestProvider();
    const first = await other.chargeSaved(later(saved?.methodReference ?? "", "renew:1"));
    expect(first).toMatchObject({ status: "succeeded" });
    expect(await other.chargeSaved(later(saved?.methodReference ?? "", "renew:1"))).toEqual(first);
  });

  it("of the approve-then-decline test card pays at checkout and declines later charges", async () => {
    const org = await newOrg();
    const provider = createTestProvider();
    expect(
      await processCheckout(t.db, provider, rates, request(org, { card: card("4000000000000341") })),
    ).toMatchObject({ status: "paid" });
    const saved = await cardOnFile(org.id);
    expect(saved).toMatchObject({ brand: "Visa", last4: "0341" });
    expect(await provider.chargeSaved(later(saved?.methodReference ?? "", "renew:2"))).toMatchObject({
      status: "declined",
      code: "card_declined",
    });
  });

  it("is not kept from a declined checkout, and a later checkout replaces it", async () => {
    const org = await newOrg();
    const provider = createTestProvider();
    await processCheckout(t.db, provider, rates, request(org, { card: card("4000000000000002") }));
    expect(await cardOnFile(org.id)).toBeUndefined();
    await processCheckout(t.db, provider, rates, request(org, { card: card("4242424242424242") }));
    expect(await cardOnFile(org.id)).toMatchObject({ last4: "4242" });
    await processCheckout(
      t.db,
      provider,
      rates,
      request(org, { plan: "team", card: card("378282246310005") }),
    );
    expect(await cardOnFile(org.id)).toMatchObject({ brand: "American Express", last4: "0005" });
  });
});
