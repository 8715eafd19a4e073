/**
 * Invoices: the lines an order's amounts make, the check that they sum exactly to its total, and the
 * numbers of the gap-free document series (`INV-2026-000042`). Pure: the numbering itself (the next
 * value of a series, taken in the settling transaction) lives in the billing feature's server code.
 *
 * The lines derive from the order's columns only, in this order: the plan (or, for a proration, the
 * new plan's charge and the old plan's unused credit), the coupon's discount, and the tax. Credits and
 * discounts are negative. Since `subtotal − credit − discount = net` and `net + tax = total` hold for
 * every order, the lines sum to the total; `checkLinesSum` verifies it before anything is written.
 */
import { planLabel } from "./plan-names";
import type { BillingInterval } from "./plans";
import type { DocumentSeries, InvoiceLineKind, OrderKind } from "./vocabulary";

/** Digits of the running number in a document number: `INV-2026-000042`. */
export const DOCUMENT_NUMBER_DIGITS = 6;

/** The note printed on an invoice whose tax the customer accounts for (EU reverse charge). */
export const REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).";

/** Longest line description the database accepts. */
export const MAX_LINE_DESCRIPTION = 300;

/** The facts of an order that its invoice lines come from. Amounts are minor units. */
export interface InvoiceSource {
  kind: OrderKind;
  plan: string;
  interval: BillingInterval;
  subtotalMinor: bigint;
  creditMinor: bigint;
  discountMinor: bigint;
  netMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
  /** Percentage as an exact decimal string ("19"). */
  taxRate: string;
  reverseCharge: boolean;
  /** The code of the coupon that gave the discount, when there is one. */
  couponCode: string | null;
  periodStart: Date;
  periodEnd: Date;
  /**
   * A proration's credit: the end of the old period it credits (from `periodStart`, the change).
   * When it differs from `periodEnd` the period restarted (an interval change): the charge is for
   * the new period and the credit for the unused rest of the old one. Absent: the same period.
   */
  creditPeriodEnd?: Date | null;
}

export interface InvoiceLineDraft {
  /** 1-based, in printing order. */
  position: number;
  kind: InvoiceLineKind;
  description: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  amountMinor: bigint;
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The invoice lines of an order, in order; they sum to its total (see `checkLinesSum`). */
export function invoiceLines(source: InvoiceSource): InvoiceLineDraft[] {
  const period = { periodStart: source.periodStart, periodEnd: source.periodEnd };
  const span = `${day(source.periodStart)} to ${day(source.periodEnd)}`;
  const label = planLabel(source.plan, source.interval);
  const lines: Omit<InvoiceLineDraft, "position">[] = [];
  if (source.kind === "proration") {
    const creditEnd = source.creditPeriodEnd ?? source.periodEnd;
    const restarted = creditEnd.getTime() !== source.periodEnd.getTime();
    lines.push({
      kind: "proration_charge",
      description: restarted ? `${label}, ${span}` : `${label}, remaining time ${span}`,
      ...period,
      amountMinor: source.subtotalMinor,
    });
    lines.push({
      kind: "proration_credit",
      description: `Unused time on the previous plan, ${day(source.periodStart)} to ${day(creditEnd)}`,
      periodStart: source.periodStart,
      periodEnd: creditEnd,
      amountMinor: -source.creditMinor,
    });
  } else {
    lines.push({
      kind: "plan",
      description: `${label}, ${span}`,
      ...period,
      amountMinor: source.subtotalMinor,
    });
    if (source.creditMinor !== 0n) {
      lines.push({
        kind: "proration_credit",
        description: "Credit for unused time",
        periodStart: null,
        periodEnd: null,
        amountMinor: -source.creditMinor,
      });
    }
  }
  if (source.discountMinor !== 0n) {
    lines.push({
      kind: "discount",
      description: source.couponCode ? `Discount (coupon ${source.couponCode})` : "Discount",
      periodStart: null,
      periodEnd: null,
      amountMinor: -source.discountMinor,
    });
  }
  lines.push({
    kind: "tax",
    description: source.reverseCharge ? `VAT 0 %. ${REVERSE_CHARGE_NOTE}` : `Tax ${source.taxRate} %`,
    periodStart: null,
    periodEnd: null,
    amountMinor: source.taxMinor,
  });
  return lines.map((line, i) => ({
    position: i + 1,
    ...line,
    description: line.description.slice(0, MAX_LINE_DESCRIPTION),
  }));
}

export type LinesCheck = { ok: true } | { ok: false; message: string };

/**
 * Whether lines sum exactly to a total, and the tax line matches the tax: an invoice is written only
 * when this holds.
 */
export function checkLinesSum(
  lines: readonly Pick<InvoiceLineDraft, "kind" | "amountMinor">[],
  totals: { netMinor: bigint; taxMinor: bigint; totalMinor: bigint },
): LinesCheck {
  if (totals.netMinor + totals.taxMinor !== totals.totalMinor) {
    return {
      ok: false,
      message: `net ${totals.netMinor} + tax ${totals.taxMinor} ≠ total ${totals.totalMinor}`,
    };
  }
  const sum = lines.reduce((acc, line) => acc + line.amountMinor, 0n);
  if (sum !== totals.totalMinor) {
    return { ok: false, message: `the lines sum to ${sum}, the total is ${totals.totalMinor}` };
  }
  const tax = lines.filter((l) => l.kind === "tax").reduce((acc, l) => acc + l.amountMinor, 0n);
  if (tax !== totals.taxMinor) {
    return { ok: false, message: `the tax lines sum to ${tax}, the tax is ${totals.taxMinor}` };
  }
  return { ok: true };
}

/** The series key a document's number is drawn from: `INV-2026`. */
export function seriesKey(series: DocumentSeries, year: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`Bad year ${year}`);
  return `${series}-${year}`;
}

/** `INV-2026-000042` from the series key and its running number (1-based). */
export function formatDocumentNumber(series: string, value: bigint | number): string {
  const n = BigInt(value);
  if (n < 1n) throw new RangeError(`A document number starts at 1, not ${n}`);
  return `${series}-${n.toString().padStart(DOCUMENT_NUMBER_DIGITS, "0")}`;
}

const NUMBER_PATTERN = /^(INV|CN)-(\d{4})-(\d{6,18})$/;

/** Reads `INV-2026-000042` back; undefined when the text is not a document number. */
export function parseDocumentNumber(
  text: string,
): { series: DocumentSeries; year: number; value: bigint } | undefined {
  const m = NUMBER_PATTERN.exec(text);
  if (!m) return undefined;
  const value = BigInt(m[3] as string);
  if (value < 1n) return undefined;
  if (m[3] !== value.toString().padStart(DOCUMENT_NUMBER_DIGITS, "0")) return undefined;
  return { series: m[1] as DocumentSeries, year: Number(m[2]), value };
}

/** a / b rounded half to even, for a ≥ 0 and b > 0. */
function divHalfEven(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a % b;
  if (r * 2n > b || (r * 2n === b && q % 2n === 1n)) return q + 1n;
  return q;
}

/**
 * The tax part of a refund of `amountMinor` of an invoice: the invoice's tax share of it, rounded
 * half to even once; the rest is net. A full refund gives back exactly the invoice's net and tax.
 */
export function splitRefund(
  amountMinor: bigint,
  invoice: { netMinor: bigint; taxMinor: bigint; totalMinor: bigint },
): { netMinor: bigint; taxMinor: bigint; totalMinor: bigint } {
  if (amountMinor <= 0n || amountMinor > invoice.totalMinor) throw new RangeError("Refund out of range");
  const taxMinor =
    invoice.taxMinor <= 0n ? 0n : divHalfEven(amountMinor * invoice.taxMinor, invoice.totalMinor);
  return { netMinor: amountMinor - taxMinor, taxMinor, totalMinor: amountMinor };
}
