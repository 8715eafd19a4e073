import { base64ToBytes, bytesToBase64 } from "./encoding";
import { CryptoInputError, fail } from "./errors";

export interface PemBlock {
  /** The label between `BEGIN ` and the dashes, e.g. `PRIVATE KEY`. */
  label: string;
  /** RFC 1421 headers (`Proc-Type`, `DEK-Info`) of legacy OpenSSL encrypted keys, if any. */
  headers: Record<string, string>;
  der: Uint8Array;
}

const BEGIN = /-----BEGIN ([A-Z0-9 #-]*)-----/g;

/**
 * Every PEM block in the text (text outside blocks is ignored, as OpenSSL does). Throws `MALFORMED_PEM`
 * for a BEGIN without a matching END, a mismatched label, or a body that is not base64.
 */
export function parsePemAll(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  BEGIN.lastIndex = 0;
  for (let m = BEGIN.exec(text); m !== null; m = BEGIN.exec(text)) {
    const label = m[1] ?? "";
    const bodyStart = m.index + m[0].length;
    const endMarker = `-----END ${label}-----`;
    const end = text.indexOf(endMarker, bodyStart);
    if (end < 0) {
      const anyEnd = /-----END ([A-Z0-9 #-]*)-----/.exec(text.slice(bodyStart));
      fail(
        "MALFORMED_PEM",
        anyEnd
          ? `Malformed PEM: "BEGIN ${label}" is closed by "END ${anyEnd[1]}"`
          : `Malformed PEM: "BEGIN ${label}" has no END line`,
      );
    }
    let body = text.slice(bodyStart, end);
    const headers: Record<string, string> = {};
    const headerEnd = body.search(/\r?\n\r?\n/);
    if (headerEnd >= 0 && /^\s*[A-Za-z-]+:/.test(body)) {
      for (const line of body.slice(0, headerEnd).split(/\r?\n/)) {
        const idx = line.indexOf(":");
        if (idx > 0) headers[line.slice(0, idx).trim()] = line.slice(idx + 1).trim();
      }
      body = body.slice(headerEnd);
    }
    let der: Uint8Array;
    try {
      der = base64ToBytes(body);
    } catch (e) {
      const detail = e instanceof CryptoInputError ? e.message : String(e);
      fail("MALFORMED_PEM", `Malformed PEM: the body of "${label}" is not base64 (${detail})`, e);
    }
    if (der.length === 0) fail("MALFORMED_PEM", `Malformed PEM: the body of "${label}" is empty`);
    blocks.push({ label, headers, der });
    BEGIN.lastIndex = end + endMarker.length;
  }
  return blocks;
}

/** The first PEM block; `MALFORMED_PEM` if there is none. */
export function parsePem(text: string, expectedLabels?: readonly string[]): PemBlock {
  const blocks = parsePemAll(text);
  const first = blocks[0];
  if (!first) {
    fail(
      "MALFORMED_PEM",
      text.includes("-----END")
        ? "Malformed PEM: an END line without a BEGIN line"
        : "Malformed PEM: no '-----BEGIN …-----' line found",
    );
  }
  if (expectedLabels && !expectedLabels.includes(first.label)) {
    fail(
      "MALFORMED_PEM",
      `Malformed PEM: expected ${expectedLabels.map((l) => `"${l}"`).join(" or ")}, found "${first.label}"`,
    );
  }
  return first;
}

/** PEM armor as OpenSSL writes it: 64-character lines and a trailing newline. */
export function toPem(label: string, der: Uint8Array): string {
  const b64 = bytesToBase64(der);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

export function looksLikePem(text: string): boolean {
  return /-----BEGIN [A-Z0-9 #-]*-----/.test(text);
}
