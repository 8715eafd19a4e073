import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// The page font's weight axis is limited (scripts/build/subset-font.sh): a weight outside it would be
// drawn by the browser as a faked bold or the nearest weight, not as Inter. These tests read the
// axis from the font file itself and every weight the pages ask for from the source.

const FONT = path.join(__dirname, "inter-latin-wght-400-700.woff2");

// WOFF2's table tags by index (W3C WOFF2 §5.1); only the position of `fvar` matters here.
const KNOWN_TAGS =
  "cmap head hhea hmtx maxp name OS/2 post cvt  fpgm glyf loca prep CFF  VORG EBDT EBLC gasp hdmx kern LTSH PCLT VDMX vhea vmtx BASE GDEF GPOS GSUB EBSC JSTF MATH CBDT CBLC COLR CPAL SVG  sbix acnt avar bdat bloc bsln cvar fdsc feat fmtx fvar gvar hsty just lcar mort morx opbd prop trak Zapf Silf Glat Gloc Feat Sill"
    .match(/.{4}\s?/g)
    ?.map((tag) => tag.slice(0, 4)) ?? [];

/** The `wght` axis (min, default, max) of a WOFF2 variable font. */
function weightAxis(file: Buffer) {
  expect(file.subarray(0, 4).toString("latin1")).toBe("wOF2");
  const numTables = file.readUInt16BE(12);
  let offset = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = file[offset++] ?? 0;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error("bad UIntBase128");
  };
  const tables: { tag: string; length: number }[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = file[offset++] ?? 0;
    let tag = KNOWN_TAGS[flags & 0x3f] ?? "";
    if ((flags & 0x3f) === 63) {
      tag = file.subarray(offset, offset + 4).toString("latin1");
      offset += 4;
    }
    const version = flags >> 6;
    const origLength = base128();
    // glyf and loca are transformed unless version 3; every other table only with a non-zero version.
    const transformed = tag === "glyf" || tag === "loca" ? version !== 3 : version !== 0;
    const length = transformed ? base128() : origLength;
    tables.push({ tag, length });
  }
  const stream = brotliDecompressSync(file.subarray(offset, offset + file.readUInt32BE(20)));
  let at = 0;
  for (const { tag, length } of tables) {
    if (tag === "fvar") {
      const fvar = stream.subarray(at, at + length);
      const axesOffset = fvar.readUInt16BE(4);
      const axisCount = fvar.readUInt16BE(8);
      const axisSize = fvar.readUInt16BE(10);
      for (let a = 0; a < axisCount; a++) {
        const record = axesOffset + a * axisSize;
        if (fvar.subarray(record, record + 4).toString("latin1") !== "wght") continue;
        const fixed = (o: number) => fvar.readInt32BE(record + o) / 65536;
        return { min: fixed(4), default: fixed(8), max: fixed(12) };
      }
    }
    at += length;
  }
  throw new Error("no wght axis");
}

const TAILWIND_WEIGHTS: Record<string, number> = {
  thin: 100,
  extralight: 200,
  light: 300,
  normal: 400,
  medium: 500,
  semibold: 600,
  bold: 700,
  extrabold: 800,
  black: 900,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx?|css)$/.test(entry.name) && !entry.name.includes(".test.") ? [full] : [];
  });
}

/** Every font weight the source asks for: Tailwind's font-* classes and CSS font-weight values. */
function weightsUsed() {
  const used = new Map<number, string>();
  for (const file of sourceFiles(path.join(__dirname, ".."))) {
    const text = readFileSync(file, "utf8");
    for (const [, name] of text.matchAll(
      /\bfont-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)\b/g,
    )) {
      used.set(TAILWIND_WEIGHTS[name as string] as number, file);
    }
    for (const [, value] of text.matchAll(/font-(?:weight:\s*|\[)(\d{3})\b/g)) used.set(Number(value), file);
  }
  return used;
}

describe("the page font", () => {
  it("is a variable font whose weight axis runs 400 to 700", () => {
    expect(weightAxis(readFileSync(FONT))).toEqual({ min: 400, default: 400, max: 700 });
  });

  it("covers every weight the pages use", () => {
    const { min, max } = weightAxis(readFileSync(FONT));
    const used = weightsUsed();
    // The scan finds the weights we know are there (so an empty scan cannot pass).
    expect([...used.keys()]).toEqual(expect.arrayContaining([400, 500, 600, 650, 700]));
    const outside = [...used].filter(([weight]) => weight < min || weight > max);
    expect(outside).toEqual([]);
  });

  it("reads the package's own file as spanning 100 to 900 (the reader is not fixed on one answer)", () => {
    const original = readFileSync(
      path.join(process.cwd(), "node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"),
    );
    expect(weightAxis(original)).toEqual({ min: 100, default: 400, max: 900 });
  });
});
