import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { evaluateSheet, type LineResult, SheetEvaluator } from "./sheet";

/** Each line's result as text: its display, "# heading", "" for blanks and comments, or "! message @column". */
function shown(results: readonly LineResult[]): string[] {
  return results.map((r) =>
    r.kind === "value"
      ? r.result.display
      : r.kind === "heading"
        ? `# ${r.text}`
        : r.kind === "error"
          ? `! ${r.error.message} @${r.error.column}`
          : "",
  );
}

const sheet = (...lines: string[]) => shown(evaluateSheet(lines.join("\n"), { rates: ECB_SNAPSHOT }));

describe("a sheet", () => {
  it("is a budget: names, grouping commas, comments, headings, subtotals and a total", () => {
    expect(
      sheet(
        "# Monthly",
        "rent = 1,250 EUR",
        "power = 84.20 EUR // estimate",
        "internet = 39.99 EUR",
        "subtotal",
        "",
        "# Yearly, per month",
        "insurance = 480 EUR / 12",
        "sum",
        "// everything",
        "total",
        "total + 10%",
        "total in CHF cash",
      ),
    ).toEqual([
      "# Monthly",
      "1250.00 EUR",
      "84.20 EUR",
      "39.99 EUR",
      "1374.19 EUR",
      "",
      "# Yearly, per month",
      "40.00 EUR",
      "40.00 EUR",
      "",
      "1414.19 EUR",
      "1555.61 EUR",
      expect.stringMatching(/^\d+\.\d[05] CHF$/),
    ]);
  });

  it("reads lines by number and prev, and averages a section", () => {
    expect(sheet("10", "20", "line1 * line2", "prev + 1", "average")).toEqual([
      "10",
      "20",
      "200",
      "201",
      "107.75",
    ]);
  });

  it("keeps an error on its line, with the column in that line, and the other results", () => {
    expect(
      sheet(
        "a = 5",
        "b = a * (2",
        "3 h + 5 USD",
        "c = a + 1",
        "line9",
        "line2 + 1",
        "b + 1",
        "d + 1",
        "d = 4",
        "2026 km in GB",
        "c",
      ),
    ).toEqual([
      "5",
      "! Expected ')' at column 11 @11",
      "! Cannot add a duration (h) and an amount in USD @5",
      "6",
      "! line9 is not above this line @1",
      "! Line 2 has no value @1",
      "! b has no value: line 2 has an error @1",
      "! d is defined below this line, on line 9 @1",
      "4",
      "! Cannot convert a length (km) to an amount of data (GB) @9",
      "6",
    ]);
  });

  it("reports columns in the line as typed, grouping commas and all", () => {
    expect(sheet("1,250 + x")).toEqual(["! Unknown variable x @9"]);
  });

  it("evaluates again only the lines whose text or inputs changed", () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      i % 50 === 0 ? `# Part ${i / 50}` : `v${i} = ${i}.5 EUR * 2`,
    );
    lines.push("subtotal", "total");
    const evaluator = new SheetEvaluator();
    evaluator.run(lines.join("\n"));
    expect(evaluator.evaluated).toBe(lines.length);
    // one character in a line of the third part: that line and the total (the subtotal at the end
    // adds up the last part only)
    const edited = [...lines];
    edited[120] = "v120 = 120.6 EUR * 2";
    evaluator.run(edited.join("\n"));
    expect(evaluator.evaluated).toBe(2);
    // one in the last part: that line, the subtotal and the total
    edited[170] = "v170 = 170.6 EUR * 2";
    evaluator.run(edited.join("\n"));
    expect(evaluator.evaluated).toBe(3);
    evaluator.run(edited.join("\n"));
    expect(evaluator.evaluated).toBe(0);
  });
});

describe("sheets, metamorphically", () => {
  const amount = fc
    .tuple(
      fc.integer({ min: 0, max: 99_999 }),
      fc.integer({ min: 0, max: 99 }),
      fc.constantFrom("EUR", "USD", ""),
    )
    .map(([w, c, cur]) => `${w}.${String(c).padStart(2, "0")}${cur ? ` ${cur}` : ""}`);
  const values = fc.array(amount, { minLength: 1, maxLength: 12 }).map((xs) => {
    // one currency per sheet section, or plain numbers: amounts in two currencies are converted
    const cur = xs[0]?.split(" ")[1];
    return xs.map((x) => `${x.split(" ")[0]}${cur ? ` ${cur}` : ""}`);
  });

  it("reordering independent lines leaves each line's result and the total", () => {
    fc.assert(
      fc.property(values, fc.infiniteStream(fc.nat()), (xs, rnd) => {
        const named = xs.map((x, i) => `n${i} = ${x}`);
        const order = [...named.keys()].sort(() => ((rnd.next().value as number) % 3) - 1);
        const a = sheet(...named, "total");
        const b = sheet(...order.map((i) => named[i] as string), "total");
        expect(order.map((i) => b[order.indexOf(i)])).toEqual(order.map((i) => a[i]));
        expect(b.at(-1)).toBe(a.at(-1));
      }),
      { numRuns: 40 },
    );
  });

  it("renaming a value changes no result", () => {
    fc.assert(
      fc.property(values, (xs) => {
        const a = sheet(`first = ${xs[0]}`, ...xs.slice(1), "first * 2 + total");
        const b = sheet(`premier = ${xs[0]}`, ...xs.slice(1), "premier * 2 + total");
        expect(b).toEqual(a);
      }),
      { numRuns: 40 },
    );
  });

  it("splitting a section with a heading splits its sum, and the total stays", () => {
    fc.assert(
      fc.property(values, fc.nat(), (xs, k) => {
        const cut = 1 + (k % xs.length);
        const whole = sheet(...xs, "sum");
        const split = sheet(...xs.slice(0, cut), "sum", "# More", ...xs.slice(cut), "sum", "total");
        expect(split.at(-1)).toBe(whole.at(-1));
      }),
      { numRuns: 40 },
    );
  });
});
