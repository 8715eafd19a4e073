/**
 * An invoice as a PDF (A4), drawn with pdf-lib (pure JavaScript, no browser). Amounts are the exact
 * decimal strings with the currency code (`2261.00 EUR` is never rounded or localised). The standard
 * PDF fonts cover Windows-1252 only: any other character (a billing name in another script) is
 * printed as "?" here; the web page and the signed JSON keep the exact text. The document's dates are
 * the invoice's, so the same invoice always gives the same bytes.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { toDecimalString } from "../money";

export interface InvoicePdfInput {
  number: string;
  currency: string;
  netMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
  billingName: string;
  billingCountry: string;
  vatId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  finalizedAt: Date;
  lines: { description: string; amountMinor: bigint }[];
  seller: { name: string; address: string[]; contact: string; vatId: string | null };
  receiptNumber: string | null;
}

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const AMOUNT_WIDTH = 130;
const GREY = rgb(0.35, 0.35, 0.35);

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Renders an invoice; the bytes of a PDF 1.7 file. */
export async function invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${input.number}`);
  doc.setAuthor(input.seller.name.slice(0, 200));
  doc.setProducer("Abacus");
  doc.setCreator("Abacus");
  doc.setCreationDate(input.finalizedAt);
  doc.setModificationDate(input.finalizedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const supported = new Set(regular.getCharacterSet());
  const clean = (text: string) =>
    Array.from(text.replace(/\s+/g, " "), (ch) => (supported.has(ch.codePointAt(0) ?? 0) ? ch : "?")).join(
      "",
    );
  const money = (minor: bigint) =>
    `${toDecimalString({ amount: minor, currency: input.currency })} ${input.currency}`;

  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const newPageIfNeeded = (height: number) => {
    if (y - height < MARGIN) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
  };
  const wrap = (text: string, font: PDFFont, size: number, width: number): string[] => {
    const out: string[] = [];
    let line = "";
    for (const word of clean(text).split(" ")) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !line) {
        line = next;
      } else {
        out.push(line);
        line = word;
      }
      // A single word longer than the width: cut it.
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        out.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) out.push(line);
    return out;
  };
  const text = (
    value: string,
    options: { font?: PDFFont; size?: number; x?: number; color?: typeof GREY } = {},
  ) => {
    const size = options.size ?? 10;
    const font = options.font ?? regular;
    for (const line of wrap(value, font, size, PAGE[0] - MARGIN - (options.x ?? MARGIN))) {
      newPageIfNeeded(size + 4);
      page.drawText(line, { x: options.x ?? MARGIN, y: y - size, size, font, color: options.color });
      y -= size + 4;
    }
  };
  const row = (label: string, amount: string, font: PDFFont = regular, size = 10) => {
    const lines = wrap(label, font, size, PAGE[0] - 2 * MARGIN - AMOUNT_WIDTH - 12);
    newPageIfNeeded(lines.length * (size + 4) + 6);
    const top = y;
    for (const line of lines) {
      page.drawText(line, { x: MARGIN, y: y - size, size, font });
      y -= size + 4;
    }
    const width = font.widthOfTextAtSize(amount, size);
    page.drawText(amount, { x: PAGE[0] - MARGIN - width, y: top - size, size, font });
    y -= 6;
  };
  const rule = () => {
    page.drawLine({
      start: { x: MARGIN, y: y + 2 },
      end: { x: PAGE[0] - MARGIN, y: y + 2 },
      thickness: 0.5,
      color: GREY,
    });
    y -= 6;
  };

  text("Invoice", { size: 10, color: GREY });
  text(input.number, { font: bold, size: 20 });
  text(`Issued ${day(input.finalizedAt)} (UTC) · Paid`, { color: GREY });
  y -= 14;

  text("From", { font: bold });
  text(input.seller.name);
  for (const line of input.seller.address) text(line, { color: GREY });
  text(input.seller.contact, { color: GREY });
  if (input.seller.vatId) text(`VAT id ${input.seller.vatId}`, { color: GREY });
  y -= 10;

  text("Billed to", { font: bold });
  text(input.billingName);
  text(`${input.billingCountry}${input.vatId ? ` · VAT id ${input.vatId}` : ""}`, { color: GREY });
  if (input.periodStart && input.periodEnd) {
    text(`Period ${day(input.periodStart)} to ${day(input.periodEnd)}`, { color: GREY });
  }
  y -= 14;

  row("Description", `Amount (${input.currency})`, bold);
  rule();
  for (const line of input.lines) row(line.description, money(line.amountMinor));
  rule();
  row("Net", money(input.netMinor));
  row("Tax", money(input.taxMinor));
  row("Total", money(input.totalMinor), bold, 12);
  y -= 10;
  if (input.receiptNumber) text(`Paid in full. Signed receipt ${input.receiptNumber}.`, { color: GREY });

  return doc.save({ useObjectStreams: false });
}
