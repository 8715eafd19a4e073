import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocumentNumber } from "@/core/billing/invoice";
import { verifyReceipt } from "@/core/receipts/receipt";
import {
  coupons,
  documentSequences,
  invoiceLines,
  invoices,
  member,
  orders,
  organization,
  payments,
  receipts,
  user,
} from "@/server/db/schema";
import { createTestDatabase } from "../../../../tests/support/db";
import { backfillInvoices, canSeeInvoices, findInvoice, listInvoices, MAX_INVOICE_PAGE } from "./invoices";
import { lockOrganizationBilling, type OrderRow } from "./outcome";
import { currentSigningKey, publishedKeys, toReceiptKeys } from "./receipt-keys";
import { type SigningKey, settlePaid } from "./settle";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let key: SigningKey;
let counter = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  key = await currentSigningKey(t.db);
});
afterAll(async () => {
  await t.drop();
});

type Amounts = Partial<
  Pick<
    OrderRow,
    | "kind"
    | "subtotalMinor"
    | "creditMinor"
    | "discountMinor"
    | "netMinor"
    | "taxMinor"
    | "totalMinor"
    | "taxRate"
    | "reverseCharge"
    | "couponId"
    | "status"
    | "paidAt"
  >
>;

/** A new organization with one order (pending, with its payment attempt, unless said otherwise). */
async function order(amounts: Amounts = {}): Promise<OrderRow> {
  counter += 1;
  const id = `org-i${counter}`;
  await t.db.insert(organization).values({ id, name: `Invoiced ${counter}`, slug: `invoiced-${counter}` });
  const [row] = await t.db
    .insert(orders)
    .values({
      organizationId: id,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      subtotalMinor: 1900n,
      netMinor: 1900n,
      taxMinor: 361n,
      totalMinor: 2261n,
      taxRate: "19",
      taxTreatment: "exclusive",
      basePriceUsd: "20",
      fxRate: "0.95",
      billingName: `Invoiced ${counter} GmbH`,
      billingCountry: "DE",
      ...amounts,
    })
    .returning();
  if (!row) throw new Error("no order");
  await t.db.insert(payments).values({
    orderId: row.id,
    provider: "test",
    status: amounts.status === "paid" ? "succeeded" : "unknown",
    amountMinor: row.totalMinor,
    currency: row.currency,
    cardBrand: "visa",
    cardLast4: "4242",
  });
  return row;
}

function settle(row: OrderRow, paidAt: Date) {
  return t.db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, row.organizationId);
    return settlePaid(tx, row, `ref-${row.id}`, { key, paidAt });
  });
}

async function invoiceOf(orderId: string) {
  const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  return invoice;
}

async function linesSum(invoiceId: string): Promise<bigint> {
  const [row] = await t.db
    .select({ sum: sql<string>`coalesce(sum(${invoiceLines.amountMinor}), 0)::text` })
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId));
  return BigInt(row?.sum ?? "0");
}

async function lastValue(series: string): Promise<bigint | undefined> {
  const [row] = await t.db.select().from(documentSequences).where(eq(documentSequences.series, series));
  return row?.lastValue;
}

/** Waits (polling, no deadline of its own) until some backend waits on a lock. */
async function untilSomeoneWaitsOnALock(): Promise<void> {
  for (;;) {
    const rows = await t.sql`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("invoices issued when an order is paid", () => {
  it("numbers N concurrent settlements exactly 1..N, each receipt naming its invoice", async () => {
    const n = 24;
    const paidAt = new Date("2026-03-01T12:00:00Z");
    const rows = await Promise.all(Array.from({ length: n }, () => order()));
    const outcomes = await Promise.all(rows.map((row) => settle(row, paidAt)));
    expect(outcomes.every((o) => o.applied && o.outcome.status === "paid")).toBe(true);
    const issued = await t.db
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.orderId,
          rows.map((r) => r.id),
        ),
      );
    expect(issued).toHaveLength(n);
    const values = issued
      .map((i) => Number(parseDocumentNumber(i.number ?? "")?.value))
      .sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(new Set(issued.map((i) => i.number)).size).toBe(n);
    expect(await lastValue("INV-2026")).toBe(BigInt(n));
    for (const invoice of issued) {
      expect(invoice).toMatchObject({
        status: "paid",
        finalizedAt: paidAt,
        currency: "EUR",
        totalMinor: 2261n,
      });
      expect(await linesSum(invoice.id)).toBe(invoice.totalMinor);
    }
    // The signed receipt carries the invoice number and still verifies.
    const keys = toReceiptKeys(await publishedKeys(t.db));
    const signed = await t.db
      .select()
      .from(receipts)
      .where(
        inArray(
          receipts.orderId,
          rows.map((r) => r.id),
        ),
      );
    expect(signed).toHaveLength(n);
    for (const receipt of signed) {
      const verified = verifyReceipt(receipt.payload, receipt.signature, keys);
      expect(verified.valid).toBe(true);
      const invoice = issued.find((i) => i.orderId === receipt.orderId);
      expect(verified.valid && verified.receipt.invoiceNumber).toBe(invoice?.number);
    }
    // Settling again changes nothing and takes no number.
    const again = await settle(rows[0] as OrderRow, paidAt);
    expect(again.applied).toBe(false);
    expect(await lastValue("INV-2026")).toBe(BigInt(n));
  });

  it("gives back the number of a settlement that rolls back, to the settlement waiting behind it", async () => {
    const paidAt = new Date("2027-02-01T08:00:00Z");
    const first = await order();
    await settle(first, paidAt);
    expect((await invoiceOf(first.id))?.number).toBe("INV-2027-000001");

    const doomed = await order();
    const waiting = await order();
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let takenByDoomed: string | undefined;
    const rolledBack = t.db
      .transaction(async (tx) => {
        await settlePaid(tx, doomed, "ref-doomed", { key, paidAt });
        const [mine] = await tx.select().from(invoices).where(eq(invoices.orderId, doomed.id));
        takenByDoomed = mine?.number ?? undefined;
        holding();
        await released;
        throw new Error("the commit failed");
      })
      .catch((error: Error) => error.message);
    await held;
    expect(takenByDoomed).toBe("INV-2027-000002");
    // The second settlement queues on the series row while the first holds it.
    const second = settle(waiting, paidAt);
    await untilSomeoneWaitsOnALock();
    release();
    expect(await rolledBack).toBe("the commit failed");
    expect((await second).applied).toBe(true);

    expect(await invoiceOf(doomed.id)).toBeUndefined();
    const [doomedOrder] = await t.db.select().from(orders).where(eq(orders.id, doomed.id));
    expect(doomedOrder?.status).toBe("pending");
    expect((await invoiceOf(waiting.id))?.number).toBe("INV-2027-000002");
    expect(await lastValue("INV-2027")).toBe(2n);
    // The order that rolled back, settled again later, takes the next number: still no gap.
    await settle(doomed, paidAt);
    expect((await invoiceOf(doomed.id))?.number).toBe("INV-2027-000003");
  });

  it("writes lines that sum to the total for a proration, a discount and a reverse charge", async () => {
    const paidAt = new Date("2028-06-15T00:00:00Z");
    const [coupon] = await t.db
      .insert(coupons)
      .values({ code: "SPRING-10", kind: "percent", percentOff: "10", duration: "once" })
      .returning();
    const proration = await order({
      kind: "proration",
      subtotalMinor: 4117n,
      creditMinor: 1233n,
      netMinor: 2884n,
      taxMinor: 548n,
      totalMinor: 3432n,
    });
    const discounted = await order({
      discountMinor: 190n,
      netMinor: 1710n,
      taxMinor: 325n,
      totalMinor: 2035n,
      couponId: coupon?.id ?? null,
    });
    const reverse = await order({ taxMinor: 0n, totalMinor: 1900n, taxRate: "0", reverseCharge: true });
    for (const row of [proration, discounted, reverse]) await settle(row, paidAt);

    const lines = async (orderId: string) => {
      const invoice = await invoiceOf(orderId);
      if (!invoice) throw new Error("no invoice");
      expect(await linesSum(invoice.id)).toBe(invoice.totalMinor);
      return t.db
        .select()
        .from(invoiceLines)
        .where(eq(invoiceLines.invoiceId, invoice.id))
        .orderBy(asc(invoiceLines.position));
    };
    expect((await lines(proration.id)).map((l) => [l.kind, l.amountMinor])).toEqual([
      ["proration_charge", 4117n],
      ["proration_credit", -1233n],
      ["tax", 548n],
    ]);
    const discountLines = await lines(discounted.id);
    expect(discountLines.map((l) => [l.kind, l.amountMinor])).toEqual([
      ["plan", 1900n],
      ["discount", -190n],
      ["tax", 325n],
    ]);
    expect(discountLines[1]?.description).toContain("SPRING-10");
    const reverseLines = await lines(reverse.id);
    expect(reverseLines.at(-1)).toMatchObject({ kind: "tax", amountMinor: 0n });
    expect(reverseLines.at(-1)?.description).toContain("Reverse charge");
    const numbers = await t.db
      .select({ number: invoices.number })
      .from(invoices)
      .where(like(invoices.number, "INV-2028-%"))
      .orderBy(asc(invoices.number));
    expect(numbers.map((r) => r.number)).toEqual(["INV-2028-000001", "INV-2028-000002", "INV-2028-000003"]);
  });

  it("backfills orders paid before invoices existed, oldest first, once, with instances starting together", async () => {
    const paid = (at: string) => ({ status: "paid" as const, paidAt: new Date(at) });
    // Created in another order than paid; two calendar years.
    const late = await order(paid("2024-03-01T00:00:00Z"));
    const early = await order(paid("2023-12-31T23:59:59Z"));
    const middle = await order(paid("2024-01-15T00:00:00Z"));
    const first = await order(paid("2024-01-01T00:00:00Z"));
    const counts = await Promise.all([
      backfillInvoices(t.db, { batch: 2 }),
      backfillInvoices(t.db, { batch: 2 }),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
    expect((await invoiceOf(early.id))?.number).toBe("INV-2023-000001");
    expect((await invoiceOf(first.id))?.number).toBe("INV-2024-000001");
    expect((await invoiceOf(middle.id))?.number).toBe("INV-2024-000002");
    expect((await invoiceOf(late.id))?.number).toBe("INV-2024-000003");
    expect(await invoiceOf(late.id)).toMatchObject({ finalizedAt: new Date("2024-03-01T00:00:00Z") });
    // Nothing left: a later start issues nothing.
    expect(await backfillInvoices(t.db)).toBe(0);
    // Paid without a receipt (seeded or imported): listed, but with no signed file to offer.
    expect(await listInvoices(t.db, late.organizationId)).toMatchObject([{ signed: false }]);
    const all = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(like(invoices.number, "INV-2024-%")));
    expect(all[0]?.n).toBe(3);
  });

  it("finds an invoice by number with its lines and receipt, lists an organization's in pages, and checks who may see them", async () => {
    const paidAt = new Date("2029-05-01T00:00:00Z");
    const first = await order();
    await settle(first, paidAt);
    const second = await t.db
      .insert(orders)
      .values({
        ...first,
        id: undefined,
        idempotencyKey: crypto.randomUUID(),
        status: "pending",
        paidAt: null,
      })
      .returning();
    const row = second[0] as OrderRow;
    await t.db.insert(payments).values({
      orderId: row.id,
      provider: "test",
      status: "unknown",
      amountMinor: row.totalMinor,
      currency: "EUR",
      cardBrand: "visa",
      cardLast4: "4242",
    });
    await settle(row, new Date("2029-06-01T00:00:00Z"));

    const found = await findInvoice(t.db, "INV-2029-000001");
    expect(found).toMatchObject({
      number: "INV-2029-000001",
      organizationId: first.organizationId,
      totalMinor: 2261n,
    });
    expect(found?.lines.map((l) => l.kind)).toEqual(["plan", "tax"]);
    expect(JSON.parse(found?.receipt?.payload ?? "{}").invoiceNumber).toBe("INV-2029-000001");
    for (const bad of ["INV-2029-000099", "CN-2029-000001", "INV-2029-1", "'; drop table invoices; --"]) {
      expect(await findInvoice(t.db, bad)).toBeNull();
    }

    const page1 = await listInvoices(t.db, first.organizationId, { limit: 1 });
    expect(page1.map((i) => i.number)).toEqual(["INV-2029-000002"]);
    const settledOne = (await listInvoices(t.db, first.organizationId)).find(
      (i) => i.number === "INV-2029-000001",
    );
    expect(settledOne?.signed).toBe(true);
    const page2 = await listInvoices(t.db, first.organizationId, { limit: 1, after: page1[0]?.number });
    expect(page2.map((i) => i.number)).toEqual(["INV-2029-000001"]);
    expect(await listInvoices(t.db, first.organizationId, { limit: 1, after: "INV-2029-000001" })).toEqual(
      [],
    );
    // A cursor from another organization's invoice lists nothing; the limit is capped.
    expect(await listInvoices(t.db, "org-someone-else", { after: "INV-2029-000001" })).toEqual([]);
    expect((await listInvoices(t.db, first.organizationId, { limit: 10_000 })).length).toBeLessThanOrEqual(
      MAX_INVOICE_PAGE,
    );

    await t.db.insert(user).values([
      { id: "u-member", name: "M", email: "m@example.com", onboardingStep: "done" },
      { id: "u-other", name: "O", email: "x@example.com", onboardingStep: "done" },
    ]);
    await t.db
      .insert(member)
      .values({ id: "m-inv", organizationId: first.organizationId, userId: "u-member", role: "member" });
    expect(
      await canSeeInvoices(t.db, { userId: "u-member", isPlatformAdmin: false }, first.organizationId),
    ).toBe(true);
    expect(
      await canSeeInvoices(t.db, { userId: "u-other", isPlatformAdmin: false }, first.organizationId),
    ).toBe(false);
    expect(
      await canSeeInvoices(t.db, { userId: "u-other", isPlatformAdmin: true }, first.organizationId),
    ).toBe(true);
  });
});
