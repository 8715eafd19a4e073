import { CreditCard, Download } from "lucide-react";
import Link from "next/link";
import { SettingsSection } from "@/components/ui/section";
import { getPlan } from "@/core/billing/plans";
import { formatDate, formatMinor } from "../format";
import type { BillingPageData } from "../server/billing-page";
import { BillingCardForm } from "./billing-card-form";
import { BillingControls } from "./billing-controls";
import { BillingProfileForm } from "./billing-profile-form";
import { BillingUpgrade, type UpgradeChoice } from "./billing-upgrade";

const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "medium", timeZone: "UTC" });

/**
 * The customer billing page: plan and status, next charge, card on file, upgrades with their
 * proration, cancel/downgrade at period end and resume, billing details, invoices and credit notes.
 * Members see everything; only owners and admins get the controls (the actions check again).
 */
export function BillingPage({
  data,
  canManage,
  countries,
  now,
}: {
  data: BillingPageData;
  canManage: boolean;
  countries: { value: string; label: string }[];
  now: Date;
}) {
  const { subscription: sub, active, card, next } = data;
  const plan = active && sub ? getPlan(sub.plan) : getPlan("free");
  const status =
    !sub || !active
      ? sub?.status === "past_due"
        ? { label: "Past due", tone: "text-destructive" }
        : { label: "Free plan", tone: "text-muted-foreground" }
      : sub.status === "past_due"
        ? { label: "Past due", tone: "text-destructive" }
        : sub.cancelAtPeriodEnd
          ? { label: `Ends on ${formatDate(sub.currentPeriodEnd)}`, tone: "text-muted-foreground" }
          : { label: "Active", tone: "text-emerald-700 dark:text-emerald-400" };
  const scheduled =
    active && sub ? (sub.cancelAtPeriodEnd ? "cancel" : sub.scheduledPlan === "pro" ? "pro" : null) : null;
  const upgrades: UpgradeChoice[] = data.upgrades.map((u) => {
    const target = getPlan(u.plan)?.name ?? u.plan;
    if (!u.preview.ok)
      return {
        plan: u.plan,
        interval: u.interval,
        label: `${target}, ${u.interval}`,
        error: u.preview.error,
      };
    const q = u.preview.quote;
    const money = (minor: bigint) => formatMinor(minor, q.currency);
    return {
      plan: u.plan,
      interval: u.interval,
      label: `${target}, ${u.interval}`,
      charge: money(q.charge),
      discount: q.coupon ? { amount: money(-q.discount), code: q.coupon.code } : null,
      credit: money(-q.credit),
      tax: money(q.tax),
      taxRate: q.taxRate,
      total: money(q.total),
      periodEnd: formatDate(q.proration.periodEnd),
      restarts: q.proration.restarts,
      asOf: `${formatDate(q.at)}, ${timeFormat.format(q.at)} UTC`,
    };
  });

  return (
    <div className="grid gap-6">
      <section
        aria-labelledby="billing-plan-title"
        className="grid gap-6 rounded-lg border border-border bg-card p-6 md:grid-cols-3"
      >
        <div className="min-w-0">
          <h2 id="billing-plan-title" className="text-sm font-medium text-muted-foreground">
            Current plan
          </h2>
          <p className="mt-1 text-xl font-semibold" data-testid="billing-current-plan">
            {plan?.name}
            {active && sub ? <span className="text-base font-normal">, billed {sub.interval}</span> : null}
          </p>
          <p className={`mt-1 text-sm font-medium ${status.tone}`} data-testid="billing-status">
            {status.label}
          </p>
          {active && sub ? (
            <p className="mt-1 text-sm text-muted-foreground">
              Period {formatDate(sub.currentPeriodStart)} – {formatDate(sub.currentPeriodEnd)}
            </p>
          ) : null}
          {scheduled === "pro" ? <p className="mt-1 text-sm">Moves to Pro when this period ends.</p> : null}
        </div>
        <div className="min-w-0">
          <h2 className="text-sm font-medium text-muted-foreground">Next charge</h2>
          {next ? (
            <>
              <p className="tabular mt-1 text-xl font-semibold" data-testid="billing-next-charge">
                {formatMinor(next.total.amount, next.total.currency)}
              </p>
              <p className="mt-1 text-sm text-muted-foreground">
                On {formatDate(next.at)}: {getPlan(next.plan)?.name}, {next.interval}
                {next.tax.amount > 0n
                  ? ` (${formatMinor(next.net.amount, next.net.currency)} + ${next.taxRate} % tax)`
                  : ""}
              </p>
            </>
          ) : (
            <p className="mt-1 text-sm text-muted-foreground" data-testid="billing-next-charge">
              {active ? "None: the plan ends with this period." : "None."}
            </p>
          )}
        </div>
        <div className="min-w-0">
          <h2 className="text-sm font-medium text-muted-foreground">Card on file</h2>
          {card ? (
            <p className="mt-1 flex items-center gap-2" data-testid="billing-card">
              <CreditCard className="size-4 shrink-0" aria-hidden />
              <span>
                {card.brand} ending {card.last4}
                <span className="block text-sm text-muted-foreground">
                  Expires {String(card.expMonth).padStart(2, "0")}/{card.expYear}
                </span>
              </span>
            </p>
          ) : (
            <p className="mt-1 text-sm text-muted-foreground" data-testid="billing-card">
              No card on file.
            </p>
          )}
          {canManage ? (
            <p className="mt-2 text-sm">
              <a className="underline underline-offset-4" href="#billing-card">
                Update the card
              </a>
            </p>
          ) : null}
        </div>
      </section>

      <SettingsSection
        id="billing-card"
        title="Card on file"
        description="Renewals and upgrades are charged to this card. A new card is checked with your bank without a charge."
      >
        {canManage ? (
          <BillingCardForm pastDue={sub?.status === "past_due"} />
        ) : (
          <p className="text-sm text-muted-foreground">Only owners and admins can change the card.</p>
        )}
      </SettingsSection>

      <SettingsSection
        id="billing-change"
        title="Change plan"
        description="Upgrades take effect at once, with the unused part of this period credited. Downgrades and cancellations take effect when the period ends."
      >
        {!canManage ? (
          <p className="text-sm text-muted-foreground">Only owners and admins can change the plan.</p>
        ) : !active || !sub ? (
          <p className="text-sm">
            <Link className="underline underline-offset-4" href="/pricing">
              Choose a paid plan
            </Link>{" "}
            to start a subscription.
          </p>
        ) : sub.status === "past_due" ? (
          <p className="text-sm text-destructive">
            The last renewal payment was declined, so the plan cannot change until it is paid.
          </p>
        ) : (
          <div className="grid gap-6">
            {data.pendingUpgrade ? (
              <p role="status" className="text-sm" data-testid="billing-pending-upgrade">
                The payment for the upgrade to {getPlan(data.pendingUpgrade.plan)?.name}, billed{" "}
                {data.pendingUpgrade.interval}, is still being confirmed. Choose an upgrade again to check on
                it: it settles that payment first and is never charged twice.
              </p>
            ) : null}
            {upgrades.length > 0 && !scheduled ? <BillingUpgrade choices={upgrades} /> : null}
            <BillingControls
              plan={sub.plan}
              scheduled={scheduled}
              periodEnd={formatDate(sub.currentPeriodEnd)}
            />
          </div>
        )}
      </SettingsSection>

      <SettingsSection
        id="billing-details"
        title="Billing details"
        description="The organization's billing name, address and tax details. Issued invoices keep the details they were issued with."
      >
        <BillingProfileForm initial={data.profile} countries={countries} canManage={canManage} />
      </SettingsSection>

      <section
        aria-labelledby="billing-documents-title"
        className="grid min-w-0 gap-4 rounded-lg border border-border bg-card p-6"
      >
        <div>
          <h2 id="billing-documents-title" className="font-semibold">
            Invoices and credit notes
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Newest first. Each opens as a printable page; download the PDF or the signed receipt.
          </p>
        </div>
        <div className="grid min-w-0 gap-6">
          {data.invoices.length === 0 ? (
            <p className="text-sm text-muted-foreground">No invoices yet: each payment issues one.</p>
          ) : (
            <div className="@container">
              <table className="stacked-table w-full text-sm" data-testid="billing-invoices">
                <caption className="sr-only">Invoices</caption>
                <thead>
                  <tr className="border-b border-border text-left text-muted-foreground">
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Invoice
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Issued
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      Total
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Download
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.invoices.map((i) => {
                    const path = `/invoices/${encodeURIComponent(i.number)}`;
                    return (
                      <tr key={i.number} className="border-b border-border">
                        <td className="py-2 pr-4" data-label="Invoice">
                          <Link className="font-mono underline" href={path}>
                            {i.number}
                          </Link>
                        </td>
                        <td className="tabular py-2 pr-4" data-label="Issued">
                          {formatDate(i.finalizedAt)}
                        </td>
                        <td className="tabular py-2 pr-4 text-right whitespace-nowrap" data-label="Total">
                          {formatMinor(i.totalMinor, i.currency)}
                        </td>
                        <td className="py-2" data-label="Download">
                          <span className="flex flex-wrap gap-x-3">
                            <a
                              className="inline-flex items-center gap-1 underline"
                              href={`${path}/download?file=pdf`}
                            >
                              <Download className="size-3.5" aria-hidden />
                              PDF
                            </a>
                            {i.signed ? (
                              <a className="underline" href={`${path}/download?file=json`}>
                                Signed JSON
                              </a>
                            ) : null}
                          </span>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          {data.creditNotes.length > 0 ? (
            <div className="@container">
              <table className="stacked-table w-full text-sm" data-testid="billing-credit-notes">
                <caption className="py-2 text-left font-medium">Credit notes (refunds)</caption>
                <thead>
                  <tr className="border-b border-border text-left text-muted-foreground">
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Credit note
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Issued
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      Refunded
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Invoice
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.creditNotes.map((n) => (
                    <tr key={n.number} className="border-b border-border">
                      <td className="py-2 pr-4 font-mono" data-label="Credit note">
                        {n.number}
                      </td>
                      <td className="tabular py-2 pr-4" data-label="Issued">
                        {formatDate(n.issuedAt)}
                      </td>
                      <td className="tabular py-2 pr-4 text-right whitespace-nowrap" data-label="Refunded">
                        {formatMinor(n.totalMinor, n.currency)}
                      </td>
                      <td className="py-2" data-label="Invoice">
                        {n.invoiceNumber ? (
                          <Link
                            className="font-mono underline"
                            href={`/invoices/${encodeURIComponent(n.invoiceNumber)}`}
                          >
                            {n.invoiceNumber}
                          </Link>
                        ) : (
                          "—"
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          <p className="text-xs text-muted-foreground">
            As of {formatDate(now)}, {timeFormat.format(now)} UTC.
          </p>
        </div>
      </section>
    </div>
  );
}
