/**
 * What a key or certificate file holds, for a text field: text (PEM, base64 or hex DER, a JWK) as it is,
 * binary DER as base64, which every key input reads. Pure and dependency-free (it runs in the page, not
 * the worker, so it does not pull asn1js into the page's code).
 */
import { bytesToBase64 } from "./encoding";

const MAX_DEPTH = 64;

/**
 * The end of the DER element at `offset` (tag, definite minimal length, and for a constructed element
 * its children, each in turn), or -1 when the bytes up to `end` are not one. Only the framing is
 * checked, not what a tag's contents mean: enough to tell a DER file from text.
 */
function derElementEnd(b: Uint8Array, offset: number, end: number, depth: number): number {
  if (depth > MAX_DEPTH || offset >= end) return -1;
  let i = offset;
  const tag = b[i++] ?? 0;
  if ((tag & 0x1f) === 0x1f) {
    // High tag number: base-128 digits, the last without the top bit.
    for (let digits = 0; ; digits++) {
      if (i >= end || digits > 4) return -1;
      if (((b[i++] ?? 0) & 0x80) === 0) break;
    }
  }
  if (i >= end) return -1;
  let length = b[i++] ?? 0;
  if (length & 0x80) {
    const n = length & 0x7f;
    // 0x80 is BER's indefinite length; DER lengths are minimal and a key file is far below 2^32.
    if (n === 0 || n > 4 || i + n > end || b[i] === 0) return -1;
    length = 0;
    for (let k = 0; k < n; k++) length = length * 256 + (b[i++] ?? 0);
    if (length < 0x80) return -1;
  }
  const contentEnd = i + length;
  if (contentEnd > end) return -1;
  if (tag & 0x20) {
    for (let p = i; p < contentEnd; ) {
      p = derElementEnd(b, p, contentEnd, depth + 1);
      if (p < 0) return -1;
    }
  }
  return contentEnd;
}

/** Whether the bytes are one DER SEQUENCE that spans them exactly (what a .der key or certificate is). */
export function isDerSequence(bytes: Uint8Array): boolean {
  return bytes[0] === 0x30 && derElementEnd(bytes, 0, bytes.length, 0) === bytes.length;
}

/** A C0 control other than tab, line feed, vertical tab, form feed and carriage return, or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32) || c === 127) return true;
  }
  return false;
}

/**
 * The file as text when it is text: valid UTF-8 (or UTF-16 with a byte order mark, as Windows editors
 * save "Unicode"), without a leading byte order mark, and no control characters but whitespace.
 */
export function fileAsText(bytes: Uint8Array): string | null {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : "utf-8";
  let text: string;
  try {
    // The decoder drops the byte order mark itself.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return hasControl(text) ? null : text;
}

/**
 * A key/certificate file for a text field. DER (one SEQUENCE spanning the file) becomes base64; text
 * (PEM, base64 or hex DER, a JWK, even a hex dump that starts with "0") stays as it is; anything else is
 * binary too, as base64, so that the key loaders say what is wrong with its DER rather than show
 * mojibake. Deciding by the first byte alone (0x30, a SEQUENCE's tag) took any text starting with "0"
 * for DER.
 */
export function keyFileText(bytes: Uint8Array): { text: string; binary: boolean } {
  if (isDerSequence(bytes)) return { text: bytesToBase64(bytes), binary: true };
  const text = fileAsText(bytes);
  return text === null ? { text: bytesToBase64(bytes), binary: true } : { text, binary: false };
}
