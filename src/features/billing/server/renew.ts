import "server-only";
import { randomInt, randomUUID } from "node:crypto";
import { and, count, desc, eq, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import { getPlan } from "@/core/billing/plans";
import { quoteOrder } from "@/core/billing/pricing";
import { addPeriod } from "@/core/billing/subscription";
import type { RateTable } from "@/core/money/fx";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import type { Db, Tx } from "@/server/db/client";
import {
  billingProfiles,
  orders,
  organization,
  paymentMethods,
  payments,
  subscriptions,
} from "@/server/db/schema";
import { getEnv } from "@/server/env";
import type { ChargeResult, PaymentProvider } from "@/server/payments/provider";
import { unnestInsert } from "./bulk";
import { chargeSavedCard } from "./charge";
import { renewalPricing } from "./coupons";
import {
  type BillingMail,
  chargeFacts,
  type DunningNotice,
  renewalNotice,
  sendDunningNotice,
} from "./dunning";
import { claimOrder, lockOrganizationBilling, type OrderRow } from "./outcome";
import { orderAmounts } from "./place";
import { currentSigningKey } from "./receipt-keys";
import { type PaidRenewal, type SigningKey, settleCharge, settleRenewalsPaid } from "./settle";

/**
 * How long one instance may take to charge a renewal before another instance may try it again (with
 * the same idempotency key, so the provider answers with the first attempt's result).
 */
const CLAIM_SECONDS = 120;
/** The most subscriptions one run of the clock renews; the rest wait for the next run. */
export const MAX_RENEWALS_PER_RUN = 20_000;

export type RenewalOutcome =
  /** The next period is paid (by the renewal or by a retry). */
  | "renewed"
  /** The card on file was declined (soft): the subscription is past due until its next retry. */
  | "failed"
  /**
   * The period could not be paid: a hard decline, the last retry declined, or no card on file. The
   * subscription ended: Free.
   */
  | "downgraded"
  /** Cancelled at period end: the subscription ended without a charge. */
  | "ended"
  /** The provider's answer is not known yet: the order stays pending and is tried again later. */
  | "pending"
  /** Another instance is charging this period right now, or nothing is due. */
  | "skipped";

/** The provider key of one attempt at one period: the same on every retry of that attempt. */
export function renewalKey(organizationId: string, periodStart: Date, attempt: number): string {
  return `${organizationId}:renew:${periodStart.toISOString()}:${attempt}`;
}

type Claim =
  | { done: RenewalOutcome; notice?: DunningNotice }
  | { order: OrderRow; card: typeof paymentMethods.$inferSelect; attempt: number; retry: boolean };

async function endSubscription(tx: Tx, organizationId: string, at: Date) {
  await tx
    .update(subscriptions)
    .set({ status: "ended", nextRetryAt: null, updatedAt: at })
    .where(eq(subscriptions.organizationId, organizationId));
}

/** The owners' last mail when a period ends unpaid without a charge (no card on file). */
async function noCardNotice(tx: Tx, sub: typeof subscriptions.$inferSelect): Promise<DunningNotice> {
  const [org] = await tx
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, sub.organizationId));
  const pseudo = {
    organizationId: sub.organizationId,
    billingName: org?.name ?? sub.organizationId,
    plan: sub.plan,
    interval: sub.interval,
    totalMinor: 0n,
    currency: sub.currency,
    failureReason: "There is no card on file.",
  } as OrderRow;
  return { kind: "ended", why: "no_card", charge: await chargeFacts(tx, pseudo, null, 0) };
}

/**
 * Claims the due period of one subscription, in a short transaction under the organization's lock:
 * its renewal order (unique per subscription and period start) is placed, or an abandoned claim on
 * it is taken over. Only the instance that holds the claim charges.
 */
async function claimRenewal(
  db: Db,
  rates: RateTable | null,
  organizationId: string,
  at: Date,
  retryNow = false,
) {
  return db.transaction(async (tx): Promise<Claim> => {
    await lockOrganizationBilling(tx, organizationId);
    const [sub] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, organizationId));
    if (!sub || sub.currentPeriodEnd > at) return { done: "skipped" };
    // Past due: only when its next retry is due (or an attempt in flight was abandoned, below).
    const retry = sub.status === "past_due";
    if (sub.status !== "active" && !retry) return { done: "skipped" };
    const periodStart = sub.currentPeriodEnd;
    if (sub.cancelAtPeriodEnd && !retry) {
      await endSubscription(tx, organizationId, at);
      return { done: "ended" };
    }
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organizationId, organizationId));
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.periodStart, periodStart)));
    let order: OrderRow;
    if (existing) {
      if (existing.status !== "pending") return { done: "skipped" };
      const [inFlight] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.orderId, existing.id), eq(payments.status, "unknown")))
        .limit(1);
      // No attempt in flight: the last one was declined, and the next waits for its retry instant.
      const retryDue = retry && sub.nextRetryAt !== null && (retryNow || sub.nextRetryAt <= at);
      if (!inFlight && !retryDue) return { done: "skipped" };
      if (!card) {
        if (inFlight) return { done: "skipped" };
        // The card was removed while past due: nothing left to try.
        await tx
          .update(orders)
          .set({
            status: "failed",
            failureCode: "no_card",
            failureReason: "There is no card on file.",
            claimedUntil: null,
          })
          .where(eq(orders.id, existing.id));
        await endSubscription(tx, organizationId, at);
        return { done: "downgraded", notice: await noCardNotice(tx, sub) };
      }
      const claimed = await claimOrder(tx, existing.id, CLAIM_SECONDS);
      if (!claimed) return { done: "skipped" };
      order = claimed;
      if (!inFlight) {
        // A retry: a new attempt (its own payment row, so its own key), on the card on file now.
        await tx.insert(payments).values({
          orderId: order.id,
          provider: card.provider,
          status: "unknown",
          amountMinor: order.totalMinor,
          currency: order.currency,
          cardBrand: card.brand,
          cardLast4: card.last4,
        });
      }
    } else {
      if (retry) return { done: "skipped" };
      if (!card) {
        await endSubscription(tx, organizationId, at);
        return { done: "downgraded", notice: await noCardNotice(tx, sub) };
      }
      const plan = getPlan(sub.scheduledPlan ?? sub.plan);
      const [billing] = await tx
        .select({ name: orders.billingName, country: orders.billingCountry, vatId: orders.vatId })
        .from(orders)
        .where(and(eq(orders.organizationId, organizationId), eq(orders.status, "paid")))
        .orderBy(desc(orders.paidAt))
        .limit(1);
      const quote = plan
        ? quoteOrder({
            plan,
            interval: sub.interval,
            currency: sub.currency,
            country: billing?.country ?? "",
            table: rates,
            ...(await renewalPricing(tx, organizationId, sub.currency, billing?.vatId ?? null)),
          })
        : null;
      if (!plan || !billing || !quote?.ok) {
        await endSubscription(tx, organizationId, at);
        return { done: "downgraded" };
      }
      const q = quote.value;
      const [placed] = await tx
        .insert(orders)
        .values({
          organizationId,
          userId: null,
          idempotencyKey: `renew:${periodStart.toISOString()}`,
          plan: plan.id === "free" ? sub.plan : plan.id,
          interval: sub.interval,
          ...orderAmounts(q),
          billingName: billing.name,
          billingCountry: q.country,
          vatId: q.vatId,
          status: "pending",
          kind: "renewal",
          periodStart,
          periodEnd: addPeriod(periodStart, sub.interval),
          claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
        })
        .returning();
      if (!placed) throw new Error("The renewal order was not inserted");
      await tx.insert(payments).values({
        orderId: placed.id,
        provider: card.provider,
        status: "unknown",
        amountMinor: placed.totalMinor,
        currency: placed.currency,
        cardBrand: card.brand,
        cardLast4: card.last4,
      });
      order = placed;
    }
    // Every attempt at the period is one payment row of its order: this one's number is their count.
    const [attempts] = await tx.select({ n: count() }).from(payments).where(eq(payments.orderId, order.id));
    return { order, card, attempt: Math.max(1, attempts?.n ?? 1), retry };
  });
}

/** One run's result for one subscription: its outcome, and whether a charge was a retry or declined. */
export interface RenewalRun {
  outcome: RenewalOutcome;
  retried: boolean;
  declined: boolean;
  /** A "pending" outcome's attempt, to be asked again once its claim lapses. */
  unanswered?: UnansweredRenewal;
}

/**
 * A renewal attempt whose provider answer was lost: its order stays pending under its claim until
 * `claimedUntil` (the database's clock), after which any run may take it over and charge again under
 * the same key (the provider answers with the first charge). `attempt` counts the period's attempts
 * (1 for the renewal, 2 for the first retry, …).
 */
export interface UnansweredRenewal {
  organizationId: string;
  periodStart: Date;
  attempt: number;
  claimedUntil: Date;
}

function unanswered(order: OrderRow, attempt: number, at: Date): UnansweredRenewal {
  return {
    organizationId: order.organizationId,
    periodStart: order.periodStart ?? at,
    attempt,
    claimedUntil: order.claimedUntil ?? at,
  };
}

/** Options of a renewal run: the receipt's issuer and seller, and where the dunning mails go. */
export type RenewalOptions = {
  issuer?: string;
  seller?: ReceiptSeller;
  mail?: BillingMail;
  /** A past-due subscription's next attempt is made now rather than at `next_retry_at`. */
  retryNow?: boolean;
};

/** What settling one renewal attempt decided: the run's result, and the owners' mail to send. */
type RenewalSettled = { run: RenewalRun; notice: DunningNotice | null };

/**
 * Records the provider's answer to one renewal attempt, in the caller's transaction, which holds the
 * organization's lock and has just read the order (`current`) and whether an attempt of it is still
 * in flight: paid (the next period), declined (the dunning step), or left pending.
 */
async function applyRenewalCharge(
  tx: Tx,
  current: OrderRow,
  inFlight: boolean,
  claim: { card: CardRow; attempt: number; retry: boolean },
  charge: ChargeResult,
  options: { key: SigningKey; issuer?: string; seller?: ReceiptSeller; paidAt: Date },
): Promise<RenewalSettled> {
  const { card, attempt, retry } = claim;
  const none = { retried: retry, declined: false };
  // Our attempt was settled meanwhile (a webhook): nothing to apply, nothing to mail.
  if (current.status !== "pending" || !inFlight)
    return { run: { outcome: "skipped", ...none }, notice: null };
  const outcome = await settleCharge(tx, current, charge, options);
  if (outcome.status === "pending") return { run: { outcome: "pending", ...none }, notice: null };
  if (outcome.status !== "paid" && outcome.status !== "failed")
    return { run: { outcome: "skipped", ...none }, notice: null };
  // The order as settled (a decline's dunning step shows on it and on the subscription; paid, it is
  // the order read with its status now paid); the mail is `renewalNotice`'s, as for an attempt
  // Stripe's webhook settles.
  const [after] =
    outcome.status === "paid"
      ? [{ ...current, status: "paid" as const }]
      : await tx.select().from(orders).where(eq(orders.id, current.id));
  const notice = await renewalNotice(tx, after ?? current, { card, attempt });
  if (outcome.status === "paid") return { run: { outcome: "renewed", ...none }, notice };
  const declined = { retried: retry, declined: true };
  return { run: { outcome: notice?.kind === "failed" ? "failed" : "downgraded", ...declined }, notice };
}

type CardRow = typeof paymentMethods.$inferSelect;

/** Charges one attempt at a renewal on the card on file, under the attempt's own key. */
function chargeRenewal(
  provider: PaymentProvider,
  order: Pick<
    OrderRow,
    "id" | "organizationId" | "periodStart" | "totalMinor" | "currency" | "plan" | "interval"
  >,
  card: CardRow,
  attempt: number,
  at: Date,
): Promise<ChargeResult> {
  const periodStart = order.periodStart ?? at;
  return chargeSavedCard(provider, {
    amount: { amount: order.totalMinor, currency: order.currency },
    card: { customerReference: card.customerReference, methodReference: card.methodReference },
    idempotencyKey: renewalKey(order.organizationId, periodStart, attempt),
    description: `Abacus ${order.plan} (${order.interval}) renewal`,
    metadata: { orderId: order.id, organizationId: order.organizationId, attempt: String(attempt) },
  });
}

async function renewOnce(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  organizationId: string,
  at: Date,
  options: RenewalOptions,
): Promise<RenewalRun> {
  const { mail, retryNow, ...receipt } = options;
  const key = await currentSigningKey(db);
  const claim = await claimRenewal(db, rates, organizationId, at, retryNow);
  if ("done" in claim) {
    await sendDunningNotice(mail, claim.notice ?? null);
    return { outcome: claim.done, retried: false, declined: false };
  }
  const { order, card, attempt } = claim;
  const charge = await chargeRenewal(provider, order, card, attempt, at);
  const settled = await db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, organizationId);
    const [current] = await tx.select().from(orders).where(eq(orders.id, order.id));
    if (!current) throw new Error("The renewal order disappeared");
    const [inFlight] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.status, "unknown")))
      .limit(1);
    const one = await applyRenewalCharge(tx, current, Boolean(inFlight), claim, charge, {
      key,
      ...receipt,
      paidAt: at,
    });
    if (one.run.outcome === "pending") one.run.unanswered = unanswered(current, attempt, at);
    return one;
  });
  await sendDunningNotice(mail, settled.notice);
  return settled.run;
}

/** Subscriptions one transaction claims, and then settles, together in a clock run. */
export const RENEWAL_BATCH = 25;

/** The advisory-lock key of an organization's billing, as `lockOrganizationBilling` takes it. */
const orgLockKey = (id: SQL) => sql`hashtextextended('abacus:checkout:' || ${id}, 0)`;

const textArray = (ids: readonly string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;

/** The columns of a renewal order the batch claim writes (the rest take their defaults). */
const PLACED_COLUMNS = [
  "id",
  "organizationId",
  "idempotencyKey",
  "plan",
  "interval",
  "currency",
  "subtotalMinor",
  "discountMinor",
  "couponId",
  "reverseCharge",
  "netMinor",
  "taxMinor",
  "totalMinor",
  "taxRate",
  "taxTreatment",
  "basePriceUsd",
  "fxRate",
  "fxDate",
  "billingName",
  "billingCountry",
  "vatId",
  "status",
  "kind",
  "periodStart",
  "periodEnd",
] as const satisfies readonly (keyof OrderRow)[];

type PlacedRenewal =
  Pick<OrderRow, (typeof PLACED_COLUMNS)[number] & keyof OrderRow> extends infer R ? Omit<R, "id"> : never;

/**
 * A batch's claim: the renewals it placed, the subscriptions it left alone, the ones to do singly,
 * and the organizations whose lock another transaction held.
 */
interface BatchClaim {
  claimed: { order: PlacedRenewal & { id: string }; card: CardRow }[];
  skipped: number;
  single: string[];
  busy: string[];
}

/**
 * Claims the plain renewals among `organizationIds` in one short transaction: the organizations whose
 * billing lock it gets at once (`pg_try_advisory_xact_lock`: one another instance holds is left to the
 * single path, which waits for it), read with everything the claim needs in one query; each active
 * subscription due by `at` whose period has no order yet, with a card on file and no coupon, gets its
 * renewal order (unique per period start) and its first payment attempt, placed with one insert each.
 * Everything else (past due, cancelled at period end, no card, a coupon, an order left by a crashed
 * run) goes to `single`, the one-by-one path (`renewOnce`) with its every rule.
 */
async function claimRenewalBatch(
  db: Db,
  rates: RateTable | null,
  organizationIds: readonly string[],
  at: Date,
): Promise<BatchClaim> {
  return db.transaction(async (tx) => {
    // The locks first, in a statement of their own: the reads below then see every change committed
    // before each lock was granted (a statement reads as of its start, under read committed).
    const lockedRows = await tx.execute<{ id: string }>(
      sql`select id from unnest(${textArray(organizationIds)}) as t(id)
        where pg_try_advisory_xact_lock(${orgLockKey(sql`id`)})`,
    );
    const locked = Array.from(lockedRows, (row) => row.id);
    const busy = organizationIds.filter((id) => !locked.includes(id));
    if (locked.length === 0) return { claimed: [], skipped: 0, single: [], busy };
    const existing = tx
      .select({
        status: sql<string>`${orders.status}`.as("existing_status"),
        live: sql<boolean>`(${orders.claimedUntil} is not null and ${orders.claimedUntil} >= now())`.as(
          "existing_live",
        ),
      })
      .from(orders)
      .where(
        and(
          eq(orders.organizationId, subscriptions.organizationId),
          sql`${orders.periodStart} = date_trunc('milliseconds', ${subscriptions.currentPeriodEnd})`,
        ),
      )
      .limit(1)
      .as("existing");
    const lastPaid = tx
      .select({
        name: sql<string>`${orders.billingName}`.as("last_name"),
        country: sql<string>`${orders.billingCountry}`.as("last_country"),
        vatId: sql<string | null>`${orders.vatId}`.as("last_vat_id"),
      })
      .from(orders)
      .where(and(eq(orders.organizationId, subscriptions.organizationId), eq(orders.status, "paid")))
      .orderBy(desc(orders.paidAt))
      .limit(1)
      .as("last_paid");
    const rows = await tx
      .select({
        sub: subscriptions,
        card: paymentMethods,
        existing: { status: existing.status, live: existing.live },
        billing: { name: lastPaid.name, country: lastPaid.country, vatId: lastPaid.vatId },
        profile: { organizationId: billingProfiles.organizationId, vatId: billingProfiles.vatId },
      })
      .from(subscriptions)
      .leftJoin(paymentMethods, eq(paymentMethods.organizationId, subscriptions.organizationId))
      .leftJoin(billingProfiles, eq(billingProfiles.organizationId, subscriptions.organizationId))
      .leftJoinLateral(existing, sql`true`)
      .leftJoinLateral(lastPaid, sql`true`)
      .where(inArray(subscriptions.organizationId, locked));
    const seen = new Set<string>();
    const single: string[] = [];
    let skipped = 0;
    const placing: { card: CardRow; values: PlacedRenewal }[] = [];
    for (const { sub, card, existing: prior, billing, profile } of rows) {
      seen.add(sub.organizationId);
      // What claimRenewal decides, in its order: not due; past due (a retry) or cancelled at period
      // end, to the single path; a period another run has settled or is charging now; anything else
      // but a plain renewal, to the single path.
      if (sub.currentPeriodEnd > at || (sub.status !== "active" && sub.status !== "past_due")) {
        skipped += 1;
        continue;
      }
      if (sub.status === "past_due" || sub.cancelAtPeriodEnd) {
        single.push(sub.organizationId);
        continue;
      }
      if (prior?.status && (prior.status !== "pending" || prior.live)) {
        skipped += 1;
        continue;
      }
      if (prior?.status || !card || sub.couponId) {
        single.push(sub.organizationId);
        continue;
      }
      const plan = getPlan(sub.scheduledPlan ?? sub.plan);
      // As renewalPricing without a coupon: the billing profile's VAT ID, else the last order's.
      const quote =
        plan && billing?.name
          ? quoteOrder({
              plan,
              interval: sub.interval,
              currency: sub.currency,
              country: billing.country ?? "",
              table: rates,
              coupon: null,
              vatId: profile?.organizationId ? profile.vatId : (billing.vatId ?? null),
              sellerCountry: getEnv().SELLER_COUNTRY ?? null,
            })
          : null;
      if (!plan || !billing?.name || !quote?.ok) {
        single.push(sub.organizationId);
        continue;
      }
      const q = quote.value;
      const periodStart = sub.currentPeriodEnd;
      placing.push({
        card,
        values: {
          organizationId: sub.organizationId,
          idempotencyKey: `renew:${periodStart.toISOString()}`,
          plan: plan.id === "free" ? sub.plan : plan.id,
          interval: sub.interval,
          ...orderAmounts(q),
          billingName: billing.name,
          billingCountry: q.country,
          vatId: q.vatId,
          status: "pending",
          kind: "renewal",
          periodStart,
          periodEnd: addPeriod(periodStart, sub.interval),
        } satisfies typeof orders.$inferInsert,
      });
    }
    // No subscription: the single path says so.
    for (const id of locked) if (!seen.has(id)) single.push(id);
    if (placing.length === 0) return { claimed: [], skipped, single, busy };
    const claimed = placing.map(({ card, values }) => ({ order: { ...values, id: randomUUID() }, card }));
    // Pipelined on the transaction's connection, run in this order (the payments name the orders).
    await Promise.all([
      tx.execute(
        unnestInsert(
          orders,
          claimed.map(({ order }) => order),
          PLACED_COLUMNS,
          { extra: { claimed_until: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` } },
        ),
      ),
      tx.execute(
        unnestInsert(
          payments,
          claimed.map(({ order, card }) => ({
            orderId: order.id,
            provider: card.provider,
            status: "unknown" as const,
            amountMinor: order.totalMinor,
            currency: order.currency,
            cardBrand: card.brand,
            cardLast4: card.last4,
          })),
          ["orderId", "provider", "status", "amountMinor", "currency", "cardBrand", "cardLast4"],
        ),
      ),
    ]);
    return { claimed, skipped, single, busy };
  });
}

/**
 * Renews a batch of subscriptions (at most `RENEWAL_BATCH`; the clock run's and the worker's
 * `billing_renew_batch` job's): claims the plain renewals together (`claimRenewalBatch`), charges
 * each with no transaction open, then settles them in one short transaction that takes their
 * organizations' locks (in a fixed order), reads them again, and settles every paid one together
 * (`settleRenewalsPaid`: one block of invoice numbers) and any other answer one by one as the single
 * path does. The rest of the batch goes through the single path, one by one: it waits for the lock
 * of an organization whose lock was held elsewhere, then finds its period renewed, or charging
 * under another run's claim ("skipped"), or still due. With `deferBusy`, those are returned instead
 * (`busy`), to be tried again later (by then, usually, another instance has renewed them). An
 * organization no longer due is "skipped". The attempts whose answer was lost are in `unanswered`.
 */
export async function renewBatch(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  organizationIds: readonly string[],
  at: Date,
  options: RenewalOptions & { deferBusy?: boolean },
): Promise<{ runs: RenewalRun[]; busy: string[]; unanswered: UnansweredRenewal[] }> {
  if (organizationIds.length > RENEWAL_BATCH)
    throw new Error(`A batch renews at most ${RENEWAL_BATCH} subscriptions`);
  const { mail, retryNow, deferBusy, ...receipt } = options;
  const key = await currentSigningKey(db);
  const runs: RenewalRun[] = [];
  const claim = await claimRenewalBatch(db, rates, organizationIds, at);
  const { claimed, skipped } = claim;
  const single = deferBusy ? claim.single : [...claim.single, ...claim.busy];
  for (let i = 0; i < skipped; i++) runs.push({ outcome: "skipped", retried: false, declined: false });
  if (claimed.length > 0) {
    const charges = await Promise.all(
      claimed.map(({ order, card }) => chargeRenewal(provider, order, card, 1, at)),
    );
    const notices = await db.transaction(async (tx) => {
      const ids = claimed.map(({ order }) => order.organizationId);
      await tx.execute(
        sql`select count(pg_advisory_xact_lock(${orgLockKey(sql`id`)}))
          from (select id from unnest(${textArray(ids)}) as t(id) order by id) as s`,
      );
      const current = await tx
        .select({
          order: orders,
          inFlight: sql<boolean>`exists (select 1 from ${payments} p where p.order_id = orders.id
            and p.status = 'unknown')`,
        })
        .from(orders)
        .where(
          inArray(
            orders.id,
            claimed.map(({ order }) => order.id),
          ),
        );
      const byId = new Map(current.map((row) => [row.order.id, row]));
      const settle = { key, ...receipt, paidAt: at };
      const paid: PaidRenewal[] = [];
      const rest: { row: { order: OrderRow; inFlight: boolean }; card: CardRow; charge: ChargeResult }[] = [];
      claimed.forEach(({ order, card }, i) => {
        const row = byId.get(order.id);
        const charge = charges[i];
        if (!row || !charge) throw new Error("The renewal order disappeared");
        if (
          charge.status === "succeeded" &&
          row.order.status === "pending" &&
          row.inFlight &&
          !charge.saved
        ) {
          paid.push({ order: row.order, reference: charge.reference });
        } else {
          rest.push({ row, card, charge });
        }
      });
      const settled = await settleRenewalsPaid(tx, paid, settle);
      for (const { order } of paid) {
        runs.push({
          outcome: settled.has(order.id) ? "renewed" : "skipped",
          retried: false,
          declined: false,
        });
      }
      const notices: DunningNotice[] = [];
      for (const { row, card, charge } of rest) {
        const one = await applyRenewalCharge(
          tx,
          row.order,
          Boolean(row.inFlight),
          { card, attempt: 1, retry: false },
          charge,
          settle,
        );
        if (one.run.outcome === "pending") one.run.unanswered = unanswered(row.order, 1, at);
        runs.push(one.run);
        if (one.notice) notices.push(one.notice);
      }
      return notices;
    });
    for (const notice of notices) await sendDunningNotice(mail, notice);
  }
  for (const organizationId of single) {
    runs.push(await renewOnce(db, provider, rates, organizationId, at, { ...receipt, mail, retryNow }));
  }
  return {
    runs,
    busy: deferBusy ? claim.busy : [],
    unanswered: runs.flatMap((run) => (run.unanswered ? [run.unanswered] : [])),
  };
}

/**
 * Renews the subscription's due period exactly once, however many instances run this at once: a
 * short transaction claims the period, the provider is called outside any transaction (no lock is
 * held while it answers), and a second short transaction settles the outcome. A crash after the
 * provider's answer leaves the order pending with its claim; once the claim lapses the next run
 * charges again under the same key, and the provider answers with the first charge.
 *
 * A declined renewal follows the dunning schedule (`src/core/billing/dunning.ts`): the subscription
 * is past due and this function, run again at `next_retry_at`, makes the next attempt, a new payment
 * row under its own key `renewalKey(…, attempt)`. The owners are mailed at each step.
 */
export async function renewSubscription(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  organizationId: string,
  at: Date,
  options: RenewalOptions = {},
): Promise<RenewalOutcome> {
  return (await renewOnce(db, provider, rates, organizationId, at, options)).outcome;
}

/**
 * Tries a past-due subscription's card again now (after an owner updated the card, say), as the
 * next attempt of the schedule: its own key, the same settlement and mails as the clock's retries.
 * A paid attempt restores the plan at once; a declined one keeps the schedule (or ends it after the
 * last attempt). "skipped" when the subscription is not past due or an attempt is in flight.
 */
export async function retryPastDueNow(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  organizationId: string,
  at: Date,
  options: Omit<RenewalOptions, "retryNow"> = {},
): Promise<RenewalOutcome> {
  const [sub] = await db
    .select({ status: subscriptions.status })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, organizationId));
  if (sub?.status !== "past_due") return "skipped";
  return renewSubscription(db, provider, rates, organizationId, at, { ...options, retryNow: true });
}

/**
 * One clock run: `due` subscriptions looked at (per pass), each outcome counted, and `retried` the
 * charges that were retries of a past-due period (whatever their outcome).
 */
export type ClockSummary = { at: string; due: number; retried: number } & Record<RenewalOutcome, number>;

/** Rounds of a clock pass: the organizations whose lock was held elsewhere are tried again. */
const BUSY_ROUNDS = 3;

/** Batches one clock run works on at once (each a claim, the charges, a settlement in turn). */
const CLOCK_WORKERS = 4;

/** A clock that jumps several periods renews them in turn, this many at most per subscription. */
const MAX_PASSES = 36;

/**
 * Runs every renewal due at `at` once: each active subscription whose period has ended and whose
 * next period has no settled renewal yet, and each past-due one whose retry is due; again while
 * that leaves something due (a clock that jumped several months renews each month in turn, and one
 * that jumped past the retry schedule makes each retry in turn).
 */
export async function runBillingClock(
  db: Db,
  provider: PaymentProvider,
  rates: RateTable | null,
  at: Date,
  options: RenewalOptions & { concurrency?: number } = {},
): Promise<ClockSummary> {
  const summary: ClockSummary = {
    at: at.toISOString(),
    due: 0,
    renewed: 0,
    failed: 0,
    retried: 0,
    downgraded: 0,
    ended: 0,
    pending: 0,
    skipped: 0,
  };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const due = await dueSubscriptions(db, at);
    summary.due += due.length;
    let progressed = false;
    // Each instance starts at its own random place in the list: instances that walk it in the same
    // order would queue on the same organizations' locks, one behind the other. An organization whose
    // lock is held elsewhere (another instance renewing it, say) is tried again after the rest, in a
    // later round; in the last round the single path waits for its lock.
    let list = due.map((row) => row.organizationId);
    for (let round = 1; round <= BUSY_ROUNDS && list.length > 0; round++) {
      const batches: string[][] = [];
      for (let i = 0; i < list.length; i += RENEWAL_BATCH) batches.push(list.slice(i, i + RENEWAL_BATCH));
      const busy: string[] = [];
      let next = 0;
      const start = batches.length > 0 ? randomInt(batches.length) : 0;
      const worker = async () => {
        for (let i = next++; i < batches.length; i = next++) {
          const batch = batches[(start + i) % batches.length];
          if (!batch) continue;
          const done = await renewBatch(db, provider, rates, batch, at, {
            ...options,
            deferBusy: round < BUSY_ROUNDS,
          });
          busy.push(...done.busy);
          for (const run of done.runs) {
            summary[run.outcome] += 1;
            if (run.retried) summary.retried += 1;
            // A renewal or a declined attempt may leave the next step due at the same instant.
            if (run.outcome === "renewed" || run.outcome === "failed") progressed = true;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? CLOCK_WORKERS) }, worker));
      list = busy;
    }
    if (!progressed) break;
  }
  return summary;
}

/**
 * Active subscriptions whose period has ended by `at` and whose next period has no settled or
 * failed renewal yet, and past-due ones whose next retry is due by `at`, oldest first: what the
 * test clock and the graphile-worker tick both renew. `attempt` is the number of declined attempts
 * so far (0 for a renewal), so each attempt has its own job.
 */
export async function dueSubscriptions(db: Db, at: Date) {
  return (
    db
      .select({
        organizationId: subscriptions.organizationId,
        periodStart: subscriptions.currentPeriodEnd,
        attempt: subscriptions.dunningAttempt,
      })
      .from(subscriptions)
      .where(
        or(
          and(
            eq(subscriptions.status, "active"),
            lte(subscriptions.currentPeriodEnd, at),
            sql`not exists (select 1 from ${orders} o where o.organization_id = ${subscriptions.organizationId}
              and o.period_start = date_trunc('milliseconds', ${subscriptions.currentPeriodEnd})
              and o.status <> 'pending')`,
          ),
          and(eq(subscriptions.status, "past_due"), lte(subscriptions.nextRetryAt, at)),
        ),
      )
      // Ties by organization: the same list in the same order for every tick at one instant.
      .orderBy(
        sql`coalesce(${subscriptions.nextRetryAt}, ${subscriptions.currentPeriodEnd})`,
        subscriptions.organizationId,
      )
      .limit(MAX_RENEWALS_PER_RUN)
  );
}
