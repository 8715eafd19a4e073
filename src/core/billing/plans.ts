import Decimal from "decimal.js";
import { PLAN_NAMES } from "./plan-names";

/**
 * The plans, defined once. Prices are US dollars as decimal strings (never binary floats); a
 * yearly subscription costs ten months. Limits are per organization; `null` means unlimited.
 */
/** Plans that are paid for: every plan but Free. */
export const PAID_PLAN_IDS = ["pro", "team"] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];
export const PLAN_IDS = ["free", ...PAID_PLAN_IDS] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const BILLING_INTERVALS = ["monthly", "yearly"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export type PlanLimits = {
  apiCallsPerMonth: number;
  /** Keyed API calls allowed in any one second (a burst limit on top of the monthly quota). */
  apiBurstPerSecond: number;
  savedCalculations: number | null;
  members: number | null;
  /** CSV export of the calculation history. */
  csvExport: boolean;
};

export type Plan = {
  id: PlanId;
  name: string;
  tagline: string;
  monthlyUsd: string;
  limits: PlanLimits;
  highlights: string[];
};

export const YEARLY_MONTHS = 10;

export const plans: readonly Plan[] = [
  {
    id: "free",
    name: PLAN_NAMES.free,
    tagline: "For trying Abacus on your own numbers.",
    monthlyUsd: "0",
    limits: {
      apiCallsPerMonth: 1_000,
      apiBurstPerSecond: 5,
      savedCalculations: 100,
      members: 1,
      csvExport: false,
    },
    highlights: [
      "Decimal, currency and crypto calculator",
      "1,000 API calls a month",
      "100 saved calculations",
    ],
  },
  {
    id: "pro",
    name: PLAN_NAMES.pro,
    tagline: "For freelancers and small shops who bill in several currencies.",
    monthlyUsd: "12",
    limits: {
      apiCallsPerMonth: 50_000,
      apiBurstPerSecond: 20,
      savedCalculations: 10_000,
      members: 5,
      csvExport: true,
    },
    highlights: ["50,000 API calls a month", "10,000 saved calculations", "Up to 5 members", "CSV export"],
  },
  {
    id: "team",
    name: PLAN_NAMES.team,
    tagline: "For finance and ops teams who need every cent to reconcile.",
    monthlyUsd: "39",
    limits: {
      apiCallsPerMonth: 500_000,
      apiBurstPerSecond: 50,
      savedCalculations: null,
      members: null,
      csvExport: true,
    },
    highlights: [
      "500,000 API calls a month",
      "Unlimited saved calculations",
      "Unlimited members",
      "Priority support",
    ],
  },
];

export type FeatureRow = { label: string; values: Record<PlanId, string | boolean> };

const formatLimit = (value: number | null) => (value === null ? "Unlimited" : value.toLocaleString("en-US"));

export const featureTable: readonly FeatureRow[] = [
  {
    label: "API calls per month",
    values: Object.fromEntries(plans.map((p) => [p.id, formatLimit(p.limits.apiCallsPerMonth)])) as Record<
      PlanId,
      string
    >,
  },
  {
    label: "Saved calculations",
    values: Object.fromEntries(plans.map((p) => [p.id, formatLimit(p.limits.savedCalculations)])) as Record<
      PlanId,
      string
    >,
  },
  {
    label: "Organization members",
    values: Object.fromEntries(plans.map((p) => [p.id, formatLimit(p.limits.members)])) as Record<
      PlanId,
      string
    >,
  },
  { label: "Precision up to 1,000 digits", values: { free: true, pro: true, team: true } },
  { label: "Every ISO 4217 currency", values: { free: true, pro: true, team: true } },
  { label: "Crypto workbench (in your browser)", values: { free: true, pro: true, team: true } },
  { label: "Signed, verifiable receipts", values: { free: false, pro: true, team: true } },
  {
    label: "CSV export of history",
    values: Object.fromEntries(plans.map((p) => [p.id, p.limits.csvExport])) as Record<PlanId, boolean>,
  },
  { label: "Priority support", values: { free: false, pro: false, team: true } },
];

export function getPlan(id: string): Plan | undefined {
  return plans.find((plan) => plan.id === id);
}

/** The plan of an id read from storage; anything unknown is the Free plan. */
export function planOf(id: string | null | undefined): Plan {
  return getPlan(id ?? "free") ?? (plans[0] as Plan);
}

/** The cheapest plan whose `limit` allows more than `used` (the upgrade a limit message offers). */
export function upgradeFor(current: PlanId, fits: (limits: PlanLimits) => boolean): Plan | undefined {
  const from = PLAN_IDS.indexOf(current);
  return plans.find((plan, index) => index > from && fits(plan.limits));
}

/** Whether `used` items leave room for one more under `limit` (`null` is unlimited). */
export function hasRoom(limit: number | null, used: number): boolean {
  return limit === null || used < limit;
}

/** The USD price of a plan for one billing interval, as an exact decimal string. */
export function planPriceUsd(plan: Plan, interval: BillingInterval): string {
  const monthly = new Decimal(plan.monthlyUsd);
  return (interval === "yearly" ? monthly.times(YEARLY_MONTHS) : monthly).toFixed(2);
}
