import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { type HistoryCsvRow, historyCsv, neutraliseCell } from "./csv";

const row = (over: Partial<HistoryCsvRow>): HistoryCsvRow => ({
  savedAt: new Date("2026-11-23T10:00:00Z"),
  mode: "decimal",
  expression: "1 + 2",
  result: "3",
  precision: 20,
  rounding: "half-even",
  currencies: [],
  note: "",
  savedBy: "Ada",
  ...over,
});

describe("history CSV", () => {
  it("quotes commas, quotes and newlines so a parser reads the notes back exactly", () => {
    const notes = ["a, b", 'she said "hi"', "line 1\nline 2\r\nline 3", "plain"];
    const text = historyCsv(
      notes.map((note) => row({ note })),
      true,
    );
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: "\r\n" });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]?.[7]).toBe("note");
    expect(parsed.data.slice(1).map((r) => r[7])).toEqual(notes);
  });

  it("neutralises cells a spreadsheet would run as formulas", () => {
    const text = historyCsv(
      [row({ note: '=HYPERLINK("http://x")', expression: "-1+2", savedBy: "@bob", currencies: ["+EUR"] })],
      false,
    );
    const [cells] = Papa.parse<string[]>(text.trimEnd()).data;
    expect(cells?.[7]).toBe('\'=HYPERLINK("http://x")');
    expect(cells?.[2]).toBe("'-1+2");
    expect(cells?.[8]).toBe("'@bob");
    expect(cells?.[6]).toBe("'+EUR");
  });

  it("leaves negative numeric results as numbers but not formula-like results", () => {
    expect(neutraliseCell("-12.50", { numeric: true })).toBe("-12.50");
    expect(neutraliseCell("-1e-7", { numeric: true })).toBe("-1e-7");
    expect(neutraliseCell("-1+cmd", { numeric: true })).toBe("'-1+cmd");
    expect(neutraliseCell("\tx")).toBe("'\tx");
  });

  it("writes only the header for an empty history and nothing for an empty later chunk", () => {
    expect(historyCsv([], true)).toBe(
      '"saved_at","mode","expression","result","precision","rounding","currencies","note","saved_by"\r\n',
    );
    expect(historyCsv([], false)).toBe("");
  });
});
