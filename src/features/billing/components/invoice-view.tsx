import { Download } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import type { ReceiptPayload, ReceiptSeller } from "@/core/receipts/receipt";
import { formatDate, formatMinor } from "../format";
import type { InvoiceDocument } from "../server/invoices";
import { PrintButton } from "./print-button";
import { SellerAddress } from "./seller-address";

/**
 * An invoice as a document, on screen and printed (the site's header and footer are not printed).
 * The seller is the one signed into the payment's receipt; invoices of payments whose receipt did
 * not sign it show the instance's current seller details.
 */
export function InvoiceView({
  invoice,
  currentSeller,
}: {
  invoice: InvoiceDocument;
  currentSeller: ReceiptSeller;
}) {
  const signed = invoice.receipt ? (JSON.parse(invoice.receipt.payload) as ReceiptPayload) : null;
  const seller = signed?.seller ?? currentSeller;
  const money = (minor: bigint) => formatMinor(minor, invoice.currency);
  const download = (file: string, note?: string) =>
    `/invoices/${encodeURIComponent(invoice.number)}/download?file=${file}${note ? `&note=${encodeURIComponent(note)}` : ""}`;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-muted-foreground">
            Invoice · {invoice.status === "paid" ? "Paid" : invoice.status}
          </p>
          <h1 className="font-mono text-2xl font-semibold tracking-tight">{invoice.number}</h1>
          <p className="mt-1 text-sm text-muted-foreground">Issued {formatDate(invoice.finalizedAt)} (UTC)</p>
        </div>
        <div className="flex flex-wrap gap-2 print:hidden">
          <PrintButton />
          <Button asChild variant="outline" size="sm">
            <a href={download("pdf")} download={`${invoice.number}.pdf`}>
              <Download aria-hidden />
              PDF
            </a>
          </Button>
          {invoice.receipt ? (
            <Button asChild variant="outline" size="sm">
              <a href={download("json")} download={`${invoice.number}.json`}>
                <Download aria-hidden />
                Signed JSON
              </a>
            </Button>
          ) : null}
        </div>
      </div>

      <div className="mt-8 grid gap-8 rounded-lg border border-border bg-card p-6 sm:grid-cols-2 print:border-0 print:p-0">
        <section aria-labelledby="invoice-from">
          <h2 id="invoice-from" className="text-sm font-semibold">
            From
          </h2>
          <SellerAddress seller={seller} testId="invoice-seller" />
        </section>
        <section aria-labelledby="invoice-to">
          <h2 id="invoice-to" className="text-sm font-semibold">
            Billed to
          </h2>
          <p className="mt-2 text-sm break-words" data-testid="invoice-billed-to">
            {invoice.billingName}
          </p>
          <p className="text-sm text-muted-foreground">
            {invoice.billingCountry}
            {invoice.vatId ? ` · VAT id ${invoice.vatId}` : ""}
          </p>
          {invoice.periodStart && invoice.periodEnd ? (
            <p className="mt-2 text-sm text-muted-foreground">
              Period {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
            </p>
          ) : null}
        </section>

        <table className="w-full text-sm sm:col-span-2" data-testid="invoice-lines">
          <caption className="sr-only">Invoice lines</caption>
          <thead>
            <tr className="border-b border-border text-left text-muted-foreground">
              <th scope="col" className="py-2 font-normal">
                Description
              </th>
              <th scope="col" className="py-2 text-right font-normal">
                Amount ({invoice.currency})
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {invoice.lines.map((line) => (
              <tr key={line.position}>
                <td className="py-2 pr-4 break-words">{line.description}</td>
                <td className="tabular py-2 text-right whitespace-nowrap">{money(line.amountMinor)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-border">
              <th scope="row" className="py-2 text-left font-normal text-muted-foreground">
                Net
              </th>
              <td className="tabular py-2 text-right" data-testid="invoice-net">
                {money(invoice.netMinor)}
              </td>
            </tr>
            <tr className="text-base font-semibold">
              <th scope="row" className="py-2 text-left">
                Total
              </th>
              <td className="tabular py-2 text-right" data-testid="invoice-total">
                {money(invoice.totalMinor)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>

      {invoice.creditNotes.length > 0 ? (
        <section aria-labelledby="invoice-refunds" className="mt-6 grid gap-2 text-sm">
          <h2 id="invoice-refunds" className="font-semibold">
            Refunds
          </h2>
          <ul className="divide-y divide-border" data-testid="invoice-credit-notes">
            {invoice.creditNotes.map((note, i) => (
              <li key={note.number ?? `note-${i}`} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  <span className="font-mono">
                    {note.number ?? (note.status === "pending" ? "Pending" : "Failed")}
                  </span>
                  <span className="text-muted-foreground"> · {note.reason}</span>
                </span>
                <span className="ml-auto flex items-center gap-3">
                  {note.status === "issued" && note.number ? (
                    <a
                      className="text-xs underline underline-offset-2 print:hidden"
                      href={download("json", note.number)}
                      download={`${note.number}.json`}
                    >
                      Signed JSON<span className="sr-only"> of {note.number}</span>
                    </a>
                  ) : null}
                  <span className="tabular">−{money(note.totalMinor)}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {invoice.receipt ? (
        <p className="mt-6 text-sm text-muted-foreground">
          Paid in full. Signed receipt{" "}
          <Link
            className="font-mono underline print:no-underline"
            href={`/receipt?number=${encodeURIComponent(invoice.receipt.receiptNumber)}`}
          >
            {invoice.receipt.receiptNumber}
          </Link>
          {signed?.invoiceNumber
            ? ""
            : " (issued before invoices were numbered; it does not name this invoice)"}
          .
        </p>
      ) : null}
    </div>
  );
}

/** An organization's invoices, newest first, each linking to its document. */
export function InvoiceList({
  invoices,
}: {
  invoices: { number: string; currency: string; totalMinor: bigint; finalizedAt: Date }[];
}) {
  if (invoices.length === 0) {
    return <p className="text-sm text-muted-foreground">No invoices yet: each payment issues one.</p>;
  }
  return (
    <table className="w-full text-sm" data-testid="invoice-list">
      <caption className="sr-only">Invoices</caption>
      <thead>
        <tr className="border-b border-border text-left text-muted-foreground">
          <th scope="col" className="py-2 font-normal">
            Number
          </th>
          <th scope="col" className="py-2 font-normal">
            Issued
          </th>
          <th scope="col" className="py-2 text-right font-normal">
            Total
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {invoices.map((i) => (
          <tr key={i.number}>
            <td className="py-2 pr-2">
              <Link className="font-mono underline" href={`/invoices/${encodeURIComponent(i.number)}`}>
                {i.number}
              </Link>
            </td>
            <td className="py-2 pr-2">{formatDate(i.finalizedAt)}</td>
            <td className="tabular py-2 text-right whitespace-nowrap">
              {formatMinor(i.totalMinor, i.currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
