import "server-only";
import { and, eq } from "drizzle-orm";
import type { EndReason } from "@/core/billing/dunning";
import { MAX_RENEWAL_ATTEMPTS } from "@/core/billing/dunning";
import { planOf } from "@/core/billing/plans";
import { toDecimalString } from "@/core/money";
import { billingMail } from "@/features/outbox/server";
import type { Db, Tx } from "@/server/db/client";
import { member, organization, user } from "@/server/db/schema";
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
