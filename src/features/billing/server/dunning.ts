import "server-only";
import { and, count, eq } from "drizzle-orm";
import type { EndReason } from "@/core/billing/dunning";
import { declineKind, MAX_RENEWAL_ATTEMPTS } from "@/core/billing/dunning";
import { planOf } from "@/core/billing/plans";
import { toDecimalString } from "@/core/money";
import { billingMail } from "@/features/outbox/server";
import type { Db, Tx } from "@/server/db/client";
import { member, organization, paymentMethods, payments, subscriptions, user } from "@/server/db/schema";
import type { Mailer } from "@/server/mail/outbox";
import type { OrderRow } from "./outcome";

/** Where the billing clock's mails go: the instance's mailer, and its origin for the links. */
export interface BillingMail {
  mailer: Mailer;
  origin: string;
}

/** What one dunning step tells an organization's owners, decided inside the settling transaction. */
export type DunningNotice =
  | { kind: "failed"; charge: ChargeFacts; retryAt: Date }
  | { kind: "ended"; charge: ChargeFacts; why: EndReason }
  | { kind: "recovered"; charge: ChargeFacts; periodEnd: Date };

interface ChargeFacts {
  organizationName: string;
  recipients: string[];
  planName: string;
  interval: "monthly" | "yearly";
  amount: string;
  card: string;
  reason: string;
  attempt: number;
}

/** The owners' addresses (each once), who receive the billing mails. */
async function ownerEmails(tx: Tx | Db, organizationId: string): Promise<string[]> {
  const rows = await tx
    .select({ email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId), eq(member.role, "owner")))
    .orderBy(user.email)
    .limit(50);
  return [...new Set(rows.map((r) => r.email))];
}

/** The facts every notice about the renewal `order` states, read in the settling transaction. */
export async function chargeFacts(
  tx: Tx,
  order: OrderRow,
  card: { brand: string; last4: string } | null,
  attempt: number,
): Promise<ChargeFacts> {
  const [org] = await tx
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, order.organizationId));
  return {
    organizationName: org?.name ?? order.billingName,
    recipients: await ownerEmails(tx, order.organizationId),
    planName: planOf(order.plan).name,
    interval: order.interval,
    amount: `${toDecimalString({ amount: order.totalMinor, currency: order.currency })} ${order.currency}`,
    card: card ? `${card.brand} ending ${card.last4}` : "the card on file",
    reason: order.failureReason ?? "The payment failed.",
    attempt,
  };
}

/**
 * The notice for a renewal attempt whose outcome was just applied, by the clock's own settlement or
 * by someone else (Stripe's webhook): the one definition of which mail a settled attempt sends.
 * Whoever applies an attempt's outcome (under the organization's lock, only while the attempt is in
 * flight) mails it, and the other finds nothing to apply: one mail per attempt. Read in that
 * transaction, after `settleFailed` or `settlePaid` applied; null for anything but a renewal. The
 * clock passes the card it charged and the attempt's number (`known`); without them they are read.
 */
export async function renewalNotice(
  tx: Tx,
  order: OrderRow,
  known?: { card: { brand: string; last4: string } | null; attempt: number },
): Promise<DunningNotice | null> {
  if (order.kind !== "renewal") return null;
  let attempt = known?.attempt;
  if (attempt === undefined) {
    const [made] = await tx.select({ n: count() }).from(payments).where(eq(payments.orderId, order.id));
    attempt = made?.n ?? 1;
  }
  // A first attempt that succeeds is a plain renewal: only a retry's success is news.
  if (order.status === "paid" && attempt <= 1) return null;
  const [sub] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, order.organizationId));
  let card = known?.card;
  if (card === undefined) {
    [card] = await tx
      .select({ brand: paymentMethods.brand, last4: paymentMethods.last4 })
      .from(paymentMethods)
      .where(eq(paymentMethods.organizationId, order.organizationId));
  }
  const facts = await chargeFacts(tx, order, card ?? null, attempt);
  if (order.status === "paid") {
    return sub ? { kind: "recovered", charge: facts, periodEnd: sub.currentPeriodEnd } : null;
  }
  if (sub?.status === "past_due" && sub.nextRetryAt && sub.dunningAttempt === attempt) {
    return { kind: "failed", charge: facts, retryAt: sub.nextRetryAt };
  }
  const why = declineKind(order.failureCode ?? "") === "hard" ? "hard_decline" : "retries_exhausted";
  return { kind: "ended", charge: facts, why };
}

/**
 * Mails the notice to the owners, after the transaction that decided it committed (so a step is
 * mailed once, by the instance that applied it). A failure to queue is logged, never thrown: the
 * billing state is already settled.
 */
export async function sendDunningNotice(mail: BillingMail | undefined, notice: DunningNotice | null) {
  if (!mail || !notice) return;
  const { charge } = notice;
  const facts = { ...charge, attempts: MAX_RENEWAL_ATTEMPTS };
  const message =
    notice.kind === "failed"
      ? billingMail.paymentFailed(mail.origin, { ...facts, retryAt: notice.retryAt })
      : notice.kind === "ended"
        ? billingMail.subscriptionEnded(mail.origin, { ...facts, why: notice.why })
        : billingMail.paymentRecovered(mail.origin, { ...charge, periodEnd: notice.periodEnd });
  for (const to of charge.recipients) {
    try {
      await mail.mailer.send(to, message);
    } catch (error) {
      console.error("A billing mail could not be queued:", error instanceof Error ? error.message : error);
    }
  }
}
