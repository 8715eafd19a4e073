import { Receipt } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { getPlan } from "@/core/billing/plans";
import { effectivePlan } from "@/core/billing/subscription";
import { formatDate, formatMinor } from "../format";
import type { BillingData } from "../queries";
import { BillingControls } from "./billing-controls";

/**
 * The dashboard's billing section for the active organization: its plan, orders and receipts, as
 * the page loaded them (`loadBilling`). Owners and admins can upgrade, downgrade or cancel at period
 * end; members see the same, read-only.
 */
export function BillingSection({
  billing,
  canManage,
  now,
}: {
  billing: BillingData;
  canManage: boolean;
  now: Date;
}) {
  const { subscription: sub, orders } = billing;
  const planId = effectivePlan(sub, now);
  const plan = getPlan(planId);
  const active = sub && planId !== "free" && sub.currentPeriodEnd > now;
  const periodEnd = sub ? formatDate(sub.currentPeriodEnd) : "";
  const scheduled = active
    ? sub.cancelAtPeriodEnd
      ? "cancel"
      : sub.scheduledPlan === "pro"
        ? "pro"
        : null
    : null;

  return (
    <section
      aria-labelledby="billing-title"
      className="grid min-w-0 gap-6 rounded-lg border border-border bg-card p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="billing-title" className="text-lg font-semibold">
            Billing
          </h2>
          <p className="mt-1 text-sm">
            <Link href="/dashboard/billing" className="underline underline-offset-4">
              Open billing: next charge, card, upgrades, invoices
            </Link>
          </p>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="billing-plan">
            {active
              ? `${plan?.name} plan, billed ${sub.interval} in ${sub.currency}. The current period ends ${periodEnd}.`
              : "Free plan."}
          </p>
          {scheduled === "cancel" ? (
            <p className="mt-1 text-sm text-muted-foreground">Ends with this period; then back to Free.</p>
          ) : scheduled === "pro" ? (
            <p className="mt-1 text-sm">Moves to Pro when this period ends.</p>
          ) : null}
        </div>
        {canManage ? (
          <Button asChild size="sm" variant={active ? "outline" : "default"}>
            <Link
              // Not prefetched: a visit to checkout is what remembers a plan choice (src/proxy.ts).
              prefetch={false}
              href={
                active && sub.plan === "team"
                  ? "/pricing"
                  : active
                    ? `/checkout?plan=team&interval=${sub.interval}&currency=${sub.currency}`
                    : "/checkout?plan=team&interval=monthly"
              }
            >
              {active ? (sub.plan === "team" ? "See plans" : "Upgrade to Team") : "Upgrade"}
            </Link>
          </Button>
        ) : null}
      </div>

      {active && canManage ? (
        <BillingControls plan={sub.plan} scheduled={scheduled ?? null} periodEnd={periodEnd} />
      ) : !canManage ? (
        <p className="text-sm text-muted-foreground">Only owners and admins can change the plan.</p>
      ) : null}

      <div className="min-w-0">
        <h3 className="text-sm font-semibold">Orders and receipts</h3>
        {orders.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">
            No orders yet.{" "}
            {canManage ? "Upgrading from the pricing page creates one, with a signed receipt." : ""}
          </p>
        ) : (
          <div className="@container mt-2">
            <table className="stacked-table w-full text-sm">
              <caption className="sr-only">Orders and receipts</caption>
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Plan
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Total
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Receipt
                  </th>
                </tr>
              </thead>
              <tbody>
                {orders.map((o) => (
                  <tr key={o.id} className="border-b border-border">
                    <td className="tabular py-2 pr-4" data-label="Date">
                      {formatDate(o.createdAt)}
                    </td>
                    <td className="py-2 pr-4" data-label="Plan">
                      {getPlan(o.plan)?.name}, {o.interval}
                    </td>
                    <td className="tabular py-2 pr-4 text-right" data-label="Total">
                      {formatMinor(o.totalMinor, o.currency)}
                    </td>
                    <td className="py-2 pr-4" data-label="Status">
                      {o.status === "paid" ? "Paid" : o.status === "failed" ? "Failed" : "Pending"}
                      {o.status === "failed" && o.failureReason ? (
                        <span className="block text-xs text-muted-foreground">{o.failureReason}</span>
                      ) : null}
                    </td>
                    <td className="py-2" data-label="Receipt">
                      {o.receiptNumber ? (
                        <span className="flex flex-wrap gap-x-3 gap-y-1">
                          <Link
                            className="inline-flex items-center gap-1 underline"
                            href={`/receipt?number=${o.receiptNumber}`}
                          >
                            <Receipt className="size-3.5" aria-hidden />
                            <span className="font-mono text-xs">{o.receiptNumber}</span>
                          </Link>
                          <a
                            className="underline"
                            href={`/receipt/download?number=${o.receiptNumber}&file=json`}
                          >
                            Download
                          </a>
                          <Link className="underline" href={`/receipt?number=${o.receiptNumber}#verify`}>
                            Verify
                          </Link>
                        </span>
                      ) : (
                        <span className="text-muted-foreground">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
