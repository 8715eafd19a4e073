import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUNDING_MODES } from "../rounding";
import { CURRENCIES } from "./currencies";
import { ECB_SNAPSHOT } from "./ecb-snapshot";
import { convert, crossRate, inverseRate, type RateTable, rateCurrencies } from "./fx";
import { money, toDecimalString } from "./money";

const table = ECB_SNAPSHOT;
const codes = rateCurrencies(table);

describe("conversion", () => {
  it("computes cross rates and inverse rates to 34 significant digits", () => {
    expect(crossRate(table, "EUR", "USD")).toEqual({ ok: true, value: "1.1582" });
    // 1 / 1.1582 to 34 digits (Python: Decimal(1) / Decimal("1.1582") with prec=34)
    expect(crossRate(table, "USD", "EUR")).toEqual({
      ok: true,
      value: "0.8634087376964254878259367984804006",
    });
    expect(inverseRate(table, "EUR", "USD")).toEqual(crossRate(table, "USD", "EUR"));
    const usdJpy = crossRate(table, "USD", "JPY");
    expect(usdJpy.ok && usdJpy.value).toBe(
      new (Decimal.clone({ precision: 34 }))("181.42").div("1.1582").toString(),
    );
    expect(crossRate(table, "USD", "KWD")).toMatchObject({ ok: false, error: { code: "no_rate" } });
    expect(crossRate(table, "USD", "XYZ")).toMatchObject({ ok: false, error: { code: "unknown_currency" } });
  });

  it("converts exactly, then rounds once to the target's minor units", () => {
    // 100.00 EUR → 18142 JPY; 100.00 USD → 100 × 181.42 / 1.1582 = 15663.961… JPY
    expect(convert(money(10000n, "EUR"), "JPY", table)).toEqual({
      ok: true,
      value: { amount: 18142n, currency: "JPY" },
    });
    expect(convert(money(10000n, "USD"), "JPY", table)).toEqual({
      ok: true,
      value: { amount: 15664n, currency: "JPY" },
    });
    expect(convert(money(10000n, "USD"), "JPY", table, "down")).toEqual({
      ok: true,
      value: { amount: 15663n, currency: "JPY" },
    });
    // to three minor digits: 12.34 USD in BHD with a table that has BHD
    const withBhd: RateTable = { ...table, rates: { ...table.rates, BHD: "0.4366" } };
    const bhd = convert(money(1234n, "USD"), "BHD", withBhd);
    expect(bhd.ok && toDecimalString(bhd.value)).toBe("4.652"); // 12.34 × 0.4366 / 1.1582 = 4.65171…
    expect(convert(money(1n, "USD"), "USD", table)).toEqual({
      ok: true,
      value: { amount: 1n, currency: "USD" },
    });
    expect(convert(money(1n, "USD"), "KWD", table)).toMatchObject({ ok: false, error: { code: "no_rate" } });
  });

  it("round trips within one minor unit (for amounts worth at least one unit of either side)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10_000n, max: 10n ** 14n }),
        fc.constantFrom(...codes),
        fc.constantFrom(...codes),
        fc.constantFrom(...ROUNDING_MODES),
        (amount, from, to, mode) => {
          const there = convert(money(amount, from), to, table, mode);
          if (!there.ok) throw new Error(there.error.message);
          const back = convert(there.value, from, table, mode);
          if (!back.ok) throw new Error(back.error.message);
          // the loss is one minor unit of the target, seen in the source's units, plus one of the source
          const minorFrom = CURRENCIES.find((c) => c.code === from)?.minorUnits ?? 0;
          const minorTo = CURRENCIES.find((c) => c.code === to)?.minorUnits ?? 0;
          const rate = new Decimal(
            crossRate(table, to, from).ok ? (crossRate(table, to, from) as { value: string }).value : "1",
          );
          const bound = rate
            .times(new Decimal(10).pow(minorFrom - minorTo))
            .plus(1)
            .ceil();
          const diff = new Decimal((back.value.amount - amount).toString()).abs();
          expect(diff.lte(bound)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("round trips within one minor unit between currencies of similar value", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.constantFrom("EUR", "USD", "GBP", "CHF", "CAD", "AUD"),
        (amount, to) => {
          const there = convert(money(amount, "USD"), to, table);
          const back = there.ok ? convert(there.value, "USD", table) : there;
          if (!back.ok) throw new Error(back.error.message);
          const d = back.value.amount - amount;
          expect(d >= -2n && d <= 2n).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("cross rates are consistent: a→b × b→c = a→c to the working precision", () => {
    for (const a of codes.slice(0, 10))
      for (const b of codes.slice(10, 20)) {
        const ab = new Decimal((crossRate(table, a, b) as { value: string }).value);
        const ba = new Decimal((crossRate(table, b, a) as { value: string }).value);
        expect(ab.times(ba).minus(1).abs().lt("1e-32")).toBe(true);
      }
  });
});
