/**
 * Abacus receipts: the order's facts as RFC 8785 canonical JSON (the `canonicalize` package, by the
 * RFC's author), signed with Ed25519. The signature covers exactly the canonical UTF-8 bytes, so
 *
 *   openssl pkeyutl -verify -pubin -inkey receipt-key.pem -rawin -in receipt.json -sigfile receipt.sig
 *
 * verifies a downloaded receipt. The receipt names its key (`kid`, the RFC 7638 JWK thumbprint of the
 * public key), so old receipts still verify after the instance rotates its key.
 *
 * Pure: verification (@noble/curves, strict RFC 8032 rules as OpenSSL applies them) runs in Node and
 * in the browser; signing happens on the server with node:crypto.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import canonicalize from "canonicalize";
import { base64ToBytes, bytesToBase64Url, hexToBytes, utf8ToBytes } from "../crypto/encoding";
import { firstDuplicateKey } from "./duplicate-keys";

export const RECEIPT_TYPE = "abacus.receipt";
export const RECEIPT_VERSION = 1;
/** Largest receipt accepted for verification, in characters (a real one is about 1 KB). */
export const MAX_RECEIPT_CHARS = 16_384;

/** Who sold: the instance's operator, as configured when the receipt was issued. */
export interface ReceiptSeller {
  name: string;
  /** Postal address lines (or the instance's URL when none is configured). */
  address: string[];
  /** An email address, phone number or URL to reach the seller. */
  contact: string;
  vatId: string | null;
}

export interface ReceiptPayload {
  type: typeof RECEIPT_TYPE;
  version: typeof RECEIPT_VERSION;
  /** The signing key's id: RFC 7638 thumbprint of its public JWK. */
  kid: string;
  /** The issuing instance (its public URL, or "Abacus"). */
  issuer: string;
  /** The seller's name, address and contact (receipts issued before these were signed lack it). */
  seller?: ReceiptSeller;
  receiptNumber: string;
  /**
   * The invoice this payment settled (`INV-2026-000042`). Receipts signed before invoices existed lack
   * it; the field is optional, so they keep the same version and still verify.
   */
  invoiceNumber?: string;
  orderId: string;
  issuedAt: string;
  paidAt: string;
  organization: { id: string; name: string };
  billing: { name: string; country: string; vatId: string | null };
  plan: string;
  interval: string;
  period: { start: string; end: string };
  /** ISO 4217 code; the amounts below are decimal strings with exactly its minor digits. */
  currency: string;
  net: string;
  tax: string;
  total: string;
  /** Tax: percentage string ("20"), how it applied, and the billing country it came from. */
  taxRate: string;
  taxTreatment: string;
  /** The USD base price and the exchange rate and date that converted it. */
  basePrice: { currency: "USD"; amount: string };
  fx: { rate: string; date: string };
  payment: { provider: string; reference: string; brand: string; last4: string };
}

export const CREDIT_NOTE_TYPE = "abacus.credit-note";
export const CREDIT_NOTE_VERSION = 1;

/**
 * A signed credit note (a refund of part or all of an invoice): canonical JSON like a receipt,
 * signed with the same key. Amounts are positive decimal strings with the currency's minor digits.
 */
export interface CreditNotePayload {
  type: typeof CREDIT_NOTE_TYPE;
  version: typeof CREDIT_NOTE_VERSION;
  kid: string;
  issuer: string;
  creditNoteNumber: string;
  invoiceNumber: string;
  issuedAt: string;
  organization: { id: string };
  billing: { name: string; country: string; vatId: string | null };
  currency: string;
  net: string;
  tax: string;
  total: string;
  reason: string;
  refund: { provider: string; reference: string };
}

/** The canonical (RFC 8785) text of a JSON value. Throws on values JSON cannot hold. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("The value cannot be written as JSON");
  return text;
}

/** RFC 7638 thumbprint of an Ed25519 public key (raw 32 bytes): the key id. */
export function ed25519KeyId(publicKey: Uint8Array): string {
  const jwk = canonicalJson({ crv: "Ed25519", kty: "OKP", x: bytesToBase64Url(publicKey) });
  return bytesToBase64Url(sha256(utf8ToBytes(jwk)));
}

/** Decodes a signature given as base64, base64url or hex; undefined when it is none of them. */
export function decodeSignature(text: string): Uint8Array | undefined {
  const t = text.trim();
  try {
    if (/^[0-9a-fA-F]{128}$/.test(t)) return hexToBytes(t);
    return base64ToBytes(t);
  } catch {
    return undefined;
  }
}

export type ReceiptKey = { kid: string; publicKey: Uint8Array; retiredAt?: string | null };

export type VerifyOutcome =
  | { valid: true; kid: string; receipt: ReceiptPayload }
  | {
      valid: false;
      code: "malformed" | "not_canonical" | "unknown_key" | "bad_signature";
      message: string;
    };

/** The refusal of JSON that repeats a key, for the receipt itself or a request carrying it. */
export function duplicateKeyMessage(key: string, what = "The receipt"): string {
  return `${what} names the key "${key}" twice. Readers disagree on which value counts, so it is refused (the downloaded receipt.json never repeats a key).`;
}

/**
 * Verifies a receipt and a signature against the instance's keys, with OpenSSL's answer.
 *
 * As text (the downloaded file), the signature is checked over exactly those bytes, as
 * `openssl pkeyutl -verify -rawin` does: a re-indented, re-ordered or otherwise re-written file is
 * refused as `not_canonical` even when it would mean the same, because what is shown to a reader
 * must be what was signed. Text that repeats a key is refused before anything else. As an already
 * parsed value (an object in an API request, whose text the caller has checked for repeated keys),
 * its RFC 8785 canonical form is checked.
 */
export function verifyReceipt(
  receipt: string | unknown,
  signature: string | Uint8Array,
  keys: readonly ReceiptKey[],
): VerifyOutcome {
  let value: unknown = receipt;
  if (typeof receipt === "string") {
    if (receipt.length > MAX_RECEIPT_CHARS) {
      return {
        valid: false,
        code: "malformed",
        message: "The receipt is too large to be an Abacus receipt.",
      };
    }
    try {
      value = JSON.parse(receipt);
    } catch {
      return { valid: false, code: "malformed", message: "The receipt is not valid JSON." };
    }
    const repeated = firstDuplicateKey(receipt);
    if (repeated) return { valid: false, code: "malformed", message: duplicateKeyMessage(repeated.key) };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { valid: false, code: "malformed", message: "The receipt must be a JSON object." };
  }
  const payload = value as Partial<ReceiptPayload>;
  if (
    payload.type !== RECEIPT_TYPE ||
    payload.version !== RECEIPT_VERSION ||
    typeof payload.kid !== "string"
  ) {
    return {
      valid: false,
      code: "malformed",
      message: `This is not an Abacus receipt (it needs "type": "${RECEIPT_TYPE}", "version" and "kid").`,
    };
  }
  const sig = typeof signature === "string" ? decodeSignature(signature) : signature;
  if (sig?.length !== 64) {
    return {
      valid: false,
      code: "malformed",
      message: "The signature must be 64 bytes (base64, base64url or hex).",
    };
  }
  const key = keys.find((k) => k.kid === payload.kid);
  if (!key) {
    return {
      valid: false,
      code: "unknown_key",
      message: `This instance has never published a receipt key with id ${payload.kid}.`,
    };
  }
  let canonical: string;
  try {
    canonical = canonicalJson(value);
  } catch {
    return { valid: false, code: "malformed", message: "The receipt cannot be canonicalized." };
  }
  if (typeof receipt === "string" && receipt !== canonical) {
    return {
      valid: false,
      code: "not_canonical",
      message:
        "The receipt is not byte for byte the signed receipt.json: it was re-formatted or edited. Check the downloaded file as it is (OpenSSL refuses it too).",
    };
  }
  const bytes = utf8ToBytes(typeof receipt === "string" ? receipt : canonical);
  let ok = false;
  try {
    ok = ed25519.verify(sig, bytes, key.publicKey, { zip215: false });
  } catch {
    ok = false;
  }
  if (!ok) {
    return {
      valid: false,
      code: "bad_signature",
      message: "The signature does not match this receipt: it was altered or not signed by this instance.",
    };
  }
  return { valid: true, kid: key.kid, receipt: value as ReceiptPayload };
}
