import "server-only";
import { z } from "zod";
import { parseDocumentNumber } from "@/core/billing/invoice";
import { toDecimalString } from "@/core/money";
import { guardApi } from "@/features/api-keys/server";
import { type ApiCaller, apiCallerError, apiJson } from "@/server/api";
import { getAuth } from "@/server/auth";
import { isAdminViewer, loadMembership, loadViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";
import {
  canSeeInvoices,
  findInvoice,
  findInvoices,
  type InvoiceDocument,
  listInvoices,
} from "../server/invoices";

/** Invoices per page of `GET /api/v1/invoices`: 20 unless asked, at most 50. */
export const API_INVOICE_PAGE = { default: 20, max: 50 } as const;

export const invoiceListQuery = z.object({
  limit: z.coerce
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(API_INVOICE_PAGE.max, `limit must be at most ${API_INVOICE_PAGE.max}`)
    .default(API_INVOICE_PAGE.default),
  after: z
    .string()
    .max(40)
    .refine(
      (v) => parseDocumentNumber(v)?.series === "INV",
      "after must be an invoice number such as INV-2026-000042",
    )
    .optional(),
});

const decimal = z.string().describe("An exact decimal string with the currency's minor digits, e.g. 22.61");
const periodSchema = z.object({ start: z.string(), end: z.string() }).nullable();

/** The API's invoice, for the OpenAPI document; `invoiceJson` builds it. */
export const invoiceSchema = z.object({
  number: z.string().describe("INV-<year>-<6 digits>, gap-free per year"),
  status: z.enum(["draft", "paid", "void"]),
  kind: z.enum(["purchase", "renewal", "proration"]),
  plan: z.string(),
  interval: z.string(),
  issuedAt: z.string().describe("When the invoice was finalized (paid), ISO 8601 UTC"),
  period: periodSchema,
  billing: z.object({ name: z.string(), country: z.string(), vatId: z.string().nullable() }),
  currency: z.string().describe("ISO 4217"),
  lines: z.array(
    z.object({
      position: z.number().int(),
      kind: z.enum(["plan", "proration_credit", "proration_charge", "discount", "tax"]),
      description: z.string(),
      period: periodSchema,
      amount: decimal.describe("Negative for credits and discounts; the lines sum to total"),
    }),
  ),
  subtotal: decimal,
  credit: decimal,
  discount: decimal,
  net: decimal,
  tax: decimal,
  total: decimal,
  taxRate: z.string().describe("Percentage, exact"),
  reverseCharge: z.boolean(),
  receipt: z
    .object({
      number: z.string(),
      payload: z.string().describe("The receipt's canonical JSON exactly as signed"),
      signature: z.string().describe("Ed25519 signature of payload's UTF-8 bytes, base64"),
      kid: z.string(),
    })
    .nullable(),
  creditNotes: z
    .array(
      z.object({
        number: z
          .string()
          .nullable()
          .describe("CN-<year>-<6 digits> once issued; null while pending or failed"),
        status: z.enum(["pending", "issued", "failed"]),
        net: decimal,
        tax: decimal,
        total: decimal.describe("The amount refunded, positive"),
        reason: z.string(),
        createdAt: z.string(),
        issuedAt: z.string().nullable(),
        signed: z
          .object({ payload: z.string(), signature: z.string(), kid: z.string() })
          .nullable()
          .describe("The signed credit note (canonical JSON, type abacus.credit-note) once issued"),
      }),
    )
    .describe("Refunds of this invoice, oldest first"),
});

export const invoiceListSchema = z.object({
  data: z.array(invoiceSchema),
  nextAfter: z.string().nullable().describe("Pass as `after` for the next page; null on the last"),
});

/** An invoice as the API shows it: amounts as exact decimal strings in the invoice's currency. */
export function invoiceJson(invoice: InvoiceDocument): z.infer<typeof invoiceSchema> {
  const money = (amount: bigint) => toDecimalString({ amount, currency: invoice.currency });
  const period = (start: Date | null, end: Date | null) =>
    start && end ? { start: start.toISOString(), end: end.toISOString() } : null;
  return {
    number: invoice.number,
    status: invoice.status,
    kind: invoice.kind,
    plan: invoice.plan,
    interval: invoice.interval,
    issuedAt: invoice.finalizedAt.toISOString(),
    period: period(invoice.periodStart, invoice.periodEnd),
    billing: { name: invoice.billingName, country: invoice.billingCountry, vatId: invoice.vatId },
    currency: invoice.currency,
    lines: invoice.lines.map((line) => ({
      position: line.position,
      kind: line.kind,
      description: line.description,
      period: period(line.periodStart, line.periodEnd),
      amount: money(line.amountMinor),
    })),
    subtotal: money(invoice.subtotalMinor),
    credit: money(invoice.creditMinor),
    discount: money(invoice.discountMinor),
    net: money(invoice.netMinor),
    tax: money(invoice.taxMinor),
    total: money(invoice.totalMinor),
    taxRate: invoice.taxRate,
    reverseCharge: invoice.reverseCharge,
    // The canonical JSON exactly as signed (a string: re-serialising it would break the signature).
    receipt: invoice.receipt
      ? {
          number: invoice.receipt.receiptNumber,
          payload: invoice.receipt.payload,
          signature: invoice.receipt.signature,
          kid: invoice.receipt.kid,
        }
      : null,
    creditNotes: invoice.creditNotes.map((n) => ({
      number: n.number,
      status: n.status,
      net: money(n.netMinor),
      tax: money(n.taxMinor),
      total: money(n.totalMinor),
      reason: n.reason,
      createdAt: n.createdAt.toISOString(),
      issuedAt: n.issuedAt?.toISOString() ?? null,
      signed:
        n.payload && n.signature && n.kid ? { payload: n.payload, signature: n.signature, kid: n.kid } : null,
    })),
  };
}

type Reader =
  | { kind: "key"; caller: ApiCaller; organizationId: string }
  | {
      kind: "session";
      caller: ApiCaller;
      userId: string;
      isPlatformAdmin: boolean;
      activeOrganizationId: string | null;
    };

/**
 * Who reads: an API key's organization (`Authorization: Bearer`, counted against its quota), else the
 * signed-in session of the request (anonymous calls are rate limited and then refused with 401).
 */
async function reader(request: Request): Promise<{ response: Response } | { reader: Reader }> {
  const gate = await guardApi(request);
  if ("response" in gate) return gate;
  const { caller } = gate;
  if (caller.organizationId)
    return { reader: { kind: "key", caller, organizationId: caller.organizationId } };
  const viewer = await loadViewer(getDb(), getAuth(), request.headers);
  if (!viewer) {
    const response = apiCallerError(
      caller,
      401,
      "unauthorized",
      "Send the organization's API key as `Authorization: Bearer <key>`, or call from a signed-in session.",
    );
    response.headers.set("WWW-Authenticate", 'Bearer realm="abacus"');
    return { response };
  }
  return {
    reader: {
      kind: "session",
      caller,
      userId: viewer.user.id,
      isPlatformAdmin: isAdminViewer(viewer),
      activeOrganizationId: viewer.activeOrganizationId,
    },
  };
}

/** GET /api/v1/invoices?limit=&after=: the organization's invoices, newest first, a page at a time. */
export async function listInvoicesResponse(request: Request): Promise<Response> {
  const who = await reader(request);
  if ("response" in who) return who.response;
  const { caller } = who.reader;
  const parsed = invoiceListQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    return apiCallerError(
      caller,
      400,
      "invalid_request",
      parsed.error.issues[0]?.message ?? "Invalid request",
    );
  }
  const db = getDb();
  let organizationId: string;
  if (who.reader.kind === "key") {
    organizationId = who.reader.organizationId;
  } else {
    const membership = await loadMembership(db, who.reader.userId, who.reader.activeOrganizationId);
    if (!membership) {
      return apiCallerError(
        caller,
        409,
        "no_organization",
        "The session has no active organization: choose one, or use an organization's API key.",
      );
    }
    organizationId = membership.org.id;
  }
  const { limit, after } = parsed.data;
  // One more than the page, to know whether another page follows.
  const page = await listInvoices(db, organizationId, { limit: limit + 1, after: after ?? null });
  const shown = page.slice(0, limit);
  const documents = await findInvoices(
    db,
    shown.map((i) => i.number),
  );
  return apiJson(
    {
      data: documents.map(invoiceJson),
      nextAfter: page.length > limit ? (shown.at(-1)?.number ?? null) : null,
    },
    caller,
  );
}

/** GET /api/v1/invoices/{number}: one invoice of the caller's organization (404 for any other). */
export async function invoiceResponse(request: Request, number: string): Promise<Response> {
  const who = await reader(request);
  if ("response" in who) return who.response;
  const { caller } = who.reader;
  const notFound = () =>
    apiCallerError(caller, 404, "not_found", `No invoice ${number.slice(0, 40)} is visible to this caller.`);
  if (parseDocumentNumber(number)?.series !== "INV") {
    return apiCallerError(
      caller,
      400,
      "invalid_request",
      "The invoice number must look like INV-2026-000042.",
    );
  }
  const db = getDb();
  const invoice = await findInvoice(db, number);
  if (!invoice) return notFound();
  const allowed =
    who.reader.kind === "key"
      ? invoice.organizationId === who.reader.organizationId
      : await canSeeInvoices(db, who.reader, invoice.organizationId);
  return allowed ? apiJson(invoiceJson(invoice), caller) : notFound();
}
