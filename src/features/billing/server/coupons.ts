import "server-only";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import {
  type CouponRecord,
  type CouponTerms,
  checkRedeemable,
  couponAfterCharge,
  couponPeriods,
  type Redeemable,
} from "@/core/billing/coupon";
import type { CouponDuration, CouponKind } from "@/core/billing/vocabulary";
import { formatMoney } from "@/core/money";
import { fail, ok, type Result } from "@/core/result";
import type { Db, Tx } from "@/server/db/client";
import {
  billingProfiles,
  couponAmounts,
  couponRedemptions,
  coupons,
  orders,
  subscriptions,
} from "@/server/db/schema";
import { getEnv } from "@/server/env";
import type { OrderRow } from "./outcome";

type Reader = Db | Tx;
type CouponRow = typeof coupons.$inferSelect;

async function withAmounts(db: Reader, row: CouponRow): Promise<CouponRecord> {
  const amounts = await db
    .select({ currency: couponAmounts.currency, amountMinor: couponAmounts.amountMinor })
    .from(couponAmounts)
    .where(eq(couponAmounts.couponId, row.id));
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percentOff: row.percentOff,
    duration: row.duration,
    durationPeriods: row.durationPeriods,
    expiresAt: row.expiresAt,
    maxRedemptions: row.maxRedemptions,
    redemptionCount: row.redemptionCount,
    active: row.active,
    amounts: Object.fromEntries(amounts.map((a) => [a.currency, a.amountMinor])),
  };
}

async function usedBy(db: Reader, couponId: string, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: couponRedemptions.id })
    .from(couponRedemptions)
    .where(
      and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.organizationId, organizationId)),
    );
  return Boolean(row);
}

export interface RedemptionContext {
  code: string;
  organizationId: string;
  currency: string;
  now: Date;
}

/**
 * Whether a typed code may be redeemed, checked inside the transaction that places the order with
 * the coupon's row locked until it commits: concurrent redemptions of one coupon queue here, so its
 * cap holds however many checkouts run at once. Follow with `recordRedemption` in that transaction.
 */
export async function lockCoupon(tx: Tx, context: RedemptionContext): Promise<Redeemable> {
  const [row] = await tx.select().from(coupons).where(eq(coupons.code, context.code)).for("update");
  return redeemable(tx, row ?? null, context);
}

/**
 * The same check as `lockCoupon`, without a lock and without redeeming anything: what the checkout's
 * preview shows. Placing the order checks again under the lock, so a preview never grants a discount.
 */
export async function peekCoupon(db: Reader, context: RedemptionContext): Promise<Redeemable> {
  const [row] = await db.select().from(coupons).where(eq(coupons.code, context.code));
  return redeemable(db, row ?? null, context);
}

async function redeemable(db: Reader, row: CouponRow | null, context: RedemptionContext) {
  const record = row ? await withAmounts(db, row) : null;
  return checkRedeemable(context.code, record, {
    currency: context.currency,
    now: context.now,
    usedByOrganization: record ? await usedBy(db, record.id, context.organizationId) : false,
  });
}

/** One redemption: its row (one per coupon and organization) and the coupon's count. */
export async function recordRedemption(tx: Tx, couponId: string, organizationId: string, orderId: string) {
  await tx.insert(couponRedemptions).values({ couponId, organizationId, orderId });
  await tx
    .update(coupons)
    .set({ redemptionCount: sql`${coupons.redemptionCount} + 1` })
    .where(eq(coupons.id, couponId));
}

/**
 * A checkout that failed for good gives its redemption back (the organization may try again, and the
 * cap counts paid or pending orders only). A no-op for orders that redeemed nothing.
 */
export async function releaseRedemption(tx: Tx, orderId: string) {
  const [released] = await tx
    .delete(couponRedemptions)
    .where(eq(couponRedemptions.orderId, orderId))
    .returning({ couponId: couponRedemptions.couponId });
  if (!released) return;
  await tx
    .update(coupons)
    .set({ redemptionCount: sql`greatest(${coupons.redemptionCount} - 1, 0)` })
    .where(eq(coupons.id, released.couponId));
}

/**
 * The subscription's coupon once `order` is paid (spread into the subscription it settles): a
 * purchase starts the coupon it redeemed (or none), a renewal uses up one of its charges; a
 * proration leaves it as it is. Counted from the paid orders that carry the coupon, so settling the
 * same order twice cannot count it twice.
 */
export async function couponStateAfterPaid(
  tx: Tx,
  order: OrderRow,
): Promise<{ couponId?: string | null; discountPeriodsLeft?: number | null }> {
  if (order.kind === "proration") return {};
  if (!order.couponId) return { couponId: null, discountPeriodsLeft: null };
  const [coupon] = await tx
    .select({ duration: coupons.duration, periods: coupons.durationPeriods })
    .from(coupons)
    .where(eq(coupons.id, order.couponId));
  if (!coupon) return { couponId: null, discountPeriodsLeft: null };
  const [discounted] = await tx
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        eq(orders.organizationId, order.organizationId),
        eq(orders.couponId, order.couponId),
        eq(orders.status, "paid"),
        inArray(orders.kind, ["purchase", "renewal"]),
      ),
    );
  return couponAfterCharge(
    order.couponId,
    couponPeriods(coupon.duration, coupon.periods),
    discounted?.n ?? 1,
  );
}

/**
 * What a renewal is priced with besides the plan: the subscription's coupon while it has charges
 * left (whatever has happened to the coupon since: expiry and deactivation stop new redemptions,
 * not discounts already granted), the organization's VAT ID (its billing profile, else the last
 * order's) and the seller's country, for the reverse charge.
 */
export async function renewalPricing(
  tx: Reader,
  organizationId: string,
  currency: string,
  lastVatId: string | null,
): Promise<{ coupon: CouponTerms | null; vatId: string | null; sellerCountry: string | null }> {
  const [profile] = await tx
    .select({ vatId: billingProfiles.vatId })
    .from(billingProfiles)
    .where(eq(billingProfiles.organizationId, organizationId));
  const vatId = profile ? profile.vatId : lastVatId;
  const sellerCountry = getEnv().SELLER_COUNTRY ?? null;
  return { coupon: await subscriptionCoupon(tx, organizationId, currency), vatId, sellerCountry };
}

/**
 * The coupon a subscription still carries (it has charges left, or is forever: a used-up coupon is
 * cleared from the subscription), as terms in `currency`; null without one. Its proration charges
 * are discounted with it too (`prorationDiscount`), as Stripe discounts the prorations it invoices.
 */
export async function subscriptionCoupon(
  tx: Reader,
  organizationId: string,
  currency: string,
): Promise<CouponTerms | null> {
  const [sub] = await tx
    .select({ couponId: subscriptions.couponId })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, organizationId));
  return couponTerms(tx, sub?.couponId ?? null, currency);
}

async function couponTerms(
  tx: Reader,
  couponId: string | null,
  currency: string,
): Promise<CouponTerms | null> {
  if (!couponId) return null;
  const [row] = await tx.select().from(coupons).where(eq(coupons.id, couponId));
  if (!row) return null;
  const record = await withAmounts(tx, row);
  const amountMinor = record.kind === "fixed" ? (record.amounts[currency.toUpperCase()] ?? null) : null;
  if (record.kind === "fixed" && amountMinor === null) return null;
  return { id: record.id, code: record.code, kind: record.kind, percentOff: record.percentOff, amountMinor };
}

/** Keeps the organization's billing details for its renewals (address and email stay as they are). */
export async function saveBillingDetails(
  tx: Tx,
  organizationId: string,
  billing: { name: string; country: string; vatId: string | null },
) {
  const values = {
    name: billing.name,
    country: billing.country,
    vatId: billing.vatId,
    updatedAt: new Date(),
  };
  await tx
    .insert(billingProfiles)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: billingProfiles.organizationId, set: values });
}

// ---- Administration ------------------------------------------------------------------------------

export const COUPON_LIST_LIMIT = 100;

export interface NewCoupon {
  code: string;
  kind: CouponKind;
  percentOff: string | null;
  /** Fixed coupons: currency → minor units. */
  amounts: Record<string, bigint>;
  duration: CouponDuration;
  durationPeriods: number | null;
  expiresAt: Date | null;
  maxRedemptions: number | null;
}

/** Creates a coupon and its amounts in one transaction; a code in use is refused by name. */
export async function createCoupon(
  db: Db,
  input: NewCoupon,
  createdBy: string | null,
): Promise<Result<{ id: string; code: string }>> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(coupons)
      .values({
        code: input.code,
        kind: input.kind,
        percentOff: input.kind === "percent" ? input.percentOff : null,
        duration: input.duration,
        durationPeriods: input.duration === "repeating" ? input.durationPeriods : null,
        expiresAt: input.expiresAt,
        maxRedemptions: input.maxRedemptions,
        createdBy,
      })
      .onConflictDoNothing({ target: coupons.code })
      .returning({ id: coupons.id, code: coupons.code });
    if (!created) {
      return fail(`The code ${input.code} exists already.`, {
        fieldErrors: { code: `The code ${input.code} exists already.` },
      });
    }
    if (input.kind === "fixed") {
      const rows = Object.entries(input.amounts).map(([currency, amountMinor]) => ({
        couponId: created.id,
        currency,
        amountMinor,
      }));
      if (rows.length > 0) await tx.insert(couponAmounts).values(rows);
    }
    return ok(created);
  });
}

export interface CouponListRow {
  id: string;
  code: string;
  /** "25 %" or "USD 5.00, EUR 4.00". */
  value: string;
  duration: string;
  expires: string | null;
  redemptions: string;
  state: "active" | "inactive" | "expired" | "exhausted";
  createdAt: string;
}

function durationLabel(duration: CouponDuration, periods: number | null): string {
  if (duration === "once") return "First charge";
  if (duration === "forever") return "Every charge";
  return periods === 1 ? "1 charge" : `${periods} charges`;
}

/** The newest coupons (at most `COUPON_LIST_LIMIT`), formatted for the admin table. */
export async function listCoupons(db: Db, now: Date = new Date()): Promise<CouponListRow[]> {
  const rows = await db.select().from(coupons).orderBy(desc(coupons.createdAt)).limit(COUPON_LIST_LIMIT);
  const ids = rows.map((r) => r.id);
  const amounts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(couponAmounts)
          .where(inArray(couponAmounts.couponId, ids))
          .orderBy(couponAmounts.currency);
  return rows.map((row) => {
    const value =
      row.kind === "percent"
        ? `${row.percentOff} %`
        : amounts
            .filter((a) => a.couponId === row.id)
            .map((a) => formatMoney({ amount: a.amountMinor, currency: a.currency }, { locale: "en-US" }))
            .join(", ");
    const state: CouponListRow["state"] = !row.active
      ? "inactive"
      : row.expiresAt && row.expiresAt <= now
        ? "expired"
        : row.maxRedemptions !== null && row.redemptionCount >= row.maxRedemptions
          ? "exhausted"
          : "active";
    return {
      id: row.id,
      code: row.code,
      value,
      duration: durationLabel(row.duration, row.durationPeriods),
      expires: row.expiresAt ? row.expiresAt.toISOString().slice(0, 10) : null,
      redemptions: `${row.redemptionCount}${row.maxRedemptions === null ? "" : ` / ${row.maxRedemptions}`}`,
      state,
      createdAt: row.createdAt.toISOString().slice(0, 10),
    };
  });
}

/** Stops new redemptions of a coupon; subscriptions that redeemed it keep their discount. */
export async function deactivateCoupon(db: Db, id: string): Promise<Result<{ code: string }>> {
  const [row] = await db
    .update(coupons)
    .set({ active: false })
    .where(eq(coupons.id, id))
    .returning({ code: coupons.code });
  return row ? ok({ code: row.code }) : fail("There is no such coupon.");
}
