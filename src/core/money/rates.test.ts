import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "./ecb-snapshot";
import {
  isIsoDate,
  MAX_RATE_DATES,
  MAX_RATES_FILE_CHARS,
  type ParsedRates,
  parseEcbXml,
  parseRatesCsv,
  singleTable,
} from "./rates";

const xml = readFileSync(new URL("./data/ecb-eurofxref.xml", import.meta.url), "utf8");

/** An ECB history file (the `eurofxref-hist-90d.xml` shape) with the given dates and rows. */
function history(days: Record<string, Record<string, string>>): string {
  const cubes = Object.entries(days)
    .map(
      ([time, rates]) =>
        `\t\t<Cube time="${time}">\n${Object.entries(rates)
          .map(([c, r]) => `\t\t\t<Cube currency="${c}" rate="${r}"/>`)
          .join("\n")}\n\t\t</Cube>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes}
\t</Cube>
</gesmes:Envelope>`;
}

function ok(r: ReturnType<typeof parseEcbXml>): ParsedRates {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe("ECB XML (daily)", () => {
  it("reads the committed snapshot, which matches the generated test fixture", () => {
    const r = ok(parseEcbXml(xml));
    expect(r.source).toBe("ecb-xml");
    expect(r.issues).toEqual([]);
    expect(r.days).toHaveLength(1);
    expect(r.rowCount).toBe(29);
    expect(r.days[0]?.rates.USD).toBe("1.1582");
    expect(singleTable(parseEcbXml(xml))).toEqual({
      ok: true,
      value: { base: ECB_SNAPSHOT.base, date: ECB_SNAPSHOT.date, rates: { ...ECB_SNAPSHOT.rates } },
    });
  });

  it("keeps every digit of a rate as written (no Number in between)", () => {
    const r = ok(parseEcbXml(history({ "2026-11-20": { USD: "1.10000000000001", JPY: "181.420" } })));
    expect(r.days[0]?.rates).toEqual({ USD: "1.10000000000001", JPY: "181.420" });
  });

  it("accepts double quotes, comments, a byte-order mark and CRLF", () => {
    const variant = `\uFEFF${xml.replace(/'/g, '"').replace(/\n/g, "\r\n").replace("<Cube>", "<!-- rates --><Cube>")}`;
    expect(ok(parseEcbXml(variant)).days[0]?.date).toBe("2026-11-20");
  });

  it.each([
    ["not xml at all", "Not well-formed XML"],
    ["<root/>", "no gesmes:Envelope"],
    [xml.replace("</gesmes:Envelope>", ""), "Not well-formed XML"],
    [
      xml.replace("<Cube currency='USD' rate='1.1582'/>", "<Cube currency='USD'/>"),
      "Expected <Cube currency",
    ],
    [xml.replace("<Cube currency='USD' rate='1.1582'/>", "<Rate/>"), "Expected <Cube time="],
    [xml.replace("<Cube currency='USD' rate='1.1582'/>", "hello"), "Expected <Cube time="],
    [xml.replace("<Cube>", "<Cube extra='1'>"), "attribute extra"],
    [xml.replace("<gesmes:subject>", "<Other/><gesmes:subject>"), "Unexpected Other"],
    [xml.replace(/<Cube time='[^']*'>[\s\S]*<\/Cube>\s*<\/Cube>/, "</Cube>"), "No dated"],
  ])("refuses a malformed file (%#)", (text, message) => {
    const r = parseEcbXml(text);
    expect(r.ok ? "ok" : r.error.message).toContain(message);
  });

  it("lists every bad row: negative and zero rates, exponents, unknown and repeated currencies, the base", () => {
    const text = xml
      .replace("rate='1.1582'", "rate='-1.1582'")
      .replace("rate='181.42'", "rate='0'")
      .replace("rate='24.182'", "rate='1e3'")
      .replace("currency='DKK'", "currency='XYZ'")
      .replace("currency='GBP'", "currency='USD'")
      .replace("currency='HUF'", "currency='EUR'")
      .replace("rate='4.2318'", "rate='NaN'");
    const r = ok(parseEcbXml(text));
    expect(r.issues.map((i) => i.message)).toEqual([
      'The rate for USD is not a positive decimal: "-1.1582"',
      'The rate for JPY is not a positive decimal: "0"',
      'The rate for CZK is not a positive decimal: "1e3"',
      "Unknown currency XYZ",
      "EUR is the base currency and cannot have a rate",
      'The rate for PLN is not a positive decimal: "NaN"',
    ]);
    expect(r.issues[0]?.where).toBe("2026-11-20 USD");
    // A repeated currency is reported once the first is accepted; here the first USD was refused.
    expect(singleTable(parseEcbXml(text)).ok).toBe(false);
  });

  it("reports a currency repeated on one date", () => {
    const r = ok(parseEcbXml(history({ "2026-11-20": { USD: "1.1", JPY: "180" } }).replace("JPY", "USD")));
    expect(r.issues).toEqual([{ where: "2026-11-20 USD", message: "USD appears twice for 2026-11-20" }]);
  });

  it.each(["2026-02-30", "2026-13-01", "20-11-2026", "yesterday"])(
    "reports the impossible date %s",
    (time) => {
      const r = ok(parseEcbXml(history({ [time]: { USD: "1.1" } })));
      expect(r.issues[0]?.message).toContain("Invalid date");
      expect(r.days).toEqual([]);
    },
  );
});

describe("ECB XML (history)", () => {
  it("reads a 90-day history, newest date first", () => {
    const days: Record<string, Record<string, string>> = {};
    for (let d = 1; d <= 28; d++) {
      const day = String(d).padStart(2, "0");
      days[`2026-02-${day}`] = { USD: `1.${day}`, JPY: `160.${day}` };
    }
    const r = ok(parseEcbXml(history(days)));
    expect(r.days).toHaveLength(28);
    expect(r.days[0]).toEqual({ base: "EUR", date: "2026-02-28", rates: { USD: "1.28", JPY: "160.28" } });
    expect(r.days.at(-1)?.date).toBe("2026-02-01");
    expect(r.rowCount).toBe(56);
    expect(singleTable(parseEcbXml(history(days))).ok).toBe(false);
  });
});

describe("hostile ECB XML", () => {
  it("refuses a file over the size cap before parsing it", () => {
    const huge = xml.replace("<Cube>", `<Cube>${" ".repeat(MAX_RATES_FILE_CHARS)}`);
    const r = parseEcbXml(huge);
    expect(r.ok ? "ok" : r.error.message).toContain("too large");
  });

  it("refuses entity declarations (billion laughs) and external entities", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${xml.replace(/^<\?xml[^>]*\?>/, "").replace("Reference rates", "&lol2;")}`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><gesmes:Envelope>&e;</gesmes:Envelope>`;
    for (const text of [bomb, xxe]) {
      const r = parseEcbXml(text);
      expect(r.ok ? "ok" : r.error.message).toContain("document type");
    }
  });

  it("refuses more dates than the cap", () => {
    const days: Record<string, Record<string, string>> = {};
    const start = Date.UTC(2020, 0, 1);
    for (let i = 0; i <= MAX_RATE_DATES; i++)
      days[new Date(start + i * 86_400_000).toISOString().slice(0, 10)] = { USD: "1.1" };
    const r = parseEcbXml(history(days));
    expect(r.ok ? "ok" : r.error.message).toContain("more than");
  });

  it("truncates absurd values in messages", () => {
    const r = ok(parseEcbXml(history({ "2026-11-20": { USD: "9".repeat(5000) } })));
    expect(r.issues[0]?.message.length).toBeLessThan(120);
  });

  it("does not fall over on deep nesting", () => {
    const deep = xml.replace("<Cube>", `<Cube>${"<Cube>".repeat(2000)}${"</Cube>".repeat(2000)}`);
    expect(parseEcbXml(deep).ok).toBe(false);
  });
});

describe("rates CSV", () => {
  it("reads currency,rate with a chosen date, any case, CRLF and blank lines", () => {
    const r = parseRatesCsv("Currency,Rate\nUSD,1.1582\r\njpy,181.42\n\n", "2026-11-20");
    expect(r).toEqual({
      ok: true,
      value: {
        source: "csv",
        days: [{ base: "EUR", date: "2026-11-20", rates: { USD: "1.1582", JPY: "181.42" } }],
        issues: [],
        rowCount: 2,
      },
    });
  });

  it("reads date,currency,rate in any column order, quoted cells too", () => {
    const r = parseRatesCsv('rate,date,currency\n"1.10",2026-11-19,USD\n1.20,2026-11-20,USD\n');
    expect(r.ok && r.value.days.map((d) => [d.date, d.rates.USD])).toEqual([
      ["2026-11-20", "1.20"],
      ["2026-11-19", "1.10"],
    ]);
  });

  it.each([
    ["code,value\nUSD,1", 'naming the columns "currency" and "rate"', "2026-11-20"],
    ["currency,rate\nUSD,1", 'no "date" column', undefined],
    ["", "no rates", "2026-11-20"],
    ["currency,rate\n", "no rates", "2026-11-20"],
  ])("refuses %j", (csv, message, date) => {
    const r = parseRatesCsv(csv, date);
    expect(r.ok ? "ok" : r.error.message).toContain(message);
  });

  it("lists every bad row with its line", () => {
    const csv = [
      "date,currency,rate",
      "2026-11-20,USD,1.1",
      "2026-11-20,USD,1.2",
      "2026-11-20,XYZ,2",
      "2026-11-20,JPY,-5",
      "2026-11-20,GBP,0.000",
      "2026-02-30,CHF,1",
      "2026-11-20,EUR,1",
      "2026-11-20,SEK",
      "2026-11-20,NOK,11.6,extra",
    ].join("\n");
    const r = parseRatesCsv(csv);
    expect(r.ok && r.value.issues.map((i) => [i.line, i.message])).toEqual([
      [3, "USD appears twice for 2026-11-20"],
      [4, "Unknown currency XYZ"],
      [5, 'The rate for JPY is not a positive decimal: "-5"'],
      [6, 'The rate for GBP is not a positive decimal: "0.000"'],
      [7, 'Invalid date "2026-02-30"'],
      [8, "EUR is the base currency and cannot have a rate"],
      [9, "Expected 3 columns, found 2"],
      [10, "Expected 3 columns, found 4"],
    ]);
  });

  it("refuses a file over the size cap before parsing it", () => {
    const r = parseRatesCsv(`currency,rate\n${"USD,1\n".repeat(MAX_RATES_FILE_CHARS / 6 + 1)}`, "2026-11-20");
    expect(r.ok ? "ok" : r.error.message).toContain("too large");
  });

  it("validates dates", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2026-13-01")).toBe(false);
    expect(parseRatesCsv("currency,rate\nUSD,1", "20-11-2026").ok).toBe(false);
  });
});
