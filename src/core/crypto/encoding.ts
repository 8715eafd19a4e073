import { fail } from "./errors";

const encoder = new TextEncoder();

export function utf8ToBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8; with `fatal` (the default) invalid sequences throw `BAD_UTF8` instead of becoming U+FFFD. */
export function bytesToUtf8(bytes: Uint8Array, fatal = true): string {
  try {
    return new TextDecoder("utf-8", { fatal }).decode(bytes);
  } catch (e) {
    return fail("BAD_UTF8", "The bytes are not valid UTF-8", e);
  }
}

const HEX = "0123456789abcdef";
const HEX_TABLE: string[] = Array.from({ length: 256 }, (_, i) => (HEX[i >> 4] ?? "") + (HEX[i & 15] ?? ""));

export function bytesToHex(bytes: Uint8Array, separator = ""): string {
  const out = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = HEX_TABLE[bytes[i] ?? 0] ?? "";
  return out.join(separator);
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/**
 * Parses hex, tolerating whitespace and the `:`/`-` separators of `openssl` and fingerprint output and an
 * optional leading `0x`. Anything else is an error naming its position (1-based, in the original text).
 */
export function hexToBytes(text: string): Uint8Array {
  let start = 0;
  const trimmedStart = text.search(/\S/);
  if (trimmedStart >= 0 && /^0x/i.test(text.slice(trimmedStart, trimmedStart + 2))) start = trimmedStart + 2;
  const out = new Uint8Array(text.length >> 1);
  let n = 0;
  let high = -1;
  let highPos = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 58 || c === 45) {
      if (high >= 0 && c !== 32 && c !== 9 && c !== 10 && c !== 13) {
        // a separator in the middle of a byte ("a:b") is ambiguous
        fail("BAD_HEX", `Invalid hex at position ${i + 1}: separator inside a byte`);
      }
      continue;
    }
    const v = hexValue(c);
    if (v < 0) fail("BAD_HEX", `Invalid hex at position ${i + 1}: unexpected ${JSON.stringify(text[i])}`);
    if (high < 0) {
      high = v;
      highPos = i;
    } else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) fail("BAD_HEX", `Invalid hex at position ${highPos + 1}: odd number of hex digits`);
  return out.slice(0, n);
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64_DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  B64_DECODE[B64.charCodeAt(i)] = i;
  B64_DECODE[B64URL.charCodeAt(i)] = i;
}

export function bytesToBase64(bytes: Uint8Array, url = false): string {
  const alphabet = url ? B64URL : B64;
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += `${alphabet[v >> 18]}${alphabet[(v >> 12) & 63]}${alphabet[(v >> 6) & 63]}${alphabet[v & 63]}`;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const v = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out += (alphabet[v >> 18] ?? "") + (alphabet[(v >> 12) & 63] ?? "");
    out += rest === 2 ? (alphabet[(v >> 6) & 63] ?? "") : url ? "" : "=";
    out += url ? "" : "=";
  }
  return out;
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes, true);
}

/**
 * Decodes base64 or base64url (either alphabet, padding optional, whitespace ignored). Errors name the
 * 1-based position of the offending character.
 */
export function base64ToBytes(text: string): Uint8Array {
  const out = new Uint8Array(Math.ceil((text.length * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  let digits = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === 61) {
      padding++;
      if (padding > 2) fail("BAD_BASE64", `Invalid base64 at position ${i + 1}: too much padding`);
      continue;
    }
    const v = c < 128 ? (B64_DECODE[c] ?? -1) : -1;
    if (v < 0)
      fail("BAD_BASE64", `Invalid base64 at position ${i + 1}: unexpected ${JSON.stringify(text[i])}`);
    if (padding > 0) fail("BAD_BASE64", `Invalid base64 at position ${i + 1}: data after padding`);
    acc = (acc << 6) | v;
    bits += 6;
    digits++;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  if (digits % 4 === 1) fail("BAD_BASE64", "Invalid base64: the length is not possible (one digit too many)");
  if (padding > 0 && (digits + padding) % 4 !== 0)
    fail("BAD_BASE64", "Invalid base64: wrong amount of padding");
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) {
    fail("BAD_BASE64", "Invalid base64: non-zero bits in the last digit (the text may be truncated)");
  }
  return out.slice(0, n);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Big-endian unsigned bytes of a non-negative bigint; `length` left-pads (and must be large enough). */
export function bigintToBytes(value: bigint, length?: number): Uint8Array {
  if (value < 0n) throw new RangeError("negative bigint");
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const raw = hexToBytes(hex);
  if (length === undefined) return raw;
  if (raw.length > length) throw new RangeError(`bigint does not fit in ${length} bytes`);
  const out = new Uint8Array(length);
  out.set(raw, length - raw.length);
  return out;
}

export function bytesToBigint(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

export function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}

/**
 * The bytes as the `Uint8Array<ArrayBuffer>` WebCrypto's TypeScript signatures insist on: the same view
 * when it is already backed by an ArrayBuffer (no copy of a big file), else a copy.
 */
export function toBufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>;
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

export type TextEncoding = "utf8" | "hex" | "base64" | "base64url";

/** Reads text typed in the UI as bytes in the named encoding. */
export function decodeText(text: string, encoding: TextEncoding): Uint8Array {
  switch (encoding) {
    case "utf8":
      return utf8ToBytes(text);
    case "hex":
      return hexToBytes(text);
    case "base64":
    case "base64url":
      return base64ToBytes(text);
  }
}

export function encodeBytes(bytes: Uint8Array, encoding: TextEncoding): string {
  switch (encoding) {
    case "utf8":
      return bytesToUtf8(bytes);
    case "hex":
      return bytesToHex(bytes);
    case "base64":
      return bytesToBase64(bytes);
    case "base64url":
      return bytesToBase64Url(bytes);
  }
}
