import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CouponTerms } from "./coupon";
import { classifyChange, epochSeconds, prorate, prorationDiscount } from "./proration";
import { addPeriod } from "./subscription";

const PERIOD_START = new Date("2026-11-01T00:00:00Z");
const PERIOD_END = addPeriod(PERIOD_START, "monthly"); // 30 days = 2,592,000 s

describe("prorate (worked example in the docs)", () => {
  it("Pro → Team monthly, 10 of 30 days left: credit 3.33 €, charge 10.83 €", () => {
    // Pro paid 10.00 € (1000), Team costs 32.50 € (3250) a month; 10 days of 30 are left.
    const p = prorate({
      paid: 1000n,
      coveredStart: PERIOD_START,
      periodStart: PERIOD_START,
      periodEnd: PERIOD_END,
      newPrice: 3250n,
      currentInterval: "monthly",
      newInterval: "monthly",
      at: new Date("2026-11-21T00:00:00Z"),
    });
    // 1000 × 864000 / 2592000 = 333.33… → 333; 3250 × 864000 / 2592000 = 1083.33… → 1083.
    expect(p).toMatchObject({ credit: 333n, charge: 1083n, restarts: false, unusedSeconds: 864_000n });
    expect(p.periodEnd).toEqual(PERIOD_END);
  });

  it("monthly → yearly restarts the period at the change and charges the whole year", () => {
    const at = new Date("2026-11-16T00:00:00.900Z");
    const p = prorate({
      paid: 1000n,
      coveredStart: PERIOD_START,
      periodStart: PERIOD_START,
      periodEnd: PERIOD_END,
      newPrice: 10000n,
      currentInterval: "monthly",
      newInterval: "yearly",
      at,
    });
    expect(p).toMatchObject({ credit: 500n, charge: 10000n, restarts: true });
    // Exact to the second: the milliseconds are dropped.
    expect(p.periodStart.toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(p.periodEnd.toISOString()).toBe("2027-11-16T00:00:00.000Z");
  });

  it("rounds half-even once (2.5 → 2, 3.5 → 4)", () => {
    const base = {
      coveredStart: new Date(0),
      periodStart: new Date(0),
      periodEnd: new Date(4000),
      currentInterval: "monthly",
      newInterval: "monthly",
      at: new Date(2000),
    } as const;
    expect(prorate({ ...base, paid: 5n, newPrice: 7n })).toMatchObject({ credit: 2n, charge: 4n });
  });

  it("refuses a change outside the paid span", () => {
    const base = {
      paid: 100n,
      coveredStart: PERIOD_START,
      periodStart: PERIOD_START,
      periodEnd: PERIOD_END,
      newPrice: 200n,
      currentInterval: "monthly",
      newInterval: "monthly",
    } as const;
    expect(() => prorate({ ...base, at: new Date(PERIOD_END.getTime() + 1000) })).toThrow(RangeError);
    expect(() => prorate({ ...base, at: new Date(PERIOD_START.getTime() - 1000) })).toThrow(RangeError);
  });
});

describe("prorationDiscount (the subscription's coupon on the charge)", () => {
  const tenDaysLeft = prorate({
    paid: 900n,
    coveredStart: PERIOD_START,
    periodStart: PERIOD_START,
    periodEnd: PERIOD_END,
    newPrice: 3250n,
    currentInterval: "monthly",
    newInterval: "monthly",
    at: new Date("2026-11-21T00:00:00Z"),
  });
  const percent = (p: string): CouponTerms => ({
    id: "c1",
    code: "TENOFF",
    kind: "percent",
    percentOff: p,
    amountMinor: null,
  });
  const fixed = (amountMinor: bigint): CouponTerms => ({
    id: "c2",
    code: "FIVE",
    kind: "fixed",
    percentOff: null,
    amountMinor,
  });

  it("takes a percentage of the charge, rounded once half-even", () => {
    // Charge 1083 (10 of 30 days of 32.50 €); 10 % = 108.3 → 108; 12.5 % = 135.375 → 135.
    expect(tenDaysLeft.charge).toBe(1083n);
    expect(prorationDiscount(percent("10"), tenDaysLeft, "EUR")).toEqual({ amount: 108n, currency: "EUR" });
    expect(prorationDiscount(percent("12.5"), tenDaysLeft, "EUR").amount).toBe(135n);
    // Net 1083 − 300 (credit: 900 × 1/3) − 108 = 675.
    expect(tenDaysLeft.credit).toBe(300n);
  });

  it("takes a fixed amount for the part of the period charged, or whole when the period restarts", () => {
    // 5.00 € a period, 10 of 30 days: 500 × 864000 / 2592000 = 166.67 → 167.
    expect(prorationDiscount(fixed(500n), tenDaysLeft, "EUR").amount).toBe(167n);
    // 1.25 € × 1/3 = 41.666… → 42; 0.03 € × 1/3 = 0.01 exactly.
    expect(prorationDiscount(fixed(125n), tenDaysLeft, "EUR").amount).toBe(42n);
    expect(prorationDiscount(fixed(3n), tenDaysLeft, "EUR").amount).toBe(1n);
    const restarted = prorate({
      paid: 900n,
      coveredStart: PERIOD_START,
      periodStart: PERIOD_START,
      periodEnd: PERIOD_END,
      newPrice: 9000n,
      currentInterval: "monthly",
      newInterval: "yearly",
      at: new Date("2026-11-21T00:00:00Z"),
    });
    expect(prorationDiscount(fixed(500n), restarted, "EUR").amount).toBe(500n);
    expect(prorationDiscount(percent("25"), restarted, "EUR").amount).toBe(2250n);
  });

  it("never exceeds the charge", () => {
    expect(prorationDiscount(fixed(1_000_000n), tenDaysLeft, "EUR").amount).toBe(1083n);
    expect(prorationDiscount(percent("100"), tenDaysLeft, "EUR").amount).toBe(1083n);
  });
});

describe("classifyChange", () => {
  it("upgrades raise the plan or lengthen the interval without lowering the other", () => {
    expect(classifyChange({ plan: "pro", interval: "monthly" }, { plan: "team", interval: "monthly" })).toBe(
      "upgrade",
    );
    expect(classifyChange({ plan: "pro", interval: "monthly" }, { plan: "pro", interval: "yearly" })).toBe(
      "upgrade",
    );
    expect(classifyChange({ plan: "team", interval: "monthly" }, { plan: "pro", interval: "yearly" })).toBe(
      "downgrade",
    );
    expect(classifyChange({ plan: "pro", interval: "yearly" }, { plan: "team", interval: "monthly" })).toBe(
      "downgrade",
    );
    expect(classifyChange({ plan: "team", interval: "yearly" }, { plan: "team", interval: "yearly" })).toBe(
      "same",
    );
  });
});

const YEAR_S = 366 * 86_400;
/** A period (monthly or yearly), a covered span inside it, a change instant inside that, and prices. */
const scenario = fc
  .record({
    startS: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
    currentInterval: fc.constantFrom("monthly" as const, "yearly" as const),
    newInterval: fc.constantFrom("monthly" as const, "yearly" as const),
    coveredFrac: fc.double({ min: 0, max: 0.999, noNaN: true }),
    atFrac: fc.double({ min: 0, max: 1, noNaN: true }),
    paid: fc.bigInt({ min: 0n, max: 10n ** 15n }),
    newPrice: fc.bigInt({ min: 0n, max: 10n ** 15n }),
  })
  .map((r) => {
    const periodStart = new Date(r.startS * 1000);
    const periodEnd = addPeriod(periodStart, r.currentInterval);
    const len = (periodEnd.getTime() - periodStart.getTime()) / 1000;
    // Whole seconds only: the fractions pick instants, the amounts stay bigint.
    const coveredS = r.startS + Math.min(len - 1, Math.floor(len * r.coveredFrac));
    const atS = coveredS + Math.floor((r.startS + len - coveredS) * r.atFrac);
    return {
      paid: r.paid,
      newPrice: r.newPrice,
      currentInterval: r.currentInterval,
      newInterval: r.newInterval,
      periodStart,
      periodEnd,
      coveredStart: new Date(coveredS * 1000),
      at: new Date(atS * 1000),
    };
  });

/** Rounding once, half-even, of n / d (d > 0, n ≥ 0), as the reference. */
function halfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r2 = (n % d) * 2n;
  if (r2 > d || (r2 === d && q % 2n === 1n)) return q + 1n;
  return q;
}

describe("prorate (properties)", () => {
  it("never credits more than was paid, and credit + the used part = paid", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const p = prorate(s);
        const used = s.paid - p.credit;
        expect(p.credit >= 0n && p.credit <= s.paid).toBe(true);
        expect(used >= 0n).toBe(true);
        expect(p.credit + used).toBe(s.paid);
      }),
      { numRuns: 500 },
    );
  });

  it("rounds each amount once from the exact fraction of seconds", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const p = prorate(s);
        const end = epochSeconds(s.periodEnd);
        const unused = end - epochSeconds(s.at);
        const exactCredit = halfEven(s.paid * unused, end - epochSeconds(s.coveredStart));
        expect(p.credit).toBe(exactCredit);
        // Within half a minor unit of the exact value: a second rounding could drift further.
        const twice = 2n * p.credit * (end - epochSeconds(s.coveredStart)) - 2n * s.paid * unused;
        expect(twice < 0n ? -twice : twice).toBeLessThanOrEqual(end - epochSeconds(s.coveredStart));
        if (!p.restarts) {
          expect(p.charge).toBe(halfEven(s.newPrice * unused, end - epochSeconds(s.periodStart)));
          expect(p.periodEnd).toEqual(s.periodEnd);
        } else {
          expect(p.charge).toBe(s.newPrice);
          expect(epochSeconds(p.periodEnd) - epochSeconds(p.periodStart)).toBeLessThanOrEqual(YEAR_S);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is zero at the period end, and the whole payment at the start of the covered span", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const atEnd = prorate({ ...s, at: s.periodEnd });
        expect(atEnd.credit).toBe(0n);
        if (!atEnd.restarts) expect(atEnd.charge).toBe(0n);
        expect(prorate({ ...s, at: s.coveredStart }).credit).toBe(s.paid);
      }),
      { numRuns: 300 },
    );
  });

  it("credits less the later the change comes", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 86_400 }), (s, later) => {
        const next = new Date(Math.min(s.at.getTime() + later * 1000, s.periodEnd.getTime()));
        expect(prorate({ ...s, at: next }).credit <= prorate(s).credit).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
