import { verify } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditNotes, invoices, orders, organization, payments, receiptKeys } from "@/server/db/schema";
import type { PaymentProvider, RefundRequest } from "@/server/payments/provider";
import { createTestProvider } from "@/server/payments/test-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { findInvoice, revenueSummary, searchInvoices } from "./invoices";
import { lockOrganizationBilling } from "./outcome";
import { currentSigningKey } from "./receipt-keys";
import { REFUND_RETRY_AFTER_MS, refundInvoice, retryPendingRefunds } from "./refunds";
import { type SigningKey, settlePaid } from "./settle";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let key: SigningKey;
let counter = 0;
const NOW = new Date("2026-06-01T12:00:00Z");

beforeAll(async () => {
  t = await createTestDatabase();
  key = await currentSigningKey(t.db);
});
afterAll(() => t.drop());

/** A paid invoice of 22.61 EUR (19.00 net + 3.61 tax), paid with a test charge. */
async function paidInvoice(): Promise<string> {
  counter += 1;
  const orgId = `org-rf${counter}`;
  await t.db.insert(organization).values({ id: orgId, name: `Refund ${counter}`, slug: `refund-${counter}` });
  const [order] = await t.db
    .insert(orders)
    .values({
      organizationId: orgId,
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
      billingName: `Refund ${counter} GmbH`,
      billingCountry: "DE",
    })
    .returning();
  if (!order) throw new Error("no order");
  await t.db.insert(payments).values({
    orderId: order.id,
    provider: "test",
    status: "unknown",
    amountMinor: 2261n,
    currency: "EUR",
    cardBrand: "visa",
    cardLast4: "4242",
  });
  await t.db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, orgId);
    await settlePaid(tx, order, `test_ch_${order.id.replace(/-/g, "")}`, { key, paidAt: NOW });
  });
  const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orderId, order.id));
  return invoice?.number ?? "";
}

const refund = (
  provider: PaymentProvider,
  invoiceNumber: string,
  amount: string,
  reason = "Customer asked",
) => refundInvoice(t.db, provider, { invoiceNumber, amount, reason, userId: null }, { key, now: () => NOW });

async function notesOf(invoiceNumber: string) {
  return t.db
    .select({ note: creditNotes })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(eq(invoices.number, invoiceNumber))
    .then((rows) => rows.map((r) => r.note));
}

describe("refunds and credit notes", () => {
  it("refunds part, then the rest, each as a signed credit note numbered in its own series", async () => {
    const number = await paidInvoice();
    const provider = createTestProvider();
    const first = await refund(provider, number, "10.00");
    expect(first).toEqual({
      ok: true,
      data: { status: "issued", creditNoteNumber: "CN-2026-000001", total: "10.00", currency: "EUR" },
    });
    const second = await refund(provider, number, "12.61");
    expect(second.ok && second.data).toMatchObject({ status: "issued", creditNoteNumber: "CN-2026-000002" });
    const notes = await notesOf(number);
    // The tax share of each refund, rounded once: 10.00 × 361/2261 = 1.5966… → 1.60; the rest the remainder.
    expect(
      notes.map((n) => [n.totalMinor, n.netMinor, n.taxMinor]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1000n, 840n, 160n],
      [1261n, 1060n, 201n],
    ]);
    // The signed credit note verifies with the receipt key's public half.
    const [pem] = await t.db.select().from(receiptKeys).where(eq(receiptKeys.kid, key.kid));
    for (const note of notes) {
      expect(
        verify(
          null,
          Buffer.from(note.payload ?? ""),
          pem?.publicKeyPem ?? "",
          Buffer.from(note.signature ?? "", "base64"),
        ),
      ).toBe(true);
      expect(JSON.parse(note.payload ?? "{}")).toMatchObject({
        type: "abacus.credit-note",
        invoiceNumber: number,
      });
    }
    // Nothing is left: a cent more is refused with what is left, and nothing is written.
    const more = await refund(provider, number, "0.01");
    expect(more).toMatchObject({
      ok: false,
      error:
        "At most 0.00 EUR can be refunded: 22.61 EUR was paid and 22.61 EUR is refunded or being refunded.",
    });
    expect(await notesOf(number)).toHaveLength(2);
  });

  it("refuses bad amounts and reasons with specific messages, writing nothing", async () => {
    const number = await paidInvoice();
    const provider = createTestProvider();
    expect(await refund(provider, number, "22.62")).toMatchObject({
      ok: false,
      error:
        "At most 22.61 EUR can be refunded: 22.61 EUR was paid and 0.00 EUR is refunded or being refunded.",
    });
    expect(await refund(provider, number, "1.005")).toMatchObject({
      ok: false,
      fieldErrors: { amount: expect.any(String) },
    });
    expect(await refund(provider, number, "abc")).toMatchObject({
      ok: false,
      fieldErrors: { amount: expect.any(String) },
    });
    expect(await refund(provider, number, "0")).toMatchObject({
      ok: false,
      error: "The amount must be more than zero.",
    });
    expect(await refund(provider, number, "1", "  ")).toMatchObject({
      ok: false,
      error: "Give a reason for the refund.",
    });
    expect(await refund(provider, "INV-2026-999999", "1")).toMatchObject({ ok: false, code: "not_found" });
    expect(await notesOf(number)).toHaveLength(0);
  });

  it("never refunds more than was paid when admins refund at the same time", async () => {
    const number = await paidInvoice();
    const provider = createTestProvider();
    const results = await Promise.all(Array.from({ length: 6 }, () => refund(provider, number, "5.00")));
    const issued = results.filter((r) => r.ok && r.data.status === "issued");
    expect(issued).toHaveLength(4);
    expect(results.filter((r) => !r.ok && r.code === "too_much")).toHaveLength(2);
    const notes = await notesOf(number);
    expect(notes.reduce((sum, n) => sum + n.totalMinor, 0n)).toBe(2000n);
  });

  it("issues no number for a refund the provider refuses, and keeps an unanswered one pending and reserved", async () => {
    const number = await paidInvoice();
    const seen: RefundRequest[] = [];
    const refusing: PaymentProvider = {
      ...createTestProvider(),
      refund: async (r) => {
        seen.push(r);
        return { status: "failed", code: "charge_disputed", reason: "The charge is disputed." };
      },
    };
    const before = await t.db.select().from(creditNotes).where(eq(creditNotes.status, "issued"));
    expect(await refund(refusing, number, "5.00")).toEqual({
      ok: true,
      data: { status: "failed", code: "charge_disputed", reason: "The charge is disputed." },
    });
    const silent: PaymentProvider = {
      ...createTestProvider(),
      refund: async () => {
        throw new Error("socket hang up");
      },
    };
    expect(await refund(silent, number, "20.00")).toMatchObject({ ok: true, data: { status: "pending" } });
    const notes = await notesOf(number);
    expect(notes.map((n) => [n.status, n.number]).sort()).toEqual([
      ["failed", null],
      ["pending", null],
    ]);
    // The pending 20.00 stays reserved: only 2.61 is left.
    expect(await refund(createTestProvider(), number, "2.62")).toMatchObject({ ok: false, code: "too_much" });
    const after = await t.db.select().from(creditNotes).where(eq(creditNotes.status, "issued"));
    expect(after.length).toBe(before.length);
    // Each credit note has its own idempotency key, sent to the provider.
    expect(seen[0]?.idempotencyKey).toMatch(new RegExp(`^${number}:cn:`));
    const failedNote = notes.find((n) => n.status === "failed");
    expect(failedNote).toMatchObject({ failureCode: "charge_disputed" });
    const [stillPaid] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.number, number), eq(invoices.status, "paid")));
    expect(stillPaid).toBeDefined();
  });

  it("asks the provider again about an unanswered refund, once it is old enough, and settles it once", async () => {
    const number = await paidInvoice();
    const silent: PaymentProvider = {
      ...createTestProvider(),
      refund: async () => {
        throw new Error("socket hang up");
      },
    };
    expect(await refund(silent, number, "7.00")).toMatchObject({ ok: true, data: { status: "pending" } });
    const [pending] = await notesOf(number);
    const inner = createTestProvider();
    const asked: string[] = [];
    const answering: PaymentProvider = {
      ...inner,
      refund: async (r) => {
        asked.push(r.idempotencyKey);
        return inner.refund?.(r) ?? { status: "unknown", reason: "no refund" };
      },
    };
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    // Too young: a live request may still be waiting for the provider's answer.
    await retryPendingRefunds(t.db, answering, { key, now: at(REFUND_RETRY_AFTER_MS - 1000) });
    expect(asked).not.toContain(pending?.idempotencyKey);
    // Two instances at once: the same key twice, one credit note issued, one number taken.
    await Promise.all([
      retryPendingRefunds(t.db, answering, { key, now: at(REFUND_RETRY_AFTER_MS + 1000) }),
      retryPendingRefunds(t.db, answering, { key, now: at(REFUND_RETRY_AFTER_MS + 1000) }),
    ]);
    expect(asked.filter((k) => k === pending?.idempotencyKey).length).toBeGreaterThanOrEqual(1);
    const notes = await notesOf(number);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: "issued",
      totalMinor: 700n,
      idempotencyKey: pending?.idempotencyKey,
      number: expect.stringMatching(/^CN-2026-\d{6}$/),
    });
    // Settled once: a later run does not ask again.
    asked.length = 0;
    await retryPendingRefunds(t.db, answering, { key, now: at(REFUND_RETRY_AFTER_MS * 3) });
    expect(asked).not.toContain(pending?.idempotencyKey);
  });

  it("releases the reserved amount when the provider, asked again, says it refunded nothing", async () => {
    const number = await paidInvoice();
    const silent: PaymentProvider = {
      ...createTestProvider(),
      refund: async () => {
        throw new Error("timeout");
      },
    };
    await refund(silent, number, "22.61");
    expect(await refund(createTestProvider(), number, "0.01")).toMatchObject({ ok: false, code: "too_much" });
    const refusing: PaymentProvider = {
      ...createTestProvider(),
      refund: async () => ({ status: "failed", code: "charge_not_found", reason: "No such charge." }),
    };
    await retryPendingRefunds(t.db, refusing, {
      key,
      now: new Date(NOW.getTime() + REFUND_RETRY_AFTER_MS * 2),
    });
    expect((await notesOf(number)).map((n) => [n.status, n.number, n.failureCode])).toEqual([
      ["failed", null, "charge_not_found"],
    ]);
    expect(await refund(createTestProvider(), number, "22.61")).toMatchObject({
      ok: true,
      data: { status: "issued" },
    });
  });

  it("shows admins gross, refunds and net per currency, and finds invoices by number or billing name", async () => {
    const before = (await revenueSummary(t.db)).find((r) => r.currency === "EUR");
    const number = await paidInvoice();
    await refund(createTestProvider(), number, "2.61");
    const after = (await revenueSummary(t.db)).find((r) => r.currency === "EUR");
    expect((after?.grossMinor ?? 0n) - (before?.grossMinor ?? 0n)).toBe(2261n);
    expect((after?.refundsMinor ?? 0n) - (before?.refundsMinor ?? 0n)).toBe(261n);
    expect(after?.netMinor).toBe((after?.grossMinor ?? 0n) - (after?.refundsMinor ?? 0n));

    const document = await findInvoice(t.db, number);
    expect(document?.creditNotes).toMatchObject([
      { status: "issued", totalMinor: 261n, number: expect.stringMatching(/^CN-2026-\d{6}$/) },
    ]);
    const [row] = await searchInvoices(t.db, number);
    expect(row).toMatchObject({ number, totalMinor: 2261n, refundedMinor: 261n, pendingMinor: 0n });
    const byName = await searchInvoices(t.db, `refund ${counter} gmbh`);
    expect(byName.map((r) => r.number)).toEqual([number]);
    // LIKE wildcards typed into the search are literal.
    expect(await searchInvoices(t.db, "%")).toEqual([]);
    expect((await searchInvoices(t.db, "", 1000)).length).toBeLessThanOrEqual(100);
  });
});
