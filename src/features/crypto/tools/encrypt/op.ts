/**
 * The symmetric-encryption tool's operation, in `openssl enc` format.
 */
import * as c from "@/core/crypto";
import { formatLimit } from "../../format";
import { at, bytesOf, type DataSpec, FieldError, type Fields } from "../../op-base";

/** Encrypting a file keeps input and output in memory: this much at most. */
export const SYMMETRIC_MAX_BYTES = 256 * 1024 * 1024;
/** Results longer than this are offered as a download only, not shown as text. */
const SHOW_MAX_BYTES = 64 * 1024;

export interface SymmetricArgs {
  direction: "encrypt" | "decrypt";
  cipher: c.SymmetricCipher;
  keyMode: "password" | "raw";
  password: string;
  kdf: "pbkdf2" | "legacy";
  iterations: number;
  hash: c.HashAlgorithm;
  /** Hex, for keyMode "raw". */
  key: string;
  iv: string;
  aad: DataSpec | null;
  data: DataSpec;
  /** "base64-lines" is `openssl enc -a` (64-column lines); "utf8" for decrypted text. */
  output: "base64" | "base64-lines" | "hex" | "utf8";
}

export interface SymmetricResult {
  /** The output as text, or "" when it is too long to show (download it). */
  value: string;
  shownAs: SymmetricArgs["output"];
  /** The raw output bytes, for download. */
  bytes: Uint8Array;
  key: string;
  iv: string;
  salt?: string;
  /** The ciphertext file was Base64 text (openssl enc -a) and was decoded first. */
  readAsBase64?: boolean;
}

function wrap64(text: string): string {
  return text.replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
}

async function symmetric(a: SymmetricArgs): Promise<SymmetricResult> {
  if (a.data.kind === "file" && a.data.file.size > SYMMETRIC_MAX_BYTES) {
    throw new FieldError(
      "INPUT_TOO_LARGE",
      `Files up to ${formatLimit(SYMMETRIC_MAX_BYTES)} can be encrypted here; use openssl enc for larger ones`,
      "data",
    );
  }
  let data = await bytesOf("data", a.data);
  // A file `openssl enc -a` wrote is Base64 text: read it as such when it is nothing else.
  let readAsBase64 = false;
  if (a.direction === "decrypt" && a.data.kind === "file" && looksLikeBase64(data)) {
    const text = new TextDecoder().decode(data).replace(/\s+/g, "");
    data = await at("data", () => c.base64ToBytes(text));
    readAsBase64 = true;
  }
  const aad = a.aad ? await bytesOf("aad", a.aad) : undefined;
  const opts = aad && aad.length > 0 ? { aad } : {};
  let key: c.EncKey;
  if (a.keyMode === "raw") {
    key = {
      kind: "raw",
      key: await at("key", () => c.hexToBytes(a.key)),
      iv: await at("iv", () => c.hexToBytes(a.iv)),
    };
  } else {
    key = { kind: "password", password: a.password, kdf: a.kdf, hash: a.hash, iterations: a.iterations };
  }
  const fields: Fields = {
    DECRYPTION_FAILED: a.keyMode === "raw" ? "key" : "password",
    default: a.keyMode === "raw" ? "key" : "password",
  };
  let out: Uint8Array;
  let info: { key: Uint8Array; iv: Uint8Array; salt?: Uint8Array } | undefined;
  if (a.direction === "encrypt") {
    const r = await at({ ...fields, INVALID_PARAMETER: a.keyMode === "raw" ? "key" : "iterations" }, () =>
      c.symmetricEncrypt(a.cipher, data, key, opts),
    );
    out = r.output;
    info = r;
  } else {
    const r = await at(fields, () => c.symmetricDecryptDetailed(a.cipher, data, key, opts));
    out = r.output;
    info = r;
  }
  let shownAs = a.output;
  let value = "";
  if (out.length <= SHOW_MAX_BYTES) {
    if (shownAs === "utf8") {
      try {
        value = c.bytesToUtf8(out);
      } catch {
        shownAs = "hex";
      }
    }
    if (shownAs === "hex") value = c.bytesToHex(out);
    else if (shownAs === "base64") value = c.bytesToBase64(out);
    else if (shownAs === "base64-lines") value = wrap64(c.bytesToBase64(out));
  }
  const result: SymmetricResult = {
    value,
    shownAs,
    bytes: out,
    key: info ? c.bytesToHex(info.key) : "",
    iv: info ? c.bytesToHex(info.iv) : "",
  };
  if (info?.salt) result.salt = c.bytesToHex(info.salt);
  if (readAsBase64) result.readAsBase64 = true;
  return result;
}

/**
 * Whether file bytes are Base64 text (`openssl enc -a` output: the alphabet in lines), rather than
 * binary ciphertext, which is all Base64 characters only by a chance too small to matter.
 */
function looksLikeBase64(bytes: Uint8Array): boolean {
  let chars = 0;
  for (const b of bytes) {
    const base64 =
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      (b >= 0x30 && b <= 0x39) ||
      b === 0x2b ||
      b === 0x2f;
    if (base64) chars++;
    else if (b !== 0x3d && b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) return false;
  }
  return chars >= 16;
}

export const ops = { symmetric };
