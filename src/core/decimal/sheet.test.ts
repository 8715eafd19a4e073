import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { evaluate, type Value } from "./engine";
import { evaluateSheet, type LineResult, SheetEvaluator, SUM_BLOCK } from "./sheet";

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

describe("sums over lines that measure different things", () => {
  const run = (...lines: string[]) => evaluateSheet(lines.join("\n"), { rates: ECB_SNAPSHOT });

  it("leave the plain numbers out beside amounts, and say which", () => {
    const results = run("1/3", "10 EUR", "20 EUR", "subtotal", "12 * 4", "total", "average");
    expect(shown(results)).toEqual([
      "0.33333333333333333333",
      "10.00 EUR",
      "20.00 EUR",
      "30.00 EUR",
      "48",
      "30.00 EUR",
      "15.00 EUR",
    ]);
    expect(results[3]).toMatchObject({ kind: "value", skipped: [1] });
    expect(results[5]).toMatchObject({ kind: "value", skipped: [1, 5] });
    expect(results[6]).toMatchObject({ kind: "value", skipped: [1, 5] });
  });

  it("add plain numbers when there is nothing else, and skip nothing", () => {
    const results = run("2", "3", "total");
    expect(shown(results)[2]).toBe("5");
    expect(results[2]).not.toHaveProperty("skipped");
    expect(shown(run("10 EUR", "10 EUR", "total"))[2]).toBe("20.00 EUR");
    expect(run("10 EUR", "10 EUR", "total")[2]).not.toHaveProperty("skipped");
  });

  it("add what most lines measure (the first on a tie), converting currencies", () => {
    const money = run("1/3", "10 EUR", "5 USD", "total");
    expect(shown(money)[3]).toMatch(/^\d+\.\d\d EUR$/);
    expect(money[3]).toMatchObject({ skipped: [1] });
    expect(shown(run("10 EUR", "3 km", "4 km", "2 h", "total"))[4]).toBe("7 km");
    expect(run("10 EUR", "3 km", "4 km", "2 h", "total")[4]).toMatchObject({ skipped: [1, 4] });
    expect(run("10 EUR", "3 km", "total")[2]).toMatchObject({ skipped: [2] });
    expect(shown(run("45 USD/h", "50 USD/h", "10 EUR", "average"))[3]).toBe("47.5 USD/h");
  });

  it("still fail, on their line, when what they add cannot be added", () => {
    expect(shown(run("2026-01-01", "2026-02-01", "total"))[2]).toBe(
      "! total: Cannot add a date and a date @1",
    );
  });

  it("name the skipped lines by their current number after a line is inserted above", () => {
    const evaluator = new SheetEvaluator();
    evaluator.run("1/3\n10 EUR\ntotal", {});
    const moved = evaluator.run("# Budget\n1/3\n10 EUR\ntotal", {});
    expect(moved[3]).toMatchObject({ kind: "value", skipped: [2] });
  });
});

describe("an edit re-evaluates only the lines that depend on it", () => {
  // a chain of named values, a line read by number, and a section without an aggregate
  const base = [
    "# Costs",
    "rate = 45 USD/h",
    "hours = 3 h 20 min",
    "work = rate * hours",
    "line4 in EUR",
    "travel = 86.40 EUR",
    "",
    "# Other",
    "12 km in m",
    "20% off 150 CHF",
    "1/3",
  ];

  it("a changed value re-runs its readers, and their readers, and nothing else", () => {
    const evaluator = new SheetEvaluator();
    const first = evaluator.run(base.join("\n"), { rates: ECB_SNAPSHOT });
    expect(evaluator.evaluated).toBe(base.length);
    const edited = [...base];
    edited[1] = "rate = 46 USD/h";
    const second = evaluator.run(edited.join("\n"), { rates: ECB_SNAPSHOT });
    // rate, work (reads rate), line 5 (reads line 4)
    expect(evaluator.evaluated).toBe(3);
    expect(shown(second)[4]).not.toBe(shown(first)[4]);
    // the lines that did not run are the same objects (the notebook's rows do not render again)
    for (const i of [0, 2, 5, 8, 9, 10]) expect(second[i]).toBe(first[i]);
  });

  it("inserting a line above leaves the lines below in the cache, unless they read what moved", () => {
    const evaluator = new SheetEvaluator();
    evaluator.run(base.join("\n"), { rates: ECB_SNAPSHOT });
    const inserted = ["// a note", ...base];
    const results = evaluator.run(inserted.join("\n"), { rates: ECB_SNAPSHOT });
    // the new comment, and `line4 in EUR`, which now reads the line `hours = …`: an error
    expect(evaluator.evaluated).toBe(2);
    expect(shown(results)[5]).toMatch(/^! /);
    expect(shown(results).slice(6)).toEqual(
      shown(evaluateSheet(base.join("\n"), { rates: ECB_SNAPSHOT })).slice(5),
    );
  });

  it("a moved line keeps its error, with its new line number", () => {
    const evaluator = new SheetEvaluator();
    evaluator.run("a = 1\nb = a +", {});
    const moved = evaluator.run("\na = 1\nb = a +", {});
    expect(evaluator.evaluated).toBe(1);
    expect(moved[2]).toMatchObject({ kind: "error", error: { line: 3 } });
  });

  it("a name that is also an object property is an unknown name, not a value", () => {
    expect(sheet("constructor + 1", "toString")).toEqual([
      "! Unknown variable constructor @1",
      "! Unknown variable toString @1",
    ]);
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

describe("long sums, added block by block", () => {
  // the engine's cost model bounds the work; its wall-clock backstop is left out (a loaded machine)
  const clock = () => 0;
  /** The flat sum the notebook used to evaluate: every used line in one expression, as typed. */
  function flat(
    results: readonly LineResult[],
    at: number,
    rates: typeof ECB_SNAPSHOT | null,
    withRates?: readonly LineResult[],
  ): string {
    const r = results[at];
    const word = r?.kind === "error" ? /^(\w+):/.exec(r.error.message)?.[1] : undefined;
    const source = linesOf(results, at);
    // which lines a failed sum leaves out: the same sheet's sum with rates says (these lines' values
    // do not depend on the rates)
    const named = r?.kind === "error" ? withRates?.[at] : r;
    const skipped = new Set(named?.kind === "value" ? (named.skipped ?? []) : []);
    const used = source.filter((n) => !skipped.has(n));
    const vars: Record<string, Value> = {};
    for (const n of used) vars[`line${n}`] = (results[n - 1] as { result: { value: Value } }).result.value;
    const sum = used.map((n) => `line${n}`).join(" + ");
    const out = evaluate(sum, { rates, variables: vars, timeLimitMs: 60_000 });
    if (!out.ok) return `! ${word ?? "total"}: ${out.error.message}`;
    return out.display;
  }
  /** The value lines above line `at` (0-based) that `total` adds: not sums themselves. */
  function linesOf(results: readonly LineResult[], at: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < at; i++) if (results[i]?.kind === "value" && !aggregates.has(i)) out.push(i + 1);
    return out;
  }
  let aggregates = new Set<number>();
  const totalShown = (results: readonly LineResult[], at: number) => {
    const r = results[at];
    return r?.kind === "value" ? r.result.display : r?.kind === "error" ? `! ${r.error.message}` : "?";
  };

  const amount = fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
    .map(([w, c]) => `${w}.${String(c).padStart(2, "0")}`);
  const line = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(amount, fc.constantFrom("EUR", "USD", "CHF", "JPY")).map((x) => x.join(" ")),
    },
    { weight: 2, arbitrary: fc.tuple(amount, fc.constantFrom("km", "m", "mi")).map((x) => x.join(" ")) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(999), fc.integer({ min: 1, max: 97 })).map(([a, b]) => `${a}/${b}`),
    },
    { weight: 1, arbitrary: fc.tuple(amount, fc.constantFrom("USD/h", "EUR/h")).map((x) => x.join(" ")) },
    { weight: 1, arbitrary: fc.constantFrom("", "// note", "1 +", "prev * 2") },
  );
  const runs = Number(process.env.SHEET_FC_RUNS ?? 25);
  const seed = process.env.SHEET_FC_SEED ? Number(process.env.SHEET_FC_SEED) : undefined;

  it("give the sum of the lines as one expression would, before and after an edit", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 70, maxLength: 160 }),
        fc.nat(),
        line,
        fc.boolean(),
        (xs, k, replacement, withRates) => {
          const rates = withRates ? ECB_SNAPSHOT : null;
          const evaluator = new SheetEvaluator();
          const check = (ls: readonly string[]) => {
            const text = [...ls, "total"].join("\n");
            const results = evaluator.run(text, { rates, clock });
            aggregates = new Set([ls.length]);
            const withRates = evaluateSheet(text, { rates: ECB_SNAPSHOT, clock });
            expect(totalShown(results, ls.length)).toBe(flat(results, ls.length, rates, withRates));
            // the same as a sheet evaluated from scratch
            expect(shown(results)).toEqual(shown(evaluateSheet(text, { rates, clock })));
          };
          check(xs);
          const edited = [...xs];
          edited[k % xs.length] = replacement;
          check(edited);
        },
      ),
      { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
    );
  });

  const long = Array.from({ length: 300 }, (_, i) =>
    i % 3 === 0 ? `${100 + i}.25 EUR` : i % 3 === 1 ? `${i}.5 USD` : `20% off ${i}.90 CHF`,
  );

  it("add again only the block holding an edited line", () => {
    const evaluator = new SheetEvaluator();
    const first = evaluator.run([...long, "total"].join("\n"), { rates: ECB_SNAPSHOT, clock });
    expect(evaluator.summedBlocks).toBe(Math.ceil(long.length / SUM_BLOCK));
    const edited = [...long];
    edited[150] = "999.99 EUR";
    const second = evaluator.run([...edited, "total"].join("\n"), { rates: ECB_SNAPSHOT, clock });
    // the edited line and the total; one block of the total added again
    expect(evaluator.evaluated).toBe(2);
    expect(evaluator.summedBlocks).toBe(1);
    expect(second[300]).not.toEqual(first[300]);
    aggregates = new Set([300]);
    expect(totalShown(second, 300)).toBe(flat(second, 300, ECB_SNAPSHOT));
    // a comment added at the end changes no value: nothing is added again
    evaluator.run([...edited, "total", "// done"].join("\n"), { rates: ECB_SNAPSHOT, clock });
    expect(evaluator.summedBlocks).toBe(0);
    expect(evaluator.evaluated).toBe(1);
  });

  it("fall back to adding every line when a partial sum would round", () => {
    // too large to keep an exact fraction: each value, and each partial sum, is rounded to the precision
    const lines = Array.from({ length: 100 }, (_, i) => `10^1900 / 3 + ${i}`);
    const evaluator = new SheetEvaluator();
    const results = evaluator.run([...lines, "total"].join("\n"), { precision: 25, clock });
    aggregates = new Set([100]);
    const vars: Record<string, Value> = {};
    for (const n of linesOf(results, 100)) {
      vars[`line${n}`] = (results[n - 1] as { result: { value: Value } }).result.value;
    }
    const expected = evaluate(Object.keys(vars).join(" + "), {
      precision: 25,
      variables: vars,
      timeLimitMs: 60_000,
    });
    expect(expected.ok).toBe(true);
    expect(totalShown(results, 100)).toBe(expected.ok ? expected.display : "");
  });
});
