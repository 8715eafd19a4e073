import { BadgeCheck, Download } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { planLabel } from "@/core/billing/plan-names";
import { shortRate } from "@/core/money/input";
import type { ReceiptPayload, ReceiptSeller } from "@/core/receipts/receipt";
import { formatAmount, formatDate } from "../format";
import { PrintButton } from "./print-button";
import { SellerAddress } from "./seller-address";

/** base64url of UTF-8 text, for the workbench link's fragment (never sent to a server). */
function fragmentOf(payload: string, signature: string): string {
  const data = Buffer.from(payload, "utf8").toString("base64url");
  const sig = Buffer.from(signature, "base64").toString("base64url");
  return `#receipt=${data}&signature=${sig}`;
}

/**
 * A receipt as a document: on screen and printed (the site's header and footer are not printed,
 * and the signed JSON and key id wrap inside the page's margins). The seller is the one signed into
 * the receipt; receipts issued before that was signed show the instance's current seller details.
 */
export function ReceiptView({
  receipt,
  currentSeller,
}: {
  receipt: { receiptNumber: string; payload: string; signature: string; kid: string; keyRetired: boolean };
  currentSeller: ReceiptSeller;
}) {
  const p = JSON.parse(receipt.payload) as ReceiptPayload;
  const seller = p.seller ?? currentSeller;
  const download = (file: string) =>
    `/receipt/download?number=${encodeURIComponent(receipt.receiptNumber)}&file=${file}`;
  const row = (label: string, value: string, testId?: string) => (
    <div className="flex items-baseline justify-between gap-4 py-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular text-right" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-muted-foreground">Receipt</p>
          <h1 className="font-mono text-2xl font-semibold tracking-tight">{p.receiptNumber}</h1>
          <p className="mt-1 text-sm text-muted-foreground">Paid {formatDate(p.paidAt)} (UTC)</p>
          {p.invoiceNumber ? (
            <p className="mt-1 text-sm" data-testid="receipt-invoice">
              Invoice{" "}
              <Link className="font-mono underline" href={`/invoices/${encodeURIComponent(p.invoiceNumber)}`}>
                {p.invoiceNumber}
              </Link>
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2 print:hidden">
          <PrintButton />
          <Button asChild variant="outline" size="sm">
            <Link
              href={`/calculator?mode=crypto&tool=receipt${fragmentOf(receipt.payload, receipt.signature)}`}
            >
              <BadgeCheck aria-hidden />
              Verify in the workbench
            </Link>
          </Button>
        </div>
      </div>

      <div className="mt-8 grid gap-8 rounded-lg border border-border bg-card p-6 sm:grid-cols-2 print:border-0 print:p-0">
        <section aria-labelledby="receipt-from">
          <h2 id="receipt-from" className="text-sm font-semibold">
            Issued by
          </h2>
          <SellerAddress seller={seller} testId="receipt-seller" />
        </section>
        <section aria-labelledby="receipt-to">
          <h2 id="receipt-to" className="text-sm font-semibold">
            Billed to
          </h2>
          <p className="mt-2 text-sm">{p.billing.name}</p>
          <p className="text-sm text-muted-foreground">
            {p.organization.name} · {p.billing.country}
            {p.billing.vatId ? ` · VAT id ${p.billing.vatId}` : ""}
          </p>
        </section>
        <dl className="divide-y divide-border text-sm sm:col-span-2">
          {row(planLabel(p.plan, p.interval), `${formatDate(p.period.start)} – ${formatDate(p.period.end)}`)}
          {row("Net", formatAmount(p.net, p.currency), "receipt-net")}
          {row(
            `Tax (${p.billing.country} ${p.taxRate}%, ${p.taxTreatment})`,
            formatAmount(p.tax, p.currency),
            "receipt-tax",
          )}
          <div className="flex items-baseline justify-between gap-4 py-2 text-base font-semibold">
            <dt>Total paid</dt>
            <dd className="tabular" data-testid="receipt-total">
              {formatAmount(p.total, p.currency)}
            </dd>
          </div>
          {row("Paid with", `${p.payment.brand} ending ${p.payment.last4}`)}
          {row(
            "Price basis",
            p.currency === "USD"
              ? `${p.basePrice.amount} USD`
              : `${p.basePrice.amount} USD × ${shortRate(p.fx.rate)} (ECB ${p.fx.date})`,
          )}
        </dl>
      </div>

      <section id="verify" aria-labelledby="receipt-signature" className="mt-8 grid gap-3 text-sm">
        <h2 id="receipt-signature" className="font-semibold">
          Signature
        </h2>
        <p className="text-muted-foreground">
          This receipt is RFC 8785 canonical JSON signed with Ed25519 by key{" "}
          <span className="font-mono break-all text-foreground">{receipt.kid}</span>
          {receipt.keyRetired ? " (since retired; it still verifies)" : ""}. Anyone can check it with OpenSSL:
          see the docs under Receipts.
        </p>
        <p className="rounded-md bg-muted p-3 font-mono text-xs break-all" data-testid="receipt-signature">
          {receipt.signature}
        </p>
        <div className="flex flex-wrap gap-2 print:hidden">
          {(
            [
              ["json", "receipt.json"],
              ["sig", "receipt.sig"],
              ["pem", "receipt-key.pem"],
            ] as const
          ).map(([file, label]) => (
            <Button key={file} asChild variant="outline" size="sm">
              <a href={download(file)} download={label}>
                <Download aria-hidden />
                {label}
              </a>
            </Button>
          ))}
        </div>
        <pre
          className="hidden font-mono text-xs print:block print:whitespace-pre-wrap print:[overflow-wrap:anywhere]"
          data-testid="receipt-json"
        >
          {receipt.payload}
        </pre>
      </section>
    </div>
  );
}
