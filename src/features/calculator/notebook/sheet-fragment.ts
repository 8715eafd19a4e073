import { isPrecision, LIMITS } from "@/core/decimal/limits";
import { isRoundingMode, type RoundingMode } from "@/core/rounding";
import { DEFAULT_ROUNDING } from "../decimal-session";

/**
 * A signed-out sheet lives in the URL fragment (`#sheet=…`): deflated, then base64url. A fragment is
 * never sent to a server, so a link shares the sheet and nothing else keeps it.
 */
export interface FragmentSheet {
  readonly text: string;
  readonly precision: number;
  readonly rounding: RoundingMode;
}

/** The longest fragment accepted (characters after `#sheet=`) and the longest sheet text, in bytes. */
export const FRAGMENT_LIMITS = { maxEncoded: 32_000, maxBytes: 64 * 1024 } as const;

export type FragmentRead =
  | { readonly kind: "none" }
  | { readonly kind: "sheet"; readonly sheet: FragmentSheet }
  | { readonly kind: "too-big" | "malformed"; readonly message: string };

const PREFIX = "#sheet=";

export function sheetBytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, cap: number) {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    // a small fragment can inflate to a lot: stop reading past the cap
    if (size > cap) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The fragment for a sheet ("" for an empty sheet), or null when the sheet is over the byte cap. */
export async function encodeSheetFragment(sheet: FragmentSheet): Promise<string | null> {
  if (sheet.text.trim() === "") return "";
  const json = JSON.stringify({ v: 1, t: sheet.text, p: sheet.precision, r: sheet.rounding });
  const raw = new TextEncoder().encode(json);
  if (raw.length > FRAGMENT_LIMITS.maxBytes + 200) return null;
  const packed = await pipe(raw, new CompressionStream("deflate-raw"), Number.POSITIVE_INFINITY);
  if (!packed) return null;
  const encoded = toBase64Url(packed);
  return encoded.length > FRAGMENT_LIMITS.maxEncoded ? null : `${PREFIX}${encoded}`;
}

/** Reads `location.hash`: no sheet, a sheet, or why it cannot be opened. */
export async function decodeSheetFragment(hash: string): Promise<FragmentRead> {
  if (!hash.startsWith(PREFIX)) return { kind: "none" };
  const encoded = hash.slice(PREFIX.length);
  const kb = Math.round(FRAGMENT_LIMITS.maxEncoded / 1000);
  if (encoded.length > FRAGMENT_LIMITS.maxEncoded) {
    return { kind: "too-big", message: `The sheet in this link is too big to open (over ${kb} KB of link).` };
  }
  const malformed = {
    kind: "malformed",
    message: "The sheet in this link could not be read: the link is damaged or incomplete.",
  } as const;
  const bytes = fromBase64Url(encoded);
  if (!bytes) return malformed;
  let raw: Uint8Array | null;
  try {
    raw = await pipe(bytes, new DecompressionStream("deflate-raw"), FRAGMENT_LIMITS.maxBytes + 200);
  } catch {
    return malformed;
  }
  if (!raw) {
    const max = FRAGMENT_LIMITS.maxBytes / 1024;
    return {
      kind: "too-big",
      message: `The sheet in this link is over ${max} KB of text: it was not opened.`,
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    return malformed;
  }
  if (typeof data !== "object" || data === null) return malformed;
  const { v, t, p, r } = data as Record<string, unknown>;
  if (v !== 1 || typeof t !== "string") return malformed;
  if (sheetBytes(t) > FRAGMENT_LIMITS.maxBytes) {
    const max = FRAGMENT_LIMITS.maxBytes / 1024;
    return {
      kind: "too-big",
      message: `The sheet in this link is over ${max} KB of text: it was not opened.`,
    };
  }
  return {
    kind: "sheet",
    sheet: {
      text: t,
      precision: typeof p === "number" && isPrecision(p) ? p : LIMITS.defaultPrecision,
      rounding: typeof r === "string" && isRoundingMode(r) ? r : DEFAULT_ROUNDING,
    },
  };
}
