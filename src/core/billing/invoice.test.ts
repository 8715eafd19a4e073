import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkLinesSum,
  formatDocumentNumber,
  type InvoiceSource,
  invoiceLines,
  parseDocumentNumber,
  REVERSE_CHARGE_NOTE,
  seriesKey,
  splitRefund,
} from "./invoice";

const base: InvoiceSource = {
  kind: "purchase",
  plan: "pro",
  interval: "monthly",
  subtotalMinor: 1900n,
  creditMinor: 0n,
  discountMinor: 0n,
  netMinor: 1900n,
  taxMinor: 361n,
  totalMinor: 2261n,
  taxRate: "19",
  reverseCharge: false,
  couponCode: null,
  periodStart: new Date("2026-01-31T10:00:00Z"),
  periodEnd: new Date("2026-02-28T10:00:00Z"),
};

describe("invoiceLines", () => {
  it("gives a purchase a plan line and a tax line that sum to the total", () => {
    const lines = invoiceLines(base);
    expect(lines.map((l) => [l.position, l.kind, l.amountMinor])).toEqual([
      [1, "plan", 1900n],
      [2, "tax", 361n],
    ]);
    expect(lines[0]?.description).toBe("Pro (monthly), 2026-01-31 to 2026-02-28");
    expect(lines[1]?.description).toBe("Tax 19 %");
    expect(checkLinesSum(lines, base)).toEqual({ ok: true });
  });

  it("splits a proration into the new plan's charge and the old plan's credit", () => {
    const source: InvoiceSource = {
      ...base,
      kind: "proration",
      plan: "team",
      subtotalMinor: 4117n,
      creditMinor: 1233n,
      netMinor: 2884n,
      taxMinor: 548n,
      totalMinor: 3432n,
    };
    const lines = invoiceLines(source);
    expect(lines.map((l) => [l.kind, l.amountMinor])).toEqual([
      ["proration_charge", 4117n],
      ["proration_credit", -1233n],
      ["tax", 548n],
    ]);
    expect(checkLinesSum(lines, source)).toEqual({ ok: true });
  });

  it("dates an interval change's credit with the old period's unused part and its charge with the new period", () => {
    const at = new Date("2026-02-18T10:00:00Z");
    const source: InvoiceSource = {
      ...base,
      kind: "proration",
      interval: "yearly",
      subtotalMinor: 19000n,
      creditMinor: 679n,
      netMinor: 18321n,
      taxMinor: 3481n,
      totalMinor: 21802n,
      periodStart: at,
      periodEnd: new Date("2027-02-18T10:00:00Z"),
      creditPeriodEnd: base.periodEnd,
    };
    const lines = invoiceLines(source);
    expect(lines.slice(0, 2)).toEqual([
      {
        position: 1,
        kind: "proration_charge",
        description: "Pro (yearly), 2026-02-18 to 2027-02-18",
        periodStart: at,
        periodEnd: new Date("2027-02-18T10:00:00Z"),
        amountMinor: 19000n,
      },
      {
        position: 2,
        kind: "proration_credit",
        description: "Unused time on the previous plan, 2026-02-18 to 2026-02-28",
        periodStart: at,
        periodEnd: base.periodEnd,
        amountMinor: -679n,
      },
    ]);
    expect(checkLinesSum(lines, source)).toEqual({ ok: true });
    // Within the same period (no interval change) both lines span the remaining time.
    const kept = invoiceLines({ ...source, interval: "monthly", periodEnd: base.periodEnd });
    expect(kept.slice(0, 2).map((l) => [l.description, l.periodEnd])).toEqual([
      ["Pro (monthly), remaining time 2026-02-18 to 2026-02-28", base.periodEnd],
      ["Unused time on the previous plan, 2026-02-18 to 2026-02-28", base.periodEnd],
    ]);
  });

  it("names the coupon on a negative discount line", () => {
    const source = {
      ...base,
      discountMinor: 190n,
      netMinor: 1710n,
      taxMinor: 325n,
      totalMinor: 2035n,
      couponCode: "WELCOME10",
    };
    const lines = invoiceLines(source);
    expect(lines.map((l) => [l.kind, l.amountMinor, l.description])).toContainEqual([
      "discount",
      -190n,
      "Discount (coupon WELCOME10)",
    ]);
    expect(checkLinesSum(lines, source)).toEqual({ ok: true });
  });

  it("prints the reverse-charge note on a zero tax line", () => {
    const source = { ...base, taxRate: "0", taxMinor: 0n, totalMinor: 1900n, reverseCharge: true };
    const tax = invoiceLines(source).at(-1);
    expect(tax).toMatchObject({ kind: "tax", amountMinor: 0n });
    expect(tax?.description).toContain(REVERSE_CHARGE_NOTE);
    expect(checkLinesSum(invoiceLines(source), source)).toEqual({ ok: true });
  });

  it("sums exactly to the total for any amounts that satisfy the order's constraints", () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
    fc.assert(
      fc.property(
        fc.constantFrom("purchase", "renewal", "proration" as const),
        amount,
        amount,
        amount,
        amount,
        fc.boolean(),
        (kind, subtotal, credit, discount, tax, reverseCharge) => {
          const net = subtotal - credit - discount;
          const taxMinor = reverseCharge ? 0n : tax;
          const source: InvoiceSource = {
            ...base,
            kind: kind as InvoiceSource["kind"],
            subtotalMinor: subtotal,
            creditMinor: credit,
            discountMinor: discount,
            netMinor: net,
            taxMinor,
            totalMinor: net + taxMinor,
            reverseCharge,
            couponCode: discount > 0n ? "X" : null,
          };
          const lines = invoiceLines(source);
          expect(checkLinesSum(lines, source)).toEqual({ ok: true });
          expect(lines.map((l) => l.position)).toEqual(lines.map((_, i) => i + 1));
        },
      ),
    );
  });
});

describe("checkLinesSum", () => {
  it("refuses lines that miss the total by one minor unit", () => {
    const lines = invoiceLines(base);
    const result = checkLinesSum(lines, { ...base, totalMinor: 2262n, taxMinor: 362n });
    expect(result).toEqual({ ok: false, message: "the lines sum to 2261, the total is 2262" });
  });

  it("refuses totals that do not add up, and tax lines that do not match the tax", () => {
    expect(checkLinesSum([], { netMinor: 1n, taxMinor: 1n, totalMinor: 3n }).ok).toBe(false);
    const moved = [
      { kind: "plan" as const, amountMinor: 2000n },
      { kind: "tax" as const, amountMinor: 261n },
    ];
    expect(checkLinesSum(moved, base)).toEqual({
      ok: false,
      message: "the tax lines sum to 261, the tax is 361",
    });
  });
});

describe("document numbers", () => {
  it("formats and reads back INV-2026-000042", () => {
    const series = seriesKey("INV", 2026);
    expect(series).toBe("INV-2026");
    expect(formatDocumentNumber(series, 42n)).toBe("INV-2026-000042");
    expect(formatDocumentNumber("CN-2027", 1)).toBe("CN-2027-000001");
    expect(formatDocumentNumber("INV-2026", 1_234_567n)).toBe("INV-2026-1234567");
    expect(parseDocumentNumber("INV-2026-000042")).toEqual({ series: "INV", year: 2026, value: 42n });
    expect(parseDocumentNumber("INV-2026-1234567")).toEqual({ series: "INV", year: 2026, value: 1_234_567n });
  });

  it("refuses what is not a document number", () => {
    expect(() => formatDocumentNumber("INV-2026", 0n)).toThrow(RangeError);
    expect(() => seriesKey("INV", 20260)).toThrow(RangeError);
    for (const text of [
      "INV-2026-42",
      "INV-2026-000000",
      "INV-2026-0000042",
      "XX-2026-000001",
      "inv-2026-000001",
      "",
    ]) {
      expect(parseDocumentNumber(text)).toBeUndefined();
    }
  });
});

describe("splitRefund", () => {
  const invoice = { netMinor: 1900n, taxMinor: 361n, totalMinor: 2261n };
  it("gives the tax share of a refund rounded half to even once, and the full amounts for a full refund", () => {
    expect(splitRefund(1000n, invoice)).toEqual({ netMinor: 840n, taxMinor: 160n, totalMinor: 1000n });
    expect(splitRefund(2261n, invoice)).toEqual({ netMinor: 1900n, taxMinor: 361n, totalMinor: 2261n });
    // 1 × 50 / 100 = 0.5 → 0 (even); 3 × 50 / 100 = 1.5 → 2 (even).
    expect(splitRefund(1n, { netMinor: 50n, taxMinor: 50n, totalMinor: 100n }).taxMinor).toBe(0n);
    expect(splitRefund(3n, { netMinor: 50n, taxMinor: 50n, totalMinor: 100n }).taxMinor).toBe(2n);
    expect(splitRefund(500n, { netMinor: 1000n, taxMinor: 0n, totalMinor: 1000n })).toEqual({
      netMinor: 500n,
      taxMinor: 0n,
      totalMinor: 500n,
    });
  });

  it("never splits into a negative part, and refuses amounts out of range", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (total, rawTax) => {
          const tax = rawTax % (total + 1n);
          const inv = { netMinor: total - tax, taxMinor: tax, totalMinor: total };
          const part = splitRefund(total / 2n + 1n > total ? total : total / 2n + 1n, inv);
          expect(part.netMinor >= 0n && part.taxMinor >= 0n && part.taxMinor <= tax).toBe(true);
          expect(part.netMinor + part.taxMinor).toBe(part.totalMinor);
        },
      ),
    );
    expect(() => splitRefund(0n, invoice)).toThrow(RangeError);
    expect(() => splitRefund(2262n, invoice)).toThrow(RangeError);
  });
});
