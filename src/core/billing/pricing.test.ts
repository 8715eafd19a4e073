import { describe, expect, it } from "vitest";
import { type RateTable, toDecimalString } from "../money";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { checkCard, detectBrand, formatCardNumber } from "./card";
import { getPlan, type Plan } from "./plans";
import { applyTax, planPrice, quoteOrder, yearlyTerms } from "./pricing";
import { addPeriod, downgradeTargets, effectivePlan } from "./subscription";
import {
  standardTaxRate,
  TAX_COUNTRIES,
  TAX_RATE_ENTRIES,
  TAX_RATE_REFERENCES,
  TAX_RATES_DATE,
  TAX_RATES_SOURCE,
} from "./tax-rates";
import { TEST_CARDS } from "./test-cards";

const pro = getPlan("pro") as Plan;
const team = getPlan("team") as Plan;
// A table with three-decimal currencies (the ECB publishes none of them): 1 EUR = 1.2 USD,
// 0.4512 BHD, 0.3555 KWD, 180.5 JPY.
const table: RateTable = {
  base: "EUR",
  date: "2026-11-20",
  rates: { USD: "1.2", BHD: "0.4512", KWD: "0.3555", JPY: "180.5", GBP: "0.85" },
};
const show = (r: ReturnType<typeof planPrice>) => (r.ok ? toDecimalString(r.value.price) : r.error.code);

describe("planPrice", () => {
  it("converts the USD base exactly and rounds once to zero, two and three decimals", () => {
    // 12 USD = 10 EUR; × 180.5 = 1805 JPY exactly. 120 USD = 100 EUR.
    expect(show(planPrice(pro, "monthly", "JPY", table))).toBe("1805");
    expect(show(planPrice(pro, "monthly", "EUR", table))).toBe("10.00");
    expect(show(planPrice(pro, "monthly", "USD", table))).toBe("12.00");
    expect(show(planPrice(pro, "monthly", "BHD", table))).toBe("4.512");
    expect(show(planPrice(pro, "yearly", "KWD", table))).toBe("35.550");
    // 39 USD = 32.5 EUR; × 0.4512 = 14.664 BHD exactly; × 0.3555 = 11.55375 → 11.554 KWD
    expect(show(planPrice(team, "monthly", "BHD", table))).toBe("14.664");
    expect(show(planPrice(team, "monthly", "KWD", table))).toBe("11.554");
    // 32.5 × 180.5 = 5866.25 JPY → 5866 (one rounding, half-even)
    expect(show(planPrice(team, "monthly", "JPY", table))).toBe("5866");
    // 32.5 × 0.85 = 27.625 GBP → 27.62 (half-even: the 2 is even)
    expect(show(planPrice(team, "monthly", "GBP", table))).toBe("27.62");
  });

  it("uses the committed ECB snapshot like the pricing page", () => {
    // 12 × 181.42 / 1.1582 = 1879.67… → 1880 JPY; the record keeps the rate and its date.
    const r = planPrice(pro, "monthly", "JPY", ECB_SNAPSHOT);
    expect(r.ok && toDecimalString(r.value.price)).toBe("1880");
    expect(r.ok && r.value.fxDate).toBe(ECB_SNAPSHOT.date);
    expect(r.ok && r.value.fxRate).toMatch(/^156\.63961/);
  });

  it("names a currency without a rate", () => {
    expect(show(planPrice(pro, "monthly", "ISK", table))).toBe("no_rate");
    expect(show(planPrice(pro, "monthly", "XYZ", table))).toBe("unknown_currency");
    expect(show(planPrice(pro, "monthly", "JPY", null))).toBe("no_rate");
  });
});

describe("tax", () => {
  it("has a dated, sourced table of standard rates", () => {
    expect(TAX_RATES_SOURCE).toMatch(/European Commission/);
    expect(TAX_RATES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(standardTaxRate("de")).toBe("19");
    expect(standardTaxRate("JP")).toBe("10");
    expect(standardTaxRate("ZZ")).toBeUndefined();
    for (const c of TAX_COUNTRIES) expect(standardTaxRate(c)).toMatch(/^\d{1,2}(\.\d+)?$/);
  });

  it("gives every rate its own source entry, and every entry a listed reference", () => {
    expect(Object.keys(TAX_RATE_ENTRIES).sort()).toEqual([...TAX_COUNTRIES]);
    for (const [country, entry] of Object.entries(TAX_RATE_ENTRIES)) {
      expect(TAX_RATE_REFERENCES[entry.source], country).toEqual(expect.any(String));
      if (entry.since) expect(entry.since <= TAX_RATES_DATE, country).toBe(true);
      // An unconfirmed entry says why.
      if (!entry.confirmed) expect(entry.note, country).toEqual(expect.any(String));
    }
    // Rates that changed recently, as the sources give them.
    expect([standardTaxRate("EE"), TAX_RATE_ENTRIES.EE?.since]).toEqual(["24", "2025-07-01"]);
    expect([standardTaxRate("FI"), TAX_RATE_ENTRIES.FI?.since]).toEqual(["25.5", "2024-09-01"]);
    expect([standardTaxRate("RO"), TAX_RATE_ENTRIES.RO?.since]).toEqual(["21", "2025-08-01"]);
    expect([standardTaxRate("SK"), TAX_RATE_ENTRIES.SK?.since]).toEqual(["23", "2025-01-01"]);
    expect([standardTaxRate("IL"), TAX_RATE_ENTRIES.IL?.since]).toEqual(["18", "2025-01-01"]);
    expect(standardTaxRate("CZ")).toBe("21");
  });

  it("adds tax on top of an exclusive price and extracts it from an inclusive one; the parts add up", () => {
    const eur = { amount: 1036n, currency: "EUR" } as const;
    const ex = applyTax(eur, "19", "exclusive");
    expect([ex.net.amount, ex.tax.amount, ex.total.amount]).toEqual([1036n, 197n, 1233n]); // 196.84 → 197
    const inc = applyTax(eur, "19", "inclusive");
    expect([inc.net.amount, inc.tax.amount, inc.total.amount]).toEqual([871n, 165n, 1036n]); // 165.41 → 165
    const jpy = applyTax({ amount: 1880n, currency: "JPY" }, "10", "exclusive");
    expect([jpy.tax.amount, jpy.total.amount]).toEqual([188n, 2068n]);
    const bhd = applyTax({ amount: 4512n, currency: "BHD" }, "10", "inclusive");
    expect([bhd.net.amount, bhd.tax.amount]).toEqual([4102n, 410n]); // 410.18 → 410 fils
    const ch = applyTax({ amount: 1200n, currency: "CHF" }, "8.1", "exclusive");
    expect(ch.tax.amount).toBe(97n); // 97.2
    for (const r of [ex, inc, jpy, bhd, ch]) expect(r.net.amount + r.tax.amount).toBe(r.total.amount);
  });

  it("quotes a whole order from the billing country", () => {
    const q = quoteOrder({ plan: pro, interval: "monthly", currency: "JPY", country: "jp", table });
    expect(q.ok && [q.value.net.amount, q.value.tax.amount, q.value.total.amount]).toEqual([
      1805n,
      180n,
      1985n,
    ]); // 180.5 → 180 (half-even)
    expect(q.ok && q.value.country).toBe("JP");
    const us = quoteOrder({ plan: team, interval: "yearly", currency: "USD", country: "US", table });
    expect(us.ok && us.value.total.amount).toBe(39000n);
    expect(quoteOrder({ plan: pro, interval: "monthly", currency: "USD", country: "ZZ", table }).ok).toBe(
      false,
    );
  });
});

describe("cards", () => {
  const now = new Date("2026-11-23T00:00:00Z");
  it("detects the brand and groups the digits", () => {
    expect(detectBrand("4242")).toBe("Visa");
    expect(detectBrand("5555 5555")).toBe("Mastercard");
    expect(detectBrand("3782")).toBe("American Express");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatCardNumber("4242-4242-4242-4242")).toBe("4242 4242 4242 4242");
  });

  it("accepts every documented test card (they pass Luhn)", () => {
    for (const card of TEST_CARDS) {
      const cvc = card.brand === "American Express" ? "1234" : "123";
      const r = checkCard({ number: card.number, expiry: "12/30", cvc }, now);
      expect(r.ok && r.card.brand).toBe(card.brand);
      expect(r.ok && r.card.last4).toBe(card.number.slice(-4));
    }
  });

  it("names what is wrong with each field", () => {
    const r = checkCard({ number: "4242 4242 4242 4241", expiry: "10/26", cvc: "12" }, now);
    expect(r).toEqual({
      ok: false,
      errors: {
        cardNumber: "This card number is not valid: check the digits.",
        expiry: "This card has expired.",
        cvc: "The security code has 3 digits.",
      },
    });
    expect(checkCard({ number: "", expiry: "13/30", cvc: "" }, now)).toMatchObject({
      errors: { cardNumber: "Enter the card number.", expiry: "The month must be 01 to 12." },
    });
    // This month still works.
    expect(checkCard({ number: "4242424242424242", expiry: "11/26", cvc: "123" }, now).ok).toBe(true);
  });
});

describe("subscription periods", () => {
  it("adds a month or a year, clamping to the month's end", () => {
    expect(addPeriod(new Date("2026-01-31T10:00:00Z"), "monthly").toISOString()).toBe(
      "2026-02-28T10:00:00.000Z",
    );
    expect(addPeriod(new Date("2028-02-29T00:00:00Z"), "yearly").toISOString()).toBe(
      "2029-02-28T00:00:00.000Z",
    );
    expect(addPeriod(new Date("2026-12-15T00:00:00Z"), "monthly").toISOString()).toBe(
      "2027-01-15T00:00:00.000Z",
    );
  });

  it("keeps the paid plan until the period ends, and no longer without a renewal", () => {
    const end = new Date("2026-12-23T00:00:00Z");
    const sub = {
      plan: "team" as const,
      interval: "monthly" as const,
      status: "active" as const,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: true,
      scheduledPlan: null,
    };
    expect(effectivePlan(sub, new Date("2026-12-22T23:59:59Z"))).toBe("team");
    expect(effectivePlan(sub, end)).toBe("free");
    // A period that ends unpaid keeps no paid limits, whatever was scheduled for the renewal.
    expect(effectivePlan({ ...sub, cancelAtPeriodEnd: false, scheduledPlan: "pro" }, end)).toBe("free");
    expect(effectivePlan({ ...sub, cancelAtPeriodEnd: false }, end)).toBe("free");
    expect(effectivePlan({ ...sub, cancelAtPeriodEnd: false }, new Date("2027-06-01T00:00:00Z"))).toBe(
      "free",
    );
    expect(effectivePlan(null, end)).toBe("free");
    expect(downgradeTargets("team")).toEqual(["pro"]);
    expect(downgradeTargets("pro")).toEqual([]);
  });
});

describe("yearlyTerms", () => {
  const money = (amount: bigint, currency: string) => ({ amount, currency });

  it("gives the month of a yearly price and the saving against twelve months, in minor units", () => {
    // $12 a month, $120 a year: $10 a month, $24 saved.
    expect(yearlyTerms(money(1200n, "USD"), money(12000n, "USD"))).toEqual({
      perMonth: money(1000n, "USD"),
      perMonthExact: true,
      saving: money(2400n, "USD"),
    });
  });

  it("rounds the month once (half-even) and keeps the saving exact", () => {
    // ¥1,877 a month, ¥18,770 a year: 1,564.1666… rounds to ¥1,564; saved 22,524 − 18,770 = ¥3,754.
    const terms = yearlyTerms(money(1877n, "JPY"), money(18770n, "JPY"));
    expect(terms).toEqual({
      perMonth: money(1564n, "JPY"),
      perMonthExact: false,
      saving: money(3754n, "JPY"),
    });
    // 3 decimals: 60.005 KWD a year is 5.000416… a month.
    expect(yearlyTerms(money(6001n, "KWD"), money(60005n, "KWD")).perMonth).toEqual(money(5000n, "KWD"));
    // A tie goes to the even unit: 30 / 12 = 2.5 → 2, and 42 / 12 = 3.5 → 4.
    expect(yearlyTerms(money(3n, "JPY"), money(30n, "JPY")).perMonth.amount).toBe(2n);
    expect(yearlyTerms(money(4n, "JPY"), money(42n, "JPY")).perMonth.amount).toBe(4n);
  });

  it("agrees with planPrice for every plan in a converted currency", () => {
    const pro = getPlan("pro") as Plan;
    const monthly = planPrice(pro, "monthly", "EUR", ECB_SNAPSHOT);
    const yearly = planPrice(pro, "yearly", "EUR", ECB_SNAPSHOT);
    if (!monthly.ok || !yearly.ok) throw new Error("no EUR price");
    const terms = yearlyTerms(monthly.value.price, yearly.value.price);
    expect(terms.saving.amount).toBe(monthly.value.price.amount * 12n - yearly.value.price.amount);
    expect(() => yearlyTerms(monthly.value.price, money(1n, "USD"))).toThrow(RangeError);
  });
});
