import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import {
  checkLinesSum,
  formatDocumentNumber,
  type InvoiceLineDraft,
  invoiceLines,
  parseDocumentNumber,
  seriesKey,
} from "@/core/billing/invoice";
import { invoicePdf } from "@/core/billing/invoice-pdf";
import { addPeriod } from "@/core/billing/subscription";
import type { DocumentSeries } from "@/core/billing/vocabulary";
import type { ReceiptPayload, ReceiptSeller } from "@/core/receipts/receipt";
import type { Db, Tx } from "@/server/db/client";
import {
  coupons,
  creditNotes,
  documentSequences,
  invoiceLines as invoiceLinesTable,
  invoices,
  member,
  orders,
  receipts,
} from "@/server/db/schema";
import { unnestInsert } from "./bulk";
import type { OrderRow } from "./outcome";
import { creditedPeriodEnd } from "./proration-credit";
import { sellerDetails } from "./seller";

export interface IssuedInvoice {
  id: string;
  number: string;
  lines: InvoiceLineDraft[];
}

/**
 * Takes the next number of a document series (`INV-2026`) in the caller's transaction. The series row
 * stays locked until that transaction ends, so concurrent settlements take consecutive numbers, and a
 * rolled-back one gives its number back: the series has no gaps and no duplicates.
 */
export async function nextDocumentNumber(tx: Tx, series: DocumentSeries, at: Date): Promise<string> {
  const [number] = await nextDocumentNumbers(tx, series, at, 1);
  if (!number) throw new Error(`The document series ${series} gave no number`);
  return number;
}

/**
 * Takes the next `n` numbers of a document series at once (one update of its row), in order: a
 * transaction that finalizes several documents locks the series once, under the same rules as
 * `nextDocumentNumber`.
 */
export async function nextDocumentNumbers(
  tx: Tx,
  series: DocumentSeries,
  at: Date,
  n: number,
): Promise<string[]> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Cannot take ${n} document numbers`);
  const key = seriesKey(series, at.getUTCFullYear());
  await tx.insert(documentSequences).values({ series: key, lastValue: 0n }).onConflictDoNothing();
  const [row] = await tx
    .update(documentSequences)
    .set({ lastValue: sql`${documentSequences.lastValue} + ${n}` })
    .where(eq(documentSequences.series, key))
    .returning({ value: documentSequences.lastValue });
  if (!row) throw new Error(`The document series ${key} could not be advanced`);
  const first = row.value - BigInt(n) + 1n;
  return Array.from({ length: n }, (_, i) => formatDocumentNumber(key, first + BigInt(i)));
}

/** The period an order pays for: a checkout's starts when it is paid. */
export function orderPeriod(order: OrderRow, paidAt: Date): { start: Date; end: Date } {
  const start = order.periodStart ?? paidAt;
  return { start, end: order.periodEnd ?? addPeriod(start, order.interval) };
}

/**
 * Issues the invoice of a paid order inside the transaction that settles it: its lines from the
 * order's columns, checked to sum exactly to the total, then the next `INV-<year of paidAt>` number,
 * taken last so the series row is locked for as short a time as possible. Called once per order (by
 * `settlePaid`, which changes only a pending order); a second call fails on the unique order id.
 */
export async function issueInvoice(tx: Tx, order: OrderRow, paidAt: Date): Promise<IssuedInvoice> {
  const [invoice] = await issueInvoices(tx, [order], paidAt);
  if (!invoice) throw new Error(`The invoice of order ${order.id} was not written`);
  return invoice;
}

/** The columns `issueInvoices` writes. */
const INVOICE_COLUMNS = [
  "id",
  "orderId",
  "organizationId",
  "number",
  "status",
  "currency",
  "subtotalMinor",
  "creditMinor",
  "discountMinor",
  "netMinor",
  "taxMinor",
  "totalMinor",
  "taxRate",
  "reverseCharge",
  "billingName",
  "billingCountry",
  "vatId",
  "periodStart",
  "periodEnd",
  "createdAt",
  "finalizedAt",
] as const;

/**
 * Issues the invoices of several orders paid at the same instant, in one transaction, as
 * `issueInvoice` does for one: every invoice's lines are checked first, then the numbers are taken in
 * one block (consecutive, in the order given) and the invoices and their lines written with one
 * insert each. Returns them in the order given.
 */
export async function issueInvoices(
  tx: Tx,
  paidOrders: readonly OrderRow[],
  paidAt: Date,
  alongside?: (issued: readonly IssuedInvoice[]) => SQL,
): Promise<IssuedInvoice[]> {
  if (paidOrders.length === 0) return [];
  const couponIds = [
    ...new Set(paidOrders.flatMap((o) => (o.couponId && o.discountMinor !== 0n ? [o.couponId] : []))),
  ];
  const codes = new Map<string, string>();
  if (couponIds.length > 0) {
    const rows = await tx
      .select({ id: coupons.id, code: coupons.code })
      .from(coupons)
      .where(inArray(coupons.id, couponIds));
    for (const row of rows) codes.set(row.id, row.code);
  }
  // Only a proration's credit needs a query (the period it credits); everything else is null at once.
  const creditEnds = await Promise.all(paidOrders.map((order) => creditedPeriodEnd(tx, order)));
  const drafts = paidOrders.map((order, index) => {
    const period = orderPeriod(order, paidAt);
    const lines = invoiceLines({
      kind: order.kind,
      plan: order.plan,
      interval: order.interval,
      subtotalMinor: order.subtotalMinor,
      creditMinor: order.creditMinor,
      discountMinor: order.discountMinor,
      netMinor: order.netMinor,
      taxMinor: order.taxMinor,
      totalMinor: order.totalMinor,
      taxRate: order.taxRate,
      reverseCharge: order.reverseCharge,
      couponCode: order.couponId && order.discountMinor !== 0n ? (codes.get(order.couponId) ?? null) : null,
      periodStart: period.start,
      periodEnd: period.end,
      creditPeriodEnd: creditEnds[index] ?? null,
    });
    const check = checkLinesSum(lines, order);
    if (!check.ok) throw new Error(`The invoice of order ${order.id} does not add up: ${check.message}`);
    return { order, period, lines };
  });
  const numbers = await nextDocumentNumbers(tx, "INV", paidAt, drafts.length);
  const issued = drafts.map(({ lines }, i) => ({ id: randomUUID(), number: numbers[i] as string, lines }));
  const writeInvoices = unnestInsert(
    invoices,
    drafts.map(({ order, period }, i) => ({
      id: issued[i]?.id,
      orderId: order.id,
      organizationId: order.organizationId,
      number: numbers[i] as string,
      status: "paid" as const,
      currency: order.currency,
      subtotalMinor: order.subtotalMinor,
      creditMinor: order.creditMinor,
      discountMinor: order.discountMinor,
      netMinor: order.netMinor,
      taxMinor: order.taxMinor,
      totalMinor: order.totalMinor,
      taxRate: order.taxRate,
      reverseCharge: order.reverseCharge,
      billingName: order.billingName,
      billingCountry: order.billingCountry,
      vatId: order.vatId,
      periodStart: period.start,
      periodEnd: period.end,
      createdAt: paidAt,
      finalizedAt: paidAt,
    })),
    INVOICE_COLUMNS,
  );
  const writeLines = unnestInsert(
    invoiceLinesTable,
    issued.flatMap(({ id, lines }) => lines.map((line) => ({ invoiceId: id, ...line }))),
    ["invoiceId", "position", "kind", "description", "periodStart", "periodEnd", "amountMinor"],
  );
  // Sent together (pipelined on the transaction's connection, run in this order), with the caller's
  // statement that needs the numbers: the series row is locked for one round trip less each.
  const statements = [writeInvoices, writeLines, ...(alongside ? [alongside(issued)] : [])];
  await Promise.all(statements.map((statement) => tx.execute(statement)));
  return issued;
}

/** Paid orders given an invoice per backfill transaction. */
export const BACKFILL_BATCH = 200;

/**
 * Gives every paid order that has no invoice one, oldest payment first (orders paid before invoices
 * existed). Their signed receipts were issued before and stay as they were: the invoice refers to the
 * order, the receipt does not name the invoice. Runs under one advisory lock, so instances starting
 * together number each order once; a settlement never races it, since it only invoices orders it
 * moves from pending to paid. Bounded batches, each in its own transaction. Returns how many it issued.
 */
export async function backfillInvoices(db: Db, options: { batch?: number; maxBatches?: number } = {}) {
  const batch = options.batch ?? BACKFILL_BATCH;
  const maxBatches = options.maxBatches ?? 10_000;
  let issued = 0;
  for (let round = 0; round < maxBatches; round++) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('abacus:invoice-backfill', 0))`);
      const missing = await tx
        .select({ order: orders })
        .from(orders)
        .leftJoin(invoices, eq(invoices.orderId, orders.id))
        .where(and(eq(orders.status, "paid"), isNull(invoices.id)))
        .orderBy(asc(orders.paidAt), asc(orders.id))
        .limit(batch);
      for (const { order } of missing) await issueInvoice(tx, order, order.paidAt ?? order.createdAt);
      issued += missing.length;
      return missing.length < batch;
    });
    if (done) break;
  }
  return issued;
}

/** Most invoices a list returns at once. */
export const MAX_INVOICE_PAGE = 100;

export interface InvoiceLineView {
  position: number;
  kind: (typeof invoiceLinesTable.$inferSelect)["kind"];
  description: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  amountMinor: bigint;
}

export interface InvoiceDocument {
  number: string;
  status: (typeof invoices.$inferSelect)["status"];
  organizationId: string;
  orderId: string;
  kind: OrderRow["kind"];
  plan: string;
  interval: string;
  currency: string;
  subtotalMinor: bigint;
  creditMinor: bigint;
  discountMinor: bigint;
  netMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
  taxRate: string;
  reverseCharge: boolean;
  billingName: string;
  billingCountry: string;
  vatId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  finalizedAt: Date;
  lines: InvoiceLineView[];
  /** The payment's signed receipt: the canonical JSON exactly as signed, and its signature. */
  receipt: {
    receiptNumber: string;
    payload: string;
    signature: string;
    kid: string;
  } | null /** Its credit notes (refunds), oldest first: issued ones with number and signature. */;
  creditNotes: {
    number: string | null;
    status: (typeof creditNotes.$inferSelect)["status"];
    netMinor: bigint;
    taxMinor: bigint;
    totalMinor: bigint;
    reason: string;
    createdAt: Date;
    issuedAt: Date | null;
    payload: string | null;
    signature: string | null;
    kid: string | null;
  }[];
}

/** A numbered invoice with its lines and receipt, whoever it belongs to (callers check access). */
export async function findInvoice(db: Db, number: string): Promise<InvoiceDocument | null> {
  if (parseDocumentNumber(number)?.series !== "INV") return null;
  return (await findInvoices(db, [number]))[0] ?? null;
}

/** Numbered invoices with their lines and receipts, in the order of `numbers` (at most a page). */
export async function findInvoices(db: Db, numbers: readonly string[]): Promise<InvoiceDocument[]> {
  const wanted = numbers.slice(0, MAX_INVOICE_PAGE);
  if (wanted.length === 0) return [];
  const rows = await db
    .select({ invoice: invoices, order: orders, receipt: receipts })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .leftJoin(receipts, eq(receipts.orderId, invoices.orderId))
    .where(inArray(invoices.number, wanted));
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(invoiceLinesTable)
    .where(
      inArray(
        invoiceLinesTable.invoiceId,
        rows.map((r) => r.invoice.id),
      ),
    )
    .orderBy(asc(invoiceLinesTable.position));
  const notes = await db
    .select()
    .from(creditNotes)
    .where(
      inArray(
        creditNotes.invoiceId,
        rows.map((r) => r.invoice.id),
      ),
    )
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.id));
  const documents = rows.flatMap(({ invoice, order, receipt }): InvoiceDocument[] => {
    if (!invoice.number || !invoice.finalizedAt) return [];
    return [
      {
        number: invoice.number,
        status: invoice.status,
        organizationId: invoice.organizationId,
        orderId: invoice.orderId,
        kind: order.kind,
        plan: order.plan,
        interval: order.interval,
        currency: invoice.currency,
        subtotalMinor: invoice.subtotalMinor,
        creditMinor: invoice.creditMinor,
        discountMinor: invoice.discountMinor,
        netMinor: invoice.netMinor,
        taxMinor: invoice.taxMinor,
        totalMinor: invoice.totalMinor,
        taxRate: invoice.taxRate,
        reverseCharge: invoice.reverseCharge,
        billingName: invoice.billingName,
        billingCountry: invoice.billingCountry,
        vatId: invoice.vatId,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        finalizedAt: invoice.finalizedAt,
        lines: lines
          .filter((l) => l.invoiceId === invoice.id)
          .map((l) => ({
            position: l.position,
            kind: l.kind,
            description: l.description,
            periodStart: l.periodStart,
            periodEnd: l.periodEnd,
            amountMinor: l.amountMinor,
          })),
        receipt: receipt
          ? {
              receiptNumber: receipt.receiptNumber,
              payload: receipt.payload,
              signature: receipt.signature,
              kid: receipt.kid,
            }
          : null,
        creditNotes: notes
          .filter((n) => n.invoiceId === invoice.id)
          .map((n) => ({
            number: n.number,
            status: n.status,
            netMinor: n.netMinor,
            taxMinor: n.taxMinor,
            totalMinor: n.totalMinor,
            reason: n.reason,
            createdAt: n.createdAt,
            issuedAt: n.issuedAt,
            payload: n.payload,
            signature: n.signature,
            kid: n.kid,
          })),
      },
    ];
  });
  const at = new Map(wanted.map((n, i) => [n, i]));
  return documents.sort((a, b) => (at.get(a.number) ?? 0) - (at.get(b.number) ?? 0));
}

/**
 * Whether a user may see an organization's invoices: a member of it (whatever their role, and
 * whichever organization is active), or a platform admin in their own session.
 */
export async function canSeeInvoices(
  db: Db,
  viewer: { userId: string; isPlatformAdmin: boolean },
  organizationId: string,
): Promise<boolean> {
  if (viewer.isPlatformAdmin) return true;
  const [row] = await db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.userId, viewer.userId), eq(member.organizationId, organizationId)));
  return Boolean(row);
}

export interface InvoiceSummary {
  number: string;
  status: (typeof invoices.$inferSelect)["status"];
  currency: string;
  totalMinor: bigint;
  periodStart: Date | null;
  periodEnd: Date | null;
  finalizedAt: Date;
  /** Whether its payment has a signed receipt to download (orders seeded or imported may not). */
  signed: boolean;
}

/**
 * An organization's numbered invoices, newest first, at most `limit` (capped), optionally those
 * finalized before `before` (a page's cursor: the last invoice's number of the previous page).
 */
export async function listInvoices(
  db: Db,
  organizationId: string,
  options: { limit?: number; after?: string | null } = {},
): Promise<InvoiceSummary[]> {
  const limit = Math.max(1, Math.min(options.limit ?? 20, MAX_INVOICE_PAGE));
  let cursor: { finalizedAt: Date; id: string } | undefined;
  if (options.after) {
    const [row] = await db
      .select({ finalizedAt: invoices.finalizedAt, id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.number, options.after), eq(invoices.organizationId, organizationId)));
    if (row?.finalizedAt) cursor = { finalizedAt: row.finalizedAt, id: row.id };
    else return [];
  }
  const rows = await db
    .select({ invoice: invoices, receiptId: receipts.orderId })
    .from(invoices)
    .leftJoin(receipts, eq(receipts.orderId, invoices.orderId))
    .where(
      and(
        eq(invoices.organizationId, organizationId),
        isNotNull(invoices.number),
        cursor
          ? or(
              lt(invoices.finalizedAt, cursor.finalizedAt),
              and(eq(invoices.finalizedAt, cursor.finalizedAt), lt(invoices.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(invoices.finalizedAt), desc(invoices.id))
    .limit(limit);
  return rows.flatMap(({ invoice: r, receiptId }) =>
    r.number && r.finalizedAt
      ? [
          {
            number: r.number,
            status: r.status,
            currency: r.currency,
            totalMinor: r.totalMinor,
            periodStart: r.periodStart,
            periodEnd: r.periodEnd,
            finalizedAt: r.finalizedAt,
            signed: receiptId !== null,
          },
        ]
      : [],
  );
}

/** The seller an invoice names: the one signed into its receipt, else the instance's current one. */
export function invoiceSeller(invoice: InvoiceDocument): ReceiptSeller {
  if (invoice.receipt) {
    const signed = JSON.parse(invoice.receipt.payload) as ReceiptPayload;
    if (signed.seller) return signed.seller;
  }
  return sellerDetails();
}

/** The invoice as a PDF file download. */
export async function invoicePdfResponse(invoice: InvoiceDocument): Promise<Response> {
  const bytes = await invoicePdf({
    ...invoice,
    seller: invoiceSeller(invoice),
    receiptNumber: invoice.receipt?.receiptNumber ?? null,
  });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Cache-Control": "private, no-store",
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoice.number}.pdf"`,
    },
  });
}

/**
 * An invoice's file download: `pdf`, or `json`/`sig` for its payment's signed receipt (exactly the
 * signed bytes) and signature; with `creditNote` (`CN-…`), one of its issued credit notes instead.
 * Null when there is no such file.
 */
export async function invoiceFileResponse(
  invoice: InvoiceDocument,
  file: string | null,
  creditNote: string | null,
): Promise<Response | null> {
  if (file === "pdf" && creditNote === null) return invoicePdfResponse(invoice);
  if (file !== "json" && file !== "sig") return null;
  const note =
    creditNote === null
      ? null
      : invoice.creditNotes.find((n) => n.number === creditNote && n.status === "issued");
  const signed =
    creditNote === null
      ? invoice.receipt && { name: invoice.number, ...invoice.receipt }
      : note?.number && note.payload && note.signature
        ? { name: note.number, payload: note.payload, signature: note.signature }
        : null;
  if (!signed) return null;
  const json = file === "json";
  return new Response(json ? signed.payload : new Uint8Array(Buffer.from(signed.signature, "base64")), {
    headers: {
      "Cache-Control": "private, no-store",
      "Content-Type": json ? "application/json" : "application/octet-stream",
      "Content-Disposition": `attachment; filename="${signed.name}.${file}"`,
    },
  });
}

export interface AdminInvoiceRow {
  number: string;
  organizationId: string;
  billingName: string;
  currency: string;
  totalMinor: bigint;
  /** Issued credit notes. */
  refundedMinor: bigint;
  /** Credit notes the provider has not answered yet. */
  pendingMinor: bigint;
  finalizedAt: Date;
}

/**
 * Numbered invoices for the admin's list, newest first, at most `limit` (capped): all, or those whose
 * number starts with `q` or whose billing name contains it (case-insensitive).
 */
export async function searchInvoices(db: Db, q: string, limit = 50): Promise<AdminInvoiceRow[]> {
  const term = q.trim().slice(0, 100);
  const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  const like = `%${escaped}%`;
  const rows = await db
    .select({
      number: invoices.number,
      organizationId: invoices.organizationId,
      billingName: invoices.billingName,
      currency: invoices.currency,
      totalMinor: invoices.totalMinor,
      finalizedAt: invoices.finalizedAt,
      refunded: sql<string>`coalesce((select sum(c.total_minor) from credit_notes c where c.invoice_id = "invoices"."id" and c.status = 'issued'), 0)::text`,
      pending: sql<string>`coalesce((select sum(c.total_minor) from credit_notes c where c.invoice_id = "invoices"."id" and c.status = 'pending'), 0)::text`,
    })
    .from(invoices)
    .where(
      and(
        isNotNull(invoices.number),
        term
          ? or(
              sql`${invoices.number} ilike ${`${escaped.toUpperCase()}%`}`,
              sql`${invoices.billingName} ilike ${like}`,
            )
          : undefined,
      ),
    )
    .orderBy(desc(invoices.finalizedAt), desc(invoices.id))
    .limit(Math.max(1, Math.min(limit, MAX_INVOICE_PAGE)));
  return rows.flatMap((r) =>
    r.number && r.finalizedAt
      ? [
          {
            number: r.number,
            organizationId: r.organizationId,
            billingName: r.billingName,
            currency: r.currency,
            totalMinor: r.totalMinor,
            refundedMinor: BigInt(r.refunded),
            pendingMinor: BigInt(r.pending),
            finalizedAt: r.finalizedAt,
          },
        ]
      : [],
  );
}

export interface RevenueLine {
  currency: string;
  grossMinor: bigint;
  refundsMinor: bigint;
  netMinor: bigint;
}

/**
 * Revenue per currency: gross is every paid invoice's total, refunds every issued credit note's,
 * net the difference; exact sums in minor units. Invoices and credit notes outlive organizations, so
 * these figures do not change when a customer leaves.
 */
export async function revenueSummary(db: Db): Promise<RevenueLine[]> {
  const rows = await db.execute<{ currency: string; gross: string; refunds: string }>(sql`
    select currency, sum(gross)::text as gross, sum(refunds)::text as refunds from (
      select currency, total_minor as gross, 0 as refunds from invoices where status = 'paid'
      union all
      select currency, 0, total_minor from credit_notes where status = 'issued'
    ) t group by currency order by currency`);
  return [...rows].map((r) => {
    const grossMinor = BigInt(r.gross);
    const refundsMinor = BigInt(r.refunds);
    return { currency: r.currency, grossMinor, refundsMinor, netMinor: grossMinor - refundsMinor };
  });
}
