import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { type InvoicePdfInput, invoicePdf } from "./invoice-pdf";

const input: InvoicePdfInput = {
  number: "INV-2026-000042",
  currency: "EUR",
  netMinor: 1710n,
  taxMinor: 325n,
  totalMinor: 2035n,
  billingName: "Müller & Søn GmbH",
  billingCountry: "DE",
  vatId: "DE123456789",
  periodStart: new Date("2026-01-31T10:00:00Z"),
  periodEnd: new Date("2026-02-28T10:00:00Z"),
  finalizedAt: new Date("2026-01-31T10:00:05Z"),
  lines: [
    { description: "Pro (monthly), 2026-01-31 to 2026-02-28", amountMinor: 1900n },
    { description: "Discount (coupon SPRING-10)", amountMinor: -190n },
    { description: "Tax 19 %", amountMinor: 325n },
  ],
  seller: {
    name: "Abacus GmbH",
    address: ["Hauptstraße 1", "10115 Berlin"],
    contact: "billing@example.com",
    vatId: null,
  },
  receiptNumber: "AB-2026-0123456789AB",
};

/**
 * The text a PDF viewer would extract: every string shown by a text operator (`<hex> Tj`), read back
 * from the page content streams that pdf-lib wrote (Flate-compressed), parsed with pdf-lib itself.
 * The standard fonts use WinAnsi; the texts here use only its Latin-1 part.
 */
async function extractText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const lines: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) throw new Error("unexpected content stream");
      const ops = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
        const hex = m[1] ?? "";
        lines.push(String.fromCharCode(...(hex.match(/../g) ?? []).map((h) => Number.parseInt(h, 16))));
      }
    }
  }
  return lines;
}

describe("invoicePdf", () => {
  it("prints the number, the parties, every line and the totals as exact decimals", async () => {
    const bytes = await invoicePdf(input);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await extractText(bytes);
    expect(text).toContain("INV-2026-000042");
    expect(text).toContain("Müller & Søn GmbH");
    expect(text).toContain("DE · VAT id DE123456789");
    expect(text).toContain("Hauptstraße 1");
    for (const expected of [
      "Pro (monthly), 2026-01-31 to 2026-02-28",
      "19.00 EUR",
      "Discount (coupon SPRING-10)",
      "-1.90 EUR",
      "3.25 EUR",
      "17.10 EUR",
      "20.35 EUR",
      "Paid in full. Signed receipt AB-2026-0123456789AB.",
    ]) {
      expect(text).toContain(expected);
    }
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe("Invoice INV-2026-000042");
  });

  it("gives the same bytes for the same invoice", async () => {
    expect(Buffer.from(await invoicePdf(input)).equals(Buffer.from(await invoicePdf(input)))).toBe(true);
  });

  it("replaces characters the standard fonts cannot show, wraps long lines and adds pages", async () => {
    const many = Array.from({ length: 80 }, (_, i) => ({
      description: `Line ${i + 1} ${"with a rather long description ".repeat(4)}`,
      amountMinor: 1n,
    }));
    const bytes = await invoicePdf({
      ...input,
      billingName: "株式会社 Abacus",
      lines: many,
      currency: "JPY",
    });
    const text = await extractText(bytes);
    expect(text).toContain("???? Abacus");
    expect(text).toContain("1 JPY");
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
    expect(text.some((l) => l.startsWith("Line 80 "))).toBe(true);
  });
});
