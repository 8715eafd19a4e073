import { readFileSync } from "node:fs";
import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUNDING_MODES } from "../rounding";
import { CURRENCIES } from "./currencies";
import { ECB_SNAPSHOT } from "./ecb-snapshot";
import { convert, crossRate, inverseRate, type RateTable, rateCurrencies } from "./fx";
import { money, toDecimalString } from "./money";
import { isIsoDate, parseEcbXml, parseRatesCsv, ratesToCsv } from "./rates";

const xml = readFileSync(new URL("./data/ecb-eurofxref.xml", import.meta.url), "utf8");
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

describe("ECB XML", () => {
  it("parses the committed snapshot, which matches the generated module", () => {
    const r = parseEcbXml(xml);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.base).toBe("EUR");
    expect(r.value.date).toBe("2026-11-20");
    expect(Object.keys(r.value.rates)).toHaveLength(29);
    expect(r.value.rates.USD).toBe("1.1582");
    expect(r.value).toEqual({ base: table.base, date: table.date, rates: { ...table.rates } });
  });

  it("accepts double quotes, comments and CRLF", () => {
    const variant = xml.replace(/'/g, '"').replace(/\n/g, "\r\n").replace("<Cube>", "<!-- rates --><Cube>");
    expect(parseEcbXml(variant).ok).toBe(true);
  });

  it.each([
    ["not xml at all", "no gesmes:Envelope"],
    [xml.replace("rate='1.1582'", "rate='-1.1582'"), "The rate for USD is not a positive decimal"],
    [xml.replace("rate='1.1582'", "rate='0'"), "The rate for USD is not a positive decimal"],
    [xml.replace("rate='1.1582'", "rate='1e3'"), "The rate for USD is not a positive decimal"],
    [xml.replace("currency='USD'", "currency='XYZ'"), "Unknown currency XYZ"],
    [xml.replace("currency='JPY'", "currency='USD'"), "USD appears twice"],
    [xml.replace("currency='JPY'", "currency='EUR'"), "EUR is the base currency"],
    [xml.replace("time='2026-11-20'", "time='2026-02-30'"), 'Invalid date "2026-02-30"'],
    [xml.replace("</gesmes:Envelope>", ""), "The file ends before the envelope is closed"],
    [
      xml.replace("<Cube currency='USD' rate='1.1582'/>", "<Cube currency='USD'/>"),
      "Expected <Cube currency='XXX' rate='1.2345'/>",
    ],
    [xml.replace("<Cube currency='USD' rate='1.1582'/>", "<Rate/>"), "Unexpected <Rate>"],
    [xml.replace("<Cube currency='USD' rate='1.1582'/>", "hello"), 'Unexpected text "hello"'],
    [
      xml.replace("</Cube>\n\t</Cube>", "</Cube>\n\t\t<Cube time='2026-11-19'></Cube>\n\t</Cube>"),
      "more than one date",
    ],
  ])("rejects a bad file (%#)", (text, message) => {
    const r = parseEcbXml(text);
    expect(r.ok ? "ok" : r.error.message).toContain(message);
  });

  it("reports the line of the problem", () => {
    const r = parseEcbXml(xml.replace("currency='GBP'", "currency='GBX'"));
    expect(r).toMatchObject({ ok: false, error: { message: "Unknown currency GBX", line: 13 } });
  });
});

describe("rates CSV", () => {
  it("parses and writes currency,rate files", () => {
    const r = parseRatesCsv("currency,rate\nUSD,1.1582\r\njpy,181.42\n\n", "2026-11-20");
    expect(r).toEqual({
      ok: true,
      value: { base: "EUR", date: "2026-11-20", rates: { USD: "1.1582", JPY: "181.42" } },
    });
    expect(parseRatesCsv(ratesToCsv(table), table.date)).toEqual({
      ok: true,
      value: { ...table, rates: { ...table.rates } },
    });
  });

  it.each([
    ["code,value\nUSD,1", 'header "currency,rate"', 1],
    ["currency,rate\nUSD,1,2", "two columns", 2],
    ["currency,rate\nUSD,abc", "not a positive decimal", 2],
    ["currency,rate\nUSD,1\nXYZ,2", "Unknown currency XYZ", 3],
    ["currency,rate\nUSD,1\nUSD,2", "USD appears twice", 3],
    ["currency,rate\nEUR,1", "base currency", 2],
    ["currency,rate\n", "no rates", undefined],
  ])("rejects %j", (csv, message, line) => {
    const r = parseRatesCsv(csv, "2026-11-20");
    expect(r.ok ? "ok" : r.error.message).toContain(message);
    if (!r.ok) expect(r.error.line).toBe(line);
  });

  it("validates dates", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2026-13-01")).toBe(false);
    expect(parseRatesCsv("currency,rate\nUSD,1", "20-11-2026").ok).toBe(false);
  });
});
