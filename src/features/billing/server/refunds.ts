import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { parseDocumentNumber, splitRefund } from "@/core/billing/invoice";
import { parseMoney, toDecimalString } from "@/core/money";
import {
  CREDIT_NOTE_TYPE,
  CREDIT_NOTE_VERSION,
  type CreditNotePayload,
  canonicalJson,
} from "@/core/receipts/receipt";
import { fail, ok, type Result } from "@/core/result";
import type { Db } from "@/server/db/client";
import { creditNotes, invoices, payments } from "@/server/db/schema";
import type { PaymentProvider, RefundResult } from "@/server/payments/provider";
import { nextDocumentNumber } from "./invoices";
import { signBytes } from "./receipt-keys";
import type { SigningKey } from "./settle";

export const MAX_REFUND_REASON = 500;

export type RefundOutcome =
  | { status: "issued"; creditNoteNumber: string; total: string; currency: string }
  | { status: "failed"; code: string; reason: string }
  /** The provider did not answer for sure: the credit note stays pending, its amount reserved. */
  | { status: "pending"; reason: string };

export interface RefundInput {
  invoiceNumber: string;
  /** The amount to give back, an exact decimal in the invoice's currency ("12.50"). */
  amount: string;
  reason: string;
  userId: string | null;
}

type Reserved = {
  id: string;
  invoiceId: string;
  invoiceNumber: string;
  organizationId: string;
  currency: string;
  amountMinor: bigint;
  chargeReference: string;
  idempotencyKey: string;
  billing: { name: string; country: string; vatId: string | null };
};

/**
 * Refunds (part of) a paid invoice, in three steps so that no lock is held while the provider is
 * asked: (1) with the invoice row locked, checks the amount against what is left (the total less
 * pending and issued credit notes) and reserves it as a pending credit note; (2) asks the provider,
 * under the credit note's own idempotency key; (3) settles: issued (the next `CN-<year>` number and
 * the signed credit note) or failed (no number). Bad input is refused before anything is written.
 */
export async function refundInvoice(
  db: Db,
  provider: PaymentProvider,
  input: RefundInput,
  options: { key: SigningKey; issuer?: string; now?: () => Date },
): Promise<Result<RefundOutcome>> {
  const now = options.now ?? (() => new Date());
  const reason = input.reason.trim();
  if (reason.length === 0)
    return fail("Give a reason for the refund.", { fieldErrors: { reason: "Required" } });
  if (reason.length > MAX_REFUND_REASON) {
    return fail(`The reason is at most ${MAX_REFUND_REASON} characters.`, {
      fieldErrors: { reason: "Too long" },
    });
  }
  if (parseDocumentNumber(input.invoiceNumber)?.series !== "INV") {
    return fail(`${input.invoiceNumber.slice(0, 40)} is not an invoice number.`, { code: "not_found" });
  }
  if (!provider.refund) return fail("The active payment provider cannot refund.", { code: "unsupported" });

  const reserved = await db.transaction(async (tx): Promise<Result<Reserved>> => {
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.number, input.invoiceNumber))
      .for("update");
    if (!invoice) return fail(`There is no invoice ${input.invoiceNumber}.`, { code: "not_found" });
    if (invoice.status !== "paid") return fail(`Invoice ${input.invoiceNumber} is not paid.`);
    const parsed = parseMoney(input.amount, invoice.currency);
    if (!parsed.ok) {
      return fail(
        `The amount must be an exact ${invoice.currency} amount, such as ${toDecimalString({ amount: 1250n, currency: invoice.currency })}.`,
        {
          fieldErrors: { amount: parsed.error.message },
        },
      );
    }
    const amountMinor = parsed.value.amount;
    if (amountMinor <= 0n)
      return fail("The amount must be more than zero.", { fieldErrors: { amount: "Too small" } });
    const [taken] = await tx
      .select({ sum: sql<string>`coalesce(sum(${creditNotes.totalMinor}), 0)::text` })
      .from(creditNotes)
      .where(and(eq(creditNotes.invoiceId, invoice.id), inArray(creditNotes.status, ["pending", "issued"])));
    const already = BigInt(taken?.sum ?? "0");
    const left = invoice.totalMinor - already;
    const money = (minor: bigint) =>
      `${toDecimalString({ amount: minor, currency: invoice.currency })} ${invoice.currency}`;
    if (amountMinor > left) {
      return fail(
        `At most ${money(left)} can be refunded: ${money(invoice.totalMinor)} was paid and ${money(already)} is refunded or being refunded.`,
        { fieldErrors: { amount: "More than is left" }, code: "too_much" },
      );
    }
    const [payment] = await tx
      .select({ reference: payments.providerReference, provider: payments.provider })
      .from(payments)
      .where(and(eq(payments.orderId, invoice.orderId), eq(payments.status, "succeeded")));
    if (!payment?.reference) return fail(`Invoice ${input.invoiceNumber} has no payment to refund.`);
    if (payment.provider !== provider.id) {
      return fail(`Invoice ${input.invoiceNumber} was paid through ${payment.provider}, not ${provider.id}.`);
    }
    const id = randomUUID();
    const split = splitRefund(amountMinor, invoice);
    const idempotencyKey = `${invoice.number}:cn:${id}`;
    await tx.insert(creditNotes).values({
      id,
      invoiceId: invoice.id,
      organizationId: invoice.organizationId,
      status: "pending",
      currency: invoice.currency,
      ...split,
      reason,
      idempotencyKey,
      provider: provider.id,
      createdBy: input.userId,
      createdAt: now(),
    });
    return ok({
      id,
      invoiceId: invoice.id,
      invoiceNumber: input.invoiceNumber,
      organizationId: invoice.organizationId,
      currency: invoice.currency,
      amountMinor,
      chargeReference: payment.reference,
      idempotencyKey,
      billing: { name: invoice.billingName, country: invoice.billingCountry, vatId: invoice.vatId },
    });
  });
  if (!reserved.ok) return reserved;
  const r = reserved.data;

  // No transaction is open while the provider works.
  let answer: RefundResult;
  try {
    answer = await provider.refund({
      chargeReference: r.chargeReference,
      amount: { amount: r.amountMinor, currency: r.currency },
      idempotencyKey: r.idempotencyKey,
      metadata: { invoiceNumber: r.invoiceNumber, creditNoteId: r.id },
    });
  } catch (error) {
    answer = { status: "unknown", reason: error instanceof Error ? error.message : "no answer" };
  }
  return ok(await settleRefund(db, r, answer, { ...options, providerId: provider.id, now: now() }));
}

/** How long a refund may wait for the provider's answer before the clock asks again. */
export const REFUND_RETRY_AFTER_MS = 10 * 60_000;
/** At most this many unanswered refunds are asked again per run. */
export const MAX_REFUND_RETRIES_PER_RUN = 100;

export type RefundRetrySummary = { asked: number; issued: number; failed: number; pending: number };

/**
 * Asks the provider again about refunds it never answered for sure (a timeout, a crash between the
 * request and the answer): each pending credit note older than `REFUND_RETRY_AFTER_MS`, with the
 * same idempotency key, so the provider refunds at most once and answers what it did. An issued
 * answer takes the next `CN` number then; a failed one releases the reserved amount. Safe with
 * several instances at once: the key makes the provider's side idempotent, and settling re-reads the
 * credit note under its row lock, so a note is settled once.
 */
export async function retryPendingRefunds(
  db: Db,
  provider: PaymentProvider,
  options: { key: SigningKey; issuer?: string; now?: Date; limit?: number },
): Promise<RefundRetrySummary> {
  const now = options.now ?? new Date();
  const summary: RefundRetrySummary = { asked: 0, issued: 0, failed: 0, pending: 0 };
  if (!provider.refund) return summary;
  const due = await db
    .select({
      note: creditNotes,
      invoiceNumber: invoices.number,
      billingName: invoices.billingName,
      billingCountry: invoices.billingCountry,
      vatId: invoices.vatId,
      chargeReference: payments.providerReference,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(payments, and(eq(payments.orderId, invoices.orderId), eq(payments.status, "succeeded")))
    .where(
      and(
        eq(creditNotes.status, "pending"),
        eq(creditNotes.provider, provider.id),
        lt(creditNotes.createdAt, new Date(now.getTime() - REFUND_RETRY_AFTER_MS)),
      ),
    )
    .orderBy(asc(creditNotes.createdAt))
    .limit(Math.min(options.limit ?? MAX_REFUND_RETRIES_PER_RUN, MAX_REFUND_RETRIES_PER_RUN));
  for (const row of due) {
    if (!row.invoiceNumber || !row.chargeReference) continue;
    const r: Reserved = {
      id: row.note.id,
      invoiceId: row.note.invoiceId,
      invoiceNumber: row.invoiceNumber,
      organizationId: row.note.organizationId,
      currency: row.note.currency,
      amountMinor: row.note.totalMinor,
      chargeReference: row.chargeReference,
      idempotencyKey: row.note.idempotencyKey,
      billing: { name: row.billingName, country: row.billingCountry, vatId: row.vatId },
    };
    summary.asked += 1;
    let answer: RefundResult;
    try {
      answer = await provider.refund({
        chargeReference: r.chargeReference,
        amount: { amount: r.amountMinor, currency: r.currency },
        idempotencyKey: r.idempotencyKey,
        metadata: { invoiceNumber: r.invoiceNumber, creditNoteId: r.id },
      });
    } catch (error) {
      answer = { status: "unknown", reason: error instanceof Error ? error.message : "no answer" };
    }
    const outcome = await settleRefund(db, r, answer, { ...options, providerId: provider.id, now });
    if (outcome.status === "issued") summary.issued += 1;
    else if (outcome.status === "pending") summary.pending += 1;
    else if (outcome.code !== "already_settled") summary.failed += 1;
  }
  return summary;
}

async function settleRefund(
  db: Db,
  r: Reserved,
  answer: RefundResult,
  options: { key: SigningKey; issuer?: string; providerId: string; now: Date },
): Promise<RefundOutcome> {
  if (answer.status === "unknown") return { status: "pending", reason: answer.reason };
  return db.transaction(async (tx): Promise<RefundOutcome> => {
    const [note] = await tx
      .select()
      .from(creditNotes)
      .where(and(eq(creditNotes.id, r.id), eq(creditNotes.status, "pending")))
      .for("update");
    if (!note)
      return { status: "failed", code: "already_settled", reason: "This refund was settled already." };
    if (answer.status === "failed") {
      await tx
        .update(creditNotes)
        .set({ status: "failed", failureCode: answer.code })
        .where(eq(creditNotes.id, r.id));
      return { status: "failed", code: answer.code, reason: answer.reason };
    }
    const money = (amount: bigint) => toDecimalString({ amount, currency: note.currency });
    // Last: the number locks its series until this transaction commits.
    const number = await nextDocumentNumber(tx, "CN", options.now);
    const payload: CreditNotePayload = {
      type: CREDIT_NOTE_TYPE,
      version: CREDIT_NOTE_VERSION,
      kid: options.key.kid,
      issuer: options.issuer ?? "Abacus",
      creditNoteNumber: number,
      invoiceNumber: r.invoiceNumber,
      issuedAt: options.now.toISOString(),
      organization: { id: r.organizationId },
      billing: r.billing,
      currency: note.currency,
      net: money(note.netMinor),
      tax: money(note.taxMinor),
      total: money(note.totalMinor),
      reason: note.reason,
      refund: { provider: options.providerId, reference: answer.reference },
    };
    const canonical = canonicalJson(payload);
    const signature = Buffer.from(signBytes(options.key, new TextEncoder().encode(canonical))).toString(
      "base64",
    );
    await tx
      .update(creditNotes)
      .set({
        status: "issued",
        number,
        issuedAt: options.now,
        providerReference: answer.reference,
        kid: options.key.kid,
        payload: canonical,
        signature,
      })
      .where(eq(creditNotes.id, r.id));
    return {
      status: "issued",
      creditNoteNumber: number,
      total: money(note.totalMinor),
      currency: note.currency,
    };
  });
}
