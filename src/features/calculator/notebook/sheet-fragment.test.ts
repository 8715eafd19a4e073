import { describe, expect, it } from "vitest";
import { evaluateSheet } from "@/core/decimal/sheet";
import { exportRows, fileName, toCsv, toMarkdown } from "./sheet-export";
import { decodeSheetFragment, encodeSheetFragment, FRAGMENT_LIMITS } from "./sheet-fragment";

const budget =
  "# Budget\nrent = 1,250 EUR\nfood = 420 EUR // groceries\nsubtotal\n\nrent * 3 / 0\n»unicode« ✓";

async function deflate(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return `#sheet=${Buffer.from(bytes).toString("base64url")}`;
}

describe("sheet fragment", () => {
  it("round-trips text, precision and rounding", async () => {
    const hash = await encodeSheetFragment({ text: budget, precision: 34, rounding: "down" });
    expect(hash).toMatch(/^#sheet=[A-Za-z0-9_-]+$/);
    const read = await decodeSheetFragment(hash ?? "");
    expect(read).toEqual({ kind: "sheet", sheet: { text: budget, precision: 34, rounding: "down" } });
  });

  it("has no fragment for an empty sheet, and reads other fragments as none", async () => {
    expect(await encodeSheetFragment({ text: "  \n", precision: 20, rounding: "half-up" })).toBe("");
    expect(await decodeSheetFragment("")).toEqual({ kind: "none" });
    expect(await decodeSheetFragment("#top")).toEqual({ kind: "none" });
  });

  it("refuses damaged fragments with a message", async () => {
    for (const hash of [
      "#sheet=%%%",
      "#sheet=AAAA",
      "#sheet=",
      await deflate("not json"),
      await deflate('{"v":2}'),
    ]) {
      const read = await decodeSheetFragment(hash);
      expect(read.kind, hash).toBe("malformed");
    }
  });

  it("refuses a fragment over the link cap, and one that inflates past the text cap", async () => {
    const long = await decodeSheetFragment(`#sheet=${"A".repeat(FRAGMENT_LIMITS.maxEncoded + 1)}`);
    expect(long.kind).toBe("too-big");
    // zeros compress about 1000:1: a short link that would inflate to megabytes
    const bomb = await deflate(JSON.stringify({ v: 1, t: "0".repeat(2_000_000) }));
    expect(bomb.length).toBeLessThan(FRAGMENT_LIMITS.maxEncoded);
    const read = await decodeSheetFragment(bomb);
    expect(read.kind).toBe("too-big");
    if (read.kind === "too-big") expect(read.message).toContain("64 KB");
  });

  it("does not put a sheet over the cap in a link", async () => {
    const text = Array.from({ length: 9000 }, (_, i) => `x${i} = ${i * 7919} EUR`).join("\n");
    expect(await encodeSheetFragment({ text, precision: 20, rounding: "half-up" })).toBeNull();
  });

  it("ignores unknown settings and falls back to the defaults", async () => {
    const read = await decodeSheetFragment(
      await deflate(JSON.stringify({ v: 1, t: "1+1", p: 5000, r: "sideways" })),
    );
    expect(read).toEqual({ kind: "sheet", sheet: { text: "1+1", precision: 20, rounding: "half-up" } });
  });
});

describe("sheet export", () => {
  const text = '# Trip\nhotel = 3 * 120 EUR\ntaxi = 45.50 EUR, "late"\n=1+\nsubtotal';
  const rows = exportRows(text, evaluateSheet(text, { precision: 20, rounding: "half-even" }));

  it("has one row per line with its result or error", () => {
    expect(rows.map((r) => r.result)).toEqual([
      "",
      "360.00 EUR",
      expect.stringMatching(/^Error \(column \d+\): /),
      expect.stringMatching(/^Error \(column \d+\): /),
      "360.00 EUR",
    ]);
  });

  it("writes CSV that parses back, with formula-looking cells defused", async () => {
    const Papa = (await import("papaparse")).default;
    const parsed = Papa.parse<string[]>(toCsv(rows), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual(["line", "expression", "result"]);
    expect(parsed.data[2]).toEqual(["2", "hotel = 3 * 120 EUR", "360.00 EUR"]);
    expect(parsed.data[3]?.[1]).toBe('taxi = 45.50 EUR, "late"');
    expect(parsed.data[4]?.[1]).toBe("'=1+");
  });

  it("writes a Markdown table with pipes escaped", () => {
    const md = toMarkdown("Trip | March", [{ line: 1, expression: "a | b", result: "2" }]);
    expect(md).toBe(
      "# Trip | March\n\n| Line | Expression | Result |\n| ---: | --- | ---: |\n| 1 | a \\| b | 2 |\n",
    );
    expect(fileName("Trip | March 2026!", "md")).toBe("trip-march-2026.md");
    expect(fileName("  ", "csv")).toBe("sheet.csv");
  });
});
