/**
 * Calendar dates: the grammar, month-end rules, errors with their column, and differential tests of
 * generated date arithmetic against Python's `datetime` (every case) and `qalc` (day arithmetic,
 * date − date, weekdays; qalc adds months by overflowing, 2026-01-31 + 1 month = 2026-03-03, where
 * the engine keeps the month-end, so months are checked against Python only).
 */
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "./index";

function show(source: string): string {
  const r = evaluate(source);
  return r.ok ? r.display : `error: ${r.error.message} (column ${r.error.column})`;
}

describe("dates", () => {
  it.each([
    ["2026-12-01 + 30 days", "2026-12-31"],
    ["2026-12-01 + 2 months", "2027-02-01"],
    ["2026-01-31 + 1 month", "2026-02-28"],
    ["2024-01-31 + 1 month", "2024-02-29"],
    ["2024-02-29 + 1 year", "2025-02-28"],
    ["2026-03-31 - 1 month", "2026-02-28"],
    ["2026-12-01 + 2 weeks", "2026-12-15"],
    ["2026-12-01 + 48 h", "2026-12-03"],
    ["30 days + 2026-12-01", "2026-12-31"],
    ["weekday 2026-12-25", "Friday"],
    ["weekday 2026-12-01 + 30 days", "Thursday"],
    ["days between 2026-11-25 and 2027-01-31", "67 days"],
    ["days between 2027-01-31 and 2026-11-25", "-67 days"],
    ["2027-01-31 - 2026-11-25", "67 days"],
    ["(2027-01-31 - 2026-11-25) in weeks", "9.5714285714285714286 weeks"],
    ["d = 2026-12-01\nd + 1 day", "2026-12-02"],
    ["weekday = 3\nweekday + 1", "4"],
    ["0001-01-01 + 1 day", "0001-01-02"],
    ["9999-12-30 + 1 day", "9999-12-31"],
  ])("%s = %s", (source, expected) => {
    expect(show(source)).toBe(expected);
  });

  it.each([
    ["2026-02-30", "2026-02-30 is not a date: February 2026 has 28 days (column 1)"],
    ["1 + 2026-13-01", "2026-13-01 is not a date: there is no month 13 (column 5)"],
    ["0000-01-01", "0000-01-01 is not a date: years run from 0001 to 9999 (column 1)"],
    ["9999-12-31 + 1 day", "Dates run from 0001-01-01 to 9999-12-31 (column 12)"],
    ["0001-01-01 - 1 month", "Dates run from 0001-01-01 to 9999-12-31 (column 12)"],
    [
      "2026-12-01 + 3 h",
      "Dates have no time of day: add whole days to a date, not a duration (h) (column 12)",
    ],
    [
      "2026-12-01 + 1.5 months",
      "Dates have no time of day: add whole months to a date, not a duration (months) (column 12)",
    ],
    ["2026-12-01 + 5", "Cannot add a date and a number (column 12)"],
    ["2026-12-01 + 2026-12-02", "Cannot add a date and a date (column 12)"],
    ["2026-12-01 * 2", "Cannot multiply a date by a number (column 12)"],
    ["5 USD + 2026-12-01", "Cannot add an amount in USD and a date (column 7)"],
    ["2026-12-01 in h", "Cannot convert a date to a duration (h) (column 12)"],
    ["weekday 5", "weekday needs a date, not a number (column 1)"],
    ["days between 2026-11-25 2027-01-31", "Unexpected '2027-01-31' at column 25 (column 25)"],
    [
      "days between 2026-11-25 to 2027-01-31",
      "Expected 'and', as in days between 2026-11-25 and 2027-01-31 at column 25 (column 25)",
    ],
    ["days between 2026-11-25 and 5 h", "days between needs two dates, not a duration (h) (column 1)"],
    ["sqrt(2026-12-01)", "sqrt() needs a number, not a date (column 1)"],
  ])("%s is refused: %s", (source, expected) => {
    expect(show(source)).toBe(`error: ${expected}`);
  });

  it("keeps a date across ans and variables", () => {
    const r = evaluate("2026-12-01 + 30 days");
    expect(r.ok && r.value).toEqual({ kind: "date", value: "2026-12-31" });
    const next = evaluate("ans + 1 day", { ans: r.ok ? r.value : null });
    expect(next.ok && next.display).toBe("2027-01-01");
    const bad = evaluate("ans", { ans: { kind: "date", value: "2026-02-30" } });
    expect(bad.ok || bad.error.code).toBe("invalid_option");
  });
});

// ---------------------------------------------------------------------------------------------------
// Differential tests against Python's datetime and qalc

const dateArb = fc
  .tuple(
    fc.integer({ min: 1900, max: 2200 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
  )
  .map(([y, m, d]) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return `${y}-${String(m).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
  });

type Case =
  | { kind: "days"; date: string; n: number }
  | { kind: "months"; date: string; n: number }
  | { kind: "between"; date: string; other: string }
  | { kind: "weekday"; date: string };

const caseArb: fc.Arbitrary<Case> = fc.oneof(
  fc.record({
    kind: fc.constant("days" as const),
    date: dateArb,
    n: fc.integer({ min: -20_000, max: 20_000 }),
  }),
  fc.record({ kind: fc.constant("months" as const), date: dateArb, n: fc.integer({ min: -600, max: 600 }) }),
  fc.record({ kind: fc.constant("between" as const), date: dateArb, other: dateArb }),
  fc.record({ kind: fc.constant("weekday" as const), date: dateArb }),
);

function source(c: Case): string {
  switch (c.kind) {
    case "days":
      return `${c.date} ${c.n < 0 ? "-" : "+"} ${Math.abs(c.n)} days`;
    case "months":
      return `${c.date} ${c.n < 0 ? "-" : "+"} ${Math.abs(c.n)} months`;
    case "between":
      return `days between ${c.date} and ${c.other}`;
    case "weekday":
      return `weekday ${c.date}`;
  }
}

/** Python's answer: dates by `datetime`, months added with the month-end kept (calendar.monthrange). */
const PYTHON = `
import calendar, datetime, json, sys
out = []
for c in json.load(sys.stdin):
    d = datetime.date.fromisoformat(c["date"])
    if c["kind"] == "days":
        out.append((d + datetime.timedelta(days=c["n"])).isoformat())
    elif c["kind"] == "months":
        m = d.year * 12 + d.month - 1 + c["n"]
        y, mo = divmod(m, 12)
        day = min(d.day, calendar.monthrange(y, mo + 1)[1])
        out.append(datetime.date(y, mo + 1, day).isoformat())
    elif c["kind"] == "between":
        out.append(f'{(datetime.date.fromisoformat(c["other"]) - d).days} days')
    else:
        out.append(calendar.day_name[d.weekday()])
print(json.dumps(out))
`;

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** The same case for qalc, or null where qalc's rule differs (months). */
function qalcOf(c: Case): string | null {
  switch (c.kind) {
    case "days":
      return `"${c.date}" + (${c.n}) days`;
    case "between":
      return `"${c.other}" - "${c.date}"`;
    case "weekday":
      return `weekday("${c.date}")`;
    case "months":
      return null;
  }
}

function fromQalc(c: Case, line: string): string {
  const t = line.trim().replace(/^"|"$/g, "").replace(/−/g, "-");
  if (c.kind === "between") return `${t.replace(/ d$/, "")} days`;
  if (c.kind === "weekday") return WEEKDAYS[Number(t) - 1] ?? t;
  return t;
}

describe("against Python's datetime and qalc", () => {
  const cases = fc.sample(caseArb, { numRuns: 400, seed: 20261128 });
  const python = JSON.parse(
    execFileSync("python3", ["-c", PYTHON], { input: JSON.stringify(cases), encoding: "utf8" }),
  ) as string[];
  const forQalc = cases
    .map((c, i) => [i, qalcOf(c)] as const)
    .filter((x): x is [number, string] => x[1] !== null);
  const qalc = execFileSync("qalc", ["-t", "-f", "-"], {
    input: forQalc.map(([, q]) => q).join("\n"),
    encoding: "utf8",
  })
    .trim()
    .split("\n");

  it("has every kind of case and one answer per case from each tool", () => {
    expect(python).toHaveLength(cases.length);
    expect(qalc).toHaveLength(forQalc.length);
    for (const kind of ["days", "months", "between", "weekday"]) {
      expect(cases.filter((c) => c.kind === kind).length, kind).toBeGreaterThan(50);
    }
  });

  it("agrees with Python on every case", () => {
    const wrong = cases.flatMap((c, i) => {
      const ours = show(source(c));
      return ours === python[i] ? [] : [`${source(c)}: ${ours} vs Python ${python[i]}`];
    });
    expect(wrong).toEqual([]);
  });

  it("agrees with qalc on days, days between and weekdays", () => {
    const wrong = forQalc.flatMap(([i], k) => {
      const c = cases[i] as Case;
      const ours = show(source(c));
      const theirs = fromQalc(c, qalc[k] as string);
      return ours === theirs ? [] : [`${source(c)}: ${ours} vs qalc ${qalc[k]}`];
    });
    expect(wrong).toEqual([]);
  });
});
