/**
 * Proration of an immediate plan change (an upgrade). Pure and exact: instants are counted in whole
 * seconds, every fraction is kept as integers, and each amount is rounded once, half-even, to the
 * currency's minor units. The formula and a worked example are in the product docs
 * (content/docs/600-plans-and-billing.md).
 *
 * - credit = paid × unused ÷ covered: the unused part of what was actually paid for the current
 *   plan, where `paid` (net, before tax) covered `coveredStart`..`periodEnd` and `unused` is
 *   `at`..`periodEnd`.
 * - charge, same interval (the period is kept): newPrice × unused ÷ (periodEnd − periodStart).
 * - charge, interval change (the period restarts at `at`, as Stripe does): the whole newPrice for a
 *   new period `at`..addPeriod(at, newInterval).
 * - discount (`prorationDiscount`), while the subscription's coupon still has charges left or is
 *   forever: a percentage of the charge, or a fixed amount for the part of a period charged.
 */
import type { Money } from "../money";
import { roundDiv } from "../money/rational";
import { type CouponTerms, couponDiscount } from "./coupon";
import { type BillingInterval, PLAN_IDS, type PlanId } from "./plans";
import { PRICE_ROUNDING } from "./pricing";
import { addPeriod } from "./subscription";

export interface ProrationInput {
  /** Net minor units actually paid for the current plan (before tax), covering coveredStart..periodEnd. */
  readonly paid: bigint;
  readonly coveredStart: Date;
  /** The current billing period. */
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** The new plan's net price for one whole period of the new interval, in the same currency. */
  readonly newPrice: bigint;
  readonly currentInterval: BillingInterval;
  readonly newInterval: BillingInterval;
  /** When the change takes effect. */
  readonly at: Date;
}

export interface Proration {
  /** Credit for the unused time of the old plan (≥ 0, ≤ paid). */
  readonly credit: bigint;
  /** Charge for the new plan's time until the (possibly new) period end. */
  readonly charge: bigint;
  /** Whether the billing period restarts at `at` (an interval change). */
  readonly restarts: boolean;
  /** The period after the change. */
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** Seconds of the old period left at `at` and the seconds the payment covered. */
  readonly unusedSeconds: bigint;
  readonly coveredSeconds: bigint;
}

/** Whole seconds since the epoch (a change is exact to the second; milliseconds are dropped). */
export function epochSeconds(d: Date): bigint {
  return BigInt(Math.floor(d.getTime() / 1000));
}

export function prorate(input: ProrationInput): Proration {
  const { paid, newPrice } = input;
  if (paid < 0n || newPrice < 0n) throw new RangeError("Prices cannot be negative");
  const start = epochSeconds(input.periodStart);
  const end = epochSeconds(input.periodEnd);
  const covered0 = epochSeconds(input.coveredStart);
  const at = epochSeconds(input.at);
  if (!(start < end) || covered0 < start || covered0 >= end) {
    throw new RangeError("The covered span must lie inside a non-empty period");
  }
  if (at < covered0 || at > end) throw new RangeError("The change must fall inside the paid span");
  const unused = end - at;
  const covered = end - covered0;
  const credit = roundDiv(paid * unused, covered, PRICE_ROUNDING);
  const restarts = input.newInterval !== input.currentInterval;
  if (restarts) {
    const from = new Date(Number(at) * 1000);
    return {
      credit,
      charge: newPrice,
      restarts,
      periodStart: from,
      periodEnd: addPeriod(from, input.newInterval),
      unusedSeconds: unused,
      coveredSeconds: covered,
    };
  }
  return {
    credit,
    charge: roundDiv(newPrice * unused, end - start, PRICE_ROUNDING),
    restarts,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    unusedSeconds: unused,
    coveredSeconds: covered,
  };
}

/**
 * The subscription's coupon on a proration's charge, as on the new plan's own charge: a percentage is
 * `round(charge × p / 100)` (the credit is already net of the discount paid before); a fixed amount
 * is per period, so a same-interval change takes `round(amount × unused ÷ period)` and a restarted
 * period the whole amount. Rounded once, half-even; never above the charge, so the net stays at least
 * what the credit leaves.
 */
export function prorationDiscount(coupon: CouponTerms, proration: Proration, currency: string): Money {
  const charge: Money = { amount: proration.charge, currency };
  if (coupon.kind === "percent" || proration.restarts) return couponDiscount(coupon, charge, PRICE_ROUNDING);
  if (coupon.amountMinor === null || coupon.amountMinor <= 0n) {
    throw new RangeError(`Coupon ${coupon.code} has no amount in ${currency}`);
  }
  const period = epochSeconds(proration.periodEnd) - epochSeconds(proration.periodStart);
  const part = roundDiv(coupon.amountMinor * proration.unusedSeconds, period, PRICE_ROUNDING);
  return couponDiscount({ ...coupon, amountMinor: part }, charge, PRICE_ROUNDING);
}

const RANK: Record<PlanId, number> = Object.fromEntries(PLAN_IDS.map((p, i) => [p, i])) as Record<
  PlanId,
  number
>;
const INTERVAL_RANK: Record<BillingInterval, number> = { monthly: 0, yearly: 1 };

export type ChangeKind = "same" | "upgrade" | "downgrade";

/**
 * An upgrade raises the plan or lengthens the interval without lowering the other, and takes effect
 * at once; anything that lowers either waits for the period end; the same plan and interval is no
 * change.
 */
export function classifyChange(
  current: { plan: PlanId; interval: BillingInterval },
  target: { plan: PlanId; interval: BillingInterval },
): ChangeKind {
  const dp = RANK[target.plan] - RANK[current.plan];
  const di = INTERVAL_RANK[target.interval] - INTERVAL_RANK[current.interval];
  if (dp === 0 && di === 0) return "same";
  return dp >= 0 && di >= 0 ? "upgrade" : "downgrade";
}
