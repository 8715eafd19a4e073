import "server-only";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { BILLING_INTERVALS, getPlan, PAID_PLAN_IDS, type PaidPlanId } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { classifyChange } from "@/core/billing/proration";
import { effectivePlan } from "@/core/billing/subscription";
import { validateVatId } from "@/core/billing/vat";
import type { RateTable } from "@/core/money/fx";
import type { Db } from "@/server/db/client";
import { billingProfiles, creditNotes, invoices, orders, paymentMethods } from "@/server/db/schema";
import { renewalPricing } from "./coupons";
import { listInvoices } from "./invoices";
import { BILLING_PAGE_DOCUMENTS } from "./limits";
import { type PlanChangeQuote, previewPlanChange } from "./plan-change";
import { getSubscription } from "./subscription";

export interface UpgradeOption {
  plan: PaidPlanId;
  interval: "monthly" | "yearly";
  preview: { ok: true; quote: PlanChangeQuote } | { ok: false; error: string };
}

/**
 * The charge the next renewal will make, priced as the renewal prices it: the plan it renews to (a
 * scheduled downgrade's), the subscription's interval and currency, its coupon while it has charges
 * left, the billing country of the last paid order and the VAT ID the renewal takes (the billing
 * profile's, else that order's), so a reverse charge shows as one. None when the plan ends with the period.
 */
async function nextCharge(db: Db, rates: RateTable | null, organizationId: string, now: Date) {
  const sub = await getSubscription(db, organizationId);
  if (!sub || sub.status === "ended" || sub.cancelAtPeriodEnd || effectivePlan(sub, now) === "free") {
    return null;
  }
  const plan = getPlan(sub.scheduledPlan ?? sub.plan);
  const [last] = await db
    .select({ country: orders.billingCountry, vatId: orders.vatId })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "paid")))
    .orderBy(desc(orders.paidAt))
    .limit(1);
  if (!plan || !last) return null;
  const quote = quoteOrder({
    plan,
    interval: sub.interval,
    currency: sub.currency,
    country: last.country,
    table: rates,
    // The renewal's own pricing inputs: its coupon, and the VAT ID it takes (a reverse charge).
    ...(await renewalPricing(db, organizationId, sub.currency, last.vatId)),
  });
  if (!quote.ok) return null;
  return { ...quote.value, at: sub.currentPeriodEnd, plan: plan.id, interval: sub.interval };
}

/** Everything the customer billing page shows, for one organization, as of `now`. */
export async function loadBillingPage(db: Db, rates: RateTable | null, organizationId: string, now: Date) {
  const subscription = await getSubscription(db, organizationId);
  const [card] = await db
    .select({
      brand: paymentMethods.brand,
      last4: paymentMethods.last4,
      expMonth: paymentMethods.expMonth,
      expYear: paymentMethods.expYear,
    })
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId));
  const [profile] = await db
    .select()
    .from(billingProfiles)
    .where(eq(billingProfiles.organizationId, organizationId));
  const [lastOrder] = await db
    .select({ name: orders.billingName, country: orders.billingCountry, vatId: orders.vatId })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "paid")))
    .orderBy(desc(orders.paidAt))
    .limit(1);
  const notes = await db
    .select({
      number: creditNotes.number,
      currency: creditNotes.currency,
      totalMinor: creditNotes.totalMinor,
      issuedAt: creditNotes.issuedAt,
      invoiceNumber: invoices.number,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(and(eq(creditNotes.organizationId, organizationId), isNotNull(creditNotes.number)))
    .orderBy(desc(creditNotes.issuedAt))
    .limit(BILLING_PAGE_DOCUMENTS);
  const [pendingUpgrade] = await db
    .select({ plan: orders.plan, interval: orders.interval })
    .from(orders)
    .where(
      and(
        eq(orders.organizationId, organizationId),
        eq(orders.status, "pending"),
        eq(orders.kind, "proration"),
      ),
    )
    .limit(1);
  const active = subscription && effectivePlan(subscription, now) !== "free";
  const upgrades: UpgradeOption[] = [];
  if (active && subscription.status === "active") {
    for (const plan of PAID_PLAN_IDS) {
      for (const interval of BILLING_INTERVALS) {
        if (classifyChange(subscription, { plan, interval }) !== "upgrade") continue;
        const preview = await previewPlanChange(db, rates, organizationId, { plan, interval }, now);
        upgrades.push({ plan, interval, preview });
      }
    }
  }
  return {
    subscription,
    active: Boolean(active),
    card: card ?? null,
    pendingUpgrade: pendingUpgrade ?? null,
    next: await nextCharge(db, rates, organizationId, now),
    upgrades,
    profile: profile
      ? {
          name: profile.name,
          country: profile.country,
          address: profile.address ?? "",
          email: profile.email ?? "",
          vatId: profile.vatId ?? "",
        }
      : {
          name: lastOrder?.name ?? "",
          country: lastOrder?.country ?? "",
          address: "",
          email: "",
          vatId: lastOrder?.vatId ?? "",
        },
    invoices: await listInvoices(db, organizationId, { limit: BILLING_PAGE_DOCUMENTS }),
    creditNotes: notes.flatMap((n) =>
      n.number && n.issuedAt ? [{ ...n, number: n.number, issuedAt: n.issuedAt }] : [],
    ),
  };
}

export type BillingPageData = Awaited<ReturnType<typeof loadBillingPage>>;

/** A VAT ID as VIES writes it (the schema has checked it already). */
function normalizedVatId(raw: string): string {
  const checked = validateVatId(raw);
  return checked.ok ? checked.normalized : raw.toUpperCase().replace(/[\s./-]/g, "");
}

/** Saves the organization's billing details (one row per organization). */
export async function saveBillingProfile(
  db: Db,
  organizationId: string,
  values: { name: string; country: string; address: string; email: string; vatId: string },
  now = new Date(),
) {
  const row = {
    name: values.name,
    country: values.country,
    address: values.address || null,
    email: values.email || null,
    vatId: values.vatId ? normalizedVatId(values.vatId) : null,
    updatedAt: now,
  };
  await db
    .insert(billingProfiles)
    .values({ organizationId, ...row })
    .onConflictDoUpdate({ target: billingProfiles.organizationId, set: row });
}
