import Link from "next/link";
import { SearchForm } from "@/components/ui/search-form";
import { toDecimalString } from "@/core/money";
import { formatDate, formatMinor } from "../format";
import type { AdminInvoiceRow, RevenueLine } from "../server/invoices";
import { InvoiceRefundForm } from "./invoice-refund-form";

/** The platform's invoices for an admin: search by number or billing name, and refund from each row. */
export function InvoiceAdmin({
  rows,
  q,
  revenue,
}: {
  rows: AdminInvoiceRow[];
  q: string;
  revenue: RevenueLine[];
}) {
  return (
    <div className="grid gap-8">
      <RevenueSummary revenue={revenue} />
      <section aria-labelledby="admin-invoices" className="grid gap-4">
        <h2 id="admin-invoices" className="text-lg font-semibold">
          Invoices
        </h2>
        <SearchForm className="flex flex-wrap gap-2" role="search">
          <label htmlFor="invoice-q" className="sr-only">
            Invoice number or billing name
          </label>
          <input
            id="invoice-q"
            name="q"
            defaultValue={q}
            maxLength={100}
            placeholder="INV-2026-… or a billing name"
            className="h-10 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-sm"
          />
          <button type="submit" className="h-10 rounded-md border border-input px-4 text-sm hover:bg-muted">
            Search
          </button>
        </SearchForm>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No invoice matches.</p>
        ) : (
          <ul className="grid gap-3" data-testid="admin-invoices">
            {rows.map((row) => {
              const left = row.totalMinor - row.refundedMinor - row.pendingMinor;
              return (
                <li key={row.number} className="grid gap-3 rounded-lg border border-border p-4">
                  <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                    <Link
                      className="font-mono underline"
                      href={`/invoices/${encodeURIComponent(row.number)}`}
                    >
                      {row.number}
                    </Link>
                    <span className="min-w-0 break-words">{row.billingName}</span>
                    <span className="text-muted-foreground">{formatDate(row.finalizedAt)}</span>
                    <span className="tabular">
                      {formatMinor(row.totalMinor, row.currency)}
                      {row.refundedMinor > 0n
                        ? ` · refunded ${formatMinor(row.refundedMinor, row.currency)}`
                        : ""}
                      {row.pendingMinor > 0n
                        ? ` · pending ${formatMinor(row.pendingMinor, row.currency)}`
                        : ""}
                    </span>
                  </div>
                  {left > 0n ? (
                    <details>
                      <summary className="cursor-pointer text-sm text-muted-foreground">Refund…</summary>
                      <div className="mt-3">
                        <InvoiceRefundForm
                          invoiceNumber={row.number}
                          currency={row.currency}
                          left={toDecimalString({ amount: left, currency: row.currency })}
                        />
                      </div>
                    </details>
                  ) : (
                    <p className="text-sm text-muted-foreground">Fully refunded.</p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}

/** Gross (paid invoices), refunds (issued credit notes) and net, per currency, exact. */
export function RevenueSummary({ revenue }: { revenue: RevenueLine[] }) {
  return (
    <section aria-labelledby="revenue-summary" className="grid gap-2">
      <h2 id="revenue-summary" className="text-lg font-semibold">
        Revenue
      </h2>
      {revenue.length === 0 ? (
        <p className="text-sm text-muted-foreground">No paid invoices yet.</p>
      ) : (
        <table className="w-full text-sm" data-testid="revenue-summary">
          <thead>
            <tr className="border-b border-border text-left text-muted-foreground">
              <th scope="col" className="py-2 font-normal">
                Currency
              </th>
              <th scope="col" className="py-2 text-right font-normal">
                Gross
              </th>
              <th scope="col" className="py-2 text-right font-normal">
                Refunds
              </th>
              <th scope="col" className="py-2 text-right font-normal">
                Net
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {revenue.map((r) => (
              <tr key={r.currency}>
                <th scope="row" className="py-2 text-left font-normal">
                  {r.currency}
                </th>
                <td className="tabular py-2 text-right">{formatMinor(r.grossMinor, r.currency)}</td>
                <td className="tabular py-2 text-right">{formatMinor(r.refundsMinor, r.currency)}</td>
                <td className="tabular py-2 text-right">{formatMinor(r.netMinor, r.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
