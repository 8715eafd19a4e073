import { type DerNode, parseDer, TAG } from "./asn1";
import { CURVES } from "./curves";
import { base64ToBytes, bigintToBytes, bytesToBase64Url, hexToBytes } from "./encoding";
import { CryptoInputError, fail } from "./errors";
import {
  decodeDsaTraditional,
  decodePkcs8,
  decodeRsaPrivatePkcs1,
  decodeRsaPublicPkcs1,
  decodeSec1,
  decodeSpki,
  encodePkcs8,
  encodeRsaPrivatePkcs1,
  encodeRsaPublicPkcs1,
  encodeSec1,
  encodeSpki,
  KEY_KIND_NAMES,
  type PrivateKeyData,
  type PublicKeyData,
  publicFromPrivate,
} from "./keys";
import { decryptLegacyPem, isLegacyEncrypted } from "./legacy-pem";
import { looksLikePem, parsePemAll } from "./pem";
import {
  DEFAULT_PBKDF2_ITERATIONS,
  decryptPkcs8,
  type EncryptPkcs8Options,
  encryptPkcs8,
} from "./pkcs8-encryption";

/** Key input as the UI gets it: PEM text, base64 or hex of DER, or DER bytes. */
export type KeyInput = string | Uint8Array;

export type DerFormat =
  | "PKCS#8"
  | "Encrypted PKCS#8"
  | "SPKI"
  | "PKCS#1 private"
  | "PKCS#1 public"
  | "SEC1"
  | "DSA private (OpenSSL traditional)"
  | "X.509 certificate"
  | "PKCS#10 certificate request"
  | "DH parameters"
  | "DSA parameters"
  | "Legacy encrypted PEM"
  | "unknown";

export interface DerInput {
  der: Uint8Array;
  /** PEM label when the input was PEM. */
  label?: string;
  headers?: Record<string, string>;
  /** How text that was not PEM was read as DER (absent for PEM and for bytes). */
  textEncoding?: "base64" | "hex";
}

/** Reads PEM (every block), or a single DER given as bytes, base64 or hex. */
export function readInput(input: KeyInput): DerInput[] {
  if (input instanceof Uint8Array) return [{ der: input }];
  const text = input.trim();
  if (text.length === 0) fail("MALFORMED_PEM", "The input is empty");
  if (looksLikePem(text) || text.includes("-----END")) {
    return parsePemAll(text).map((b) => ({ der: b.der, label: b.label, headers: b.headers }));
  }
  if (/^(0x)?[0-9a-fA-F\s:]+$/.test(text)) return [{ der: hexToBytes(text), textEncoding: "hex" }];
  try {
    return [{ der: base64ToBytes(text), textEncoding: "base64" }];
  } catch (e) {
    const detail = e instanceof CryptoInputError ? ` (as base64: ${e.message})` : "";
    return fail(
      "MALFORMED_PEM",
      `Not PEM, base64 or hex: paste a block that starts with "-----BEGIN …-----", or DER as base64 or hex${detail}`,
      e,
    );
  }
}

const LABEL_FORMATS: Record<string, DerFormat> = {
  "PRIVATE KEY": "PKCS#8",
  "ENCRYPTED PRIVATE KEY": "Encrypted PKCS#8",
  "PUBLIC KEY": "SPKI",
  "RSA PRIVATE KEY": "PKCS#1 private",
  "RSA PUBLIC KEY": "PKCS#1 public",
  "EC PRIVATE KEY": "SEC1",
  "DSA PRIVATE KEY": "DSA private (OpenSSL traditional)",
  CERTIFICATE: "X.509 certificate",
  "TRUSTED CERTIFICATE": "X.509 certificate",
  "X509 CERTIFICATE": "X.509 certificate",
  "DH PARAMETERS": "DH parameters",
  "X9.42 DH PARAMETERS": "DH parameters",
  "DSA PARAMETERS": "DSA parameters",
  "CERTIFICATE REQUEST": "PKCS#10 certificate request",
  "NEW CERTIFICATE REQUEST": "PKCS#10 certificate request",
};

/** PEM labels of things the inspector shows but no key input takes. */
const OTHER_LABELS = new Set([
  "X509 CRL",
  "PKCS7",
  "CMS",
  "PARAMETERS",
  "EC PARAMETERS",
  "ENCRYPTED PRIVATE KEY",
]);

/** Whether OpenSSL would know this PEM label (an unknown one is named, not silently read by shape). */
export function isKnownLabel(label: string): boolean {
  return label in LABEL_FORMATS || OTHER_LABELS.has(label);
}

function refuseUnknownLabel(label: string | undefined): void {
  if (label !== undefined && !isKnownLabel(label)) {
    fail(
      "MALFORMED_PEM",
      `Malformed PEM: unknown label "${label}"; keys are "PRIVATE KEY", "PUBLIC KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", …`,
    );
  }
}

const isSeq = (n: DerNode | undefined) => n?.tagClass === "universal" && n.tagNumber === TAG.SEQUENCE;
const isInt = (n: DerNode | undefined) => n?.tagClass === "universal" && n.tagNumber === TAG.INTEGER;
const isOctets = (n: DerNode | undefined) => n?.tagClass === "universal" && n.tagNumber === TAG.OCTET_STRING;
const isBits = (n: DerNode | undefined) => n?.tagClass === "universal" && n.tagNumber === TAG.BIT_STRING;
const isOid = (n: DerNode | undefined) => n?.tagClass === "universal" && n.tagNumber === TAG.OID;

/** Recognises a key or certificate structure from its shape (for DER without a PEM label). */
export function detectFormat(root: DerNode, label?: string): DerFormat {
  if (label && LABEL_FORMATS[label]) return LABEL_FORMATS[label];
  if (!isSeq(root)) return "unknown";
  const c = root.children;
  const [a, b, d] = c;
  if (c.length === 3 && isSeq(a) && isSeq(b) && isBits(d)) {
    const info = a?.children ?? [];
    const last = info[3];
    if (info.length === 4 && isInt(info[0]) && last?.tagClass === "context" && last.tagNumber === 0)
      return "PKCS#10 certificate request";
    return "X.509 certificate";
  }
  if (c.length >= 3 && isInt(a) && isSeq(b) && isOctets(d)) return "PKCS#8";
  if (c.length === 2 && isSeq(a) && isOid(a?.children[0]) && isOctets(b)) return "Encrypted PKCS#8";
  if (c.length === 2 && isSeq(a) && isBits(b)) return "SPKI";
  if (c.length >= 9 && c.slice(0, 9).every(isInt)) return "PKCS#1 private";
  if (c.length === 6 && c.every(isInt)) return "DSA private (OpenSSL traditional)";
  // Dss-Parms: p (1024+ bits), q (160-256 bits), g (about as long as p).
  if (c.length === 3 && c.every(isInt)) {
    const [p, q, g] = c.map((n) => n.content.length);
    if ((p ?? 0) >= 128 && (q ?? 0) >= 20 && (q ?? 0) <= 33 && (g ?? 0) >= 64) return "DSA parameters";
  }
  if (c.length >= 2 && isInt(a) && isOctets(b) && a?.content[0] === 1) return "SEC1";
  if (c.length === 2 && isInt(a) && isInt(b))
    return (a?.content.length ?? 0) > 32 ? "PKCS#1 public" : "unknown";
  return "unknown";
}

export interface LoadOptions {
  passphrase?: string | Uint8Array;
}

function parseStrict(der: Uint8Array): DerNode {
  try {
    return parseDer(der);
  } catch (e) {
    if (e instanceof CryptoInputError)
      throw new CryptoInputError("MALFORMED_KEY", `Malformed key: ${e.message}`);
    throw e;
  }
}

/** Any private key: PKCS#8 (plain or encrypted), PKCS#1, SEC1, or OpenSSL's traditional DSA format. */
export async function loadPrivateKey(
  input: KeyInput | PrivateKeyData,
  opts: LoadOptions = {},
): Promise<PrivateKeyData> {
  if (!(typeof input === "string" || input instanceof Uint8Array)) return input;
  const blocks = readInput(input);
  const block = blocks.find((b) => !b.label || /PRIVATE KEY/.test(b.label)) ?? blocks[0];
  if (!block) return fail("MALFORMED_PEM", "No key found");
  refuseUnknownLabel(block.label);
  if (isLegacyEncrypted(block.headers)) {
    const der = await decryptLegacyPem(block.headers ?? {}, block.der, opts.passphrase);
    try {
      parseDer(der);
    } catch (e) {
      // The padding check passes by chance about 1 time in 256 with a wrong passphrase.
      return fail("WRONG_PASSPHRASE", "Wrong passphrase: the key could not be decrypted", e);
    }
    return loadPrivateKey(toPem(block.label ?? "PRIVATE KEY", der));
  }
  const root = parseStrict(block.der);
  const format = detectFormat(root, block.label);
  switch (format) {
    case "PKCS#8":
      return decodePkcs8(root);
    case "Encrypted PKCS#8": {
      if (opts.passphrase === undefined || opts.passphrase.length === 0) {
        fail("PASSPHRASE_REQUIRED", "This private key is encrypted: enter its passphrase");
      }
      return decodePkcs8(await decryptPkcs8(block.der, opts.passphrase));
    }
    case "PKCS#1 private":
      return decodeRsaPrivatePkcs1(root);
    case "SEC1":
      return decodeSec1(block.der);
    case "DSA private (OpenSSL traditional)":
      return decodeDsaTraditional(block.der);
    case "SPKI":
    case "PKCS#1 public":
    case "X.509 certificate":
    case "PKCS#10 certificate request":
      return fail(
        "WRONG_KEY_TYPE",
        `Wrong key type: this is a ${format === "SPKI" ? "public key" : format}; a private key is needed`,
      );
    default:
      return fail(
        "MALFORMED_KEY",
        `Malformed key: not a private key format this tool knows (${block.label ?? "DER"})`,
      );
  }
}

/** Any public key: SPKI, PKCS#1 public, a certificate's key, or the public half of a private key. */
export async function loadPublicKey(
  input: KeyInput | PublicKeyData | PrivateKeyData,
  opts: LoadOptions = {},
) {
  if (!(typeof input === "string" || input instanceof Uint8Array)) {
    return "d" in input || "x" in input || "seed" in input || "secret" in input
      ? publicFromPrivate(input as PrivateKeyData)
      : (input as PublicKeyData);
  }
  const [block] = readInput(input);
  if (!block) return fail("MALFORMED_PEM", "No key found");
  refuseUnknownLabel(block.label);
  if (isLegacyEncrypted(block.headers)) return publicFromPrivate(await loadPrivateKey(input, opts));
  const root = parseStrict(block.der);
  const format = detectFormat(root, block.label);
  switch (format) {
    case "PKCS#10 certificate request": {
      const info = root.children[0]?.children ?? [];
      return decodeSpki(info[2] as DerNode);
    }
    case "SPKI":
      return decodeSpki(root);
    case "PKCS#1 public":
      return decodeRsaPublicPkcs1(block.der);
    case "X.509 certificate": {
      const tbs = root.children[0]?.children ?? [];
      const offset = tbs[0]?.tagClass === "context" ? 1 : 0;
      return decodeSpki(tbs[5 + offset] as DerNode);
    }
    case "DH parameters":
    case "DSA parameters":
      return fail("WRONG_KEY_TYPE", `Wrong key type: these are ${format}, not a key`);
    case "unknown":
      return fail("MALFORMED_KEY", "Malformed key: not a public key format this tool knows");
    default:
      return publicFromPrivate(await loadPrivateKey(input, opts));
  }
}

// ---- export ----------------------------------------------------------------------------------------

export type PrivateKeyFormat = "pkcs8" | "pkcs1" | "sec1";
export type PublicKeyFormat = "spki" | "pkcs1";

export interface ExportPrivateOptions extends EncryptPkcs8Options {
  format?: PrivateKeyFormat;
  /** Encrypts as PKCS#8 PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC). Only with the pkcs8 format. */
  passphrase?: string;
}

export function privateKeyDer(k: PrivateKeyData, format: PrivateKeyFormat = "pkcs8"): Uint8Array {
  if (format === "pkcs8") return encodePkcs8(k);
  if (format === "pkcs1") {
    if (k.kind !== "rsa")
      fail("WRONG_KEY_TYPE", `Wrong key type: PKCS#1 is for RSA keys, not ${KEY_KIND_NAMES[k.kind]}`);
    return encodeRsaPrivatePkcs1(k);
  }
  if (k.kind !== "ec")
    fail("WRONG_KEY_TYPE", `Wrong key type: SEC1 is for EC keys, not ${KEY_KIND_NAMES[k.kind]}`);
  return encodeSec1(k);
}

const PRIVATE_LABEL: Record<PrivateKeyFormat, string> = {
  pkcs8: "PRIVATE KEY",
  pkcs1: "RSA PRIVATE KEY",
  sec1: "EC PRIVATE KEY",
};

export async function exportPrivateKeyPem(
  k: PrivateKeyData,
  opts: ExportPrivateOptions = {},
): Promise<string> {
  const format = opts.format ?? "pkcs8";
  if (opts.passphrase !== undefined && opts.passphrase !== "") {
    if (format !== "pkcs8") {
      fail("INVALID_PARAMETER", "Only PKCS#8 keys can be encrypted with a passphrase here");
    }
    const enc = await encryptPkcs8(encodePkcs8(k), opts.passphrase, {
      iterations: opts.iterations ?? DEFAULT_PBKDF2_ITERATIONS,
      ...(opts.prf ? { prf: opts.prf } : {}),
      ...(opts.cipher ? { cipher: opts.cipher } : {}),
    });
    return toPem("ENCRYPTED PRIVATE KEY", enc);
  }
  return toPem(PRIVATE_LABEL[format], privateKeyDer(k, format));
}

export function publicKeyDer(k: PublicKeyData, format: PublicKeyFormat = "spki"): Uint8Array {
  if (format === "spki") return encodeSpki(k);
  if (k.kind !== "rsa")
    fail("WRONG_KEY_TYPE", `Wrong key type: PKCS#1 is for RSA keys, not ${KEY_KIND_NAMES[k.kind]}`);
  return encodeRsaPublicPkcs1(k);
}

export function exportPublicKeyPem(k: PublicKeyData, format: PublicKeyFormat = "spki"): string {
  return toPem(format === "spki" ? "PUBLIC KEY" : "RSA PUBLIC KEY", publicKeyDer(k, format));
}

import { toPem } from "./pem";

const b64u = (v: bigint, len?: number) => bytesToBase64Url(bigintToBytes(v, len));

/**
 * JWK (RFC 7517/7518/8037) where WebCrypto defines one: RSA, EC on P-256/384/521, Ed25519, X25519, and
 * RFC 8037's Ed448 and X448; and
 * secp256k1 (RFC 8812). DSA and DH have no JWK form: undefined.
 */
export function toJwk(k: PrivateKeyData | PublicKeyData): JsonWebKey | undefined {
  switch (k.kind) {
    case "rsa": {
      const jwk: JsonWebKey = { kty: "RSA", n: b64u(k.n), e: b64u(k.e) };
      if ("d" in k) {
        Object.assign(jwk, {
          d: b64u(k.d),
          p: b64u(k.p),
          q: b64u(k.q),
          dp: b64u(k.dp),
          dq: b64u(k.dq),
          qi: b64u(k.qi),
        });
      }
      return jwk;
    }
    case "ec": {
      const size = CURVES[k.curve].size;
      const jwk: JsonWebKey = {
        kty: "EC",
        crv: k.curve,
        x: bytesToBase64Url(k.point.subarray(1, 1 + size)),
        y: bytesToBase64Url(k.point.subarray(1 + size)),
      };
      if ("d" in k) jwk.d = bytesToBase64Url(k.d);
      return jwk;
    }
    case "ed25519":
    case "x25519":
    case "ed448":
    case "x448": {
      const jwk: JsonWebKey = {
        kty: "OKP",
        crv: KEY_KIND_NAMES[k.kind],
        x: bytesToBase64Url(k.publicKey),
      };
      if ("seed" in k) jwk.d = bytesToBase64Url(k.seed);
      if ("secret" in k) jwk.d = bytesToBase64Url(k.secret);
      return jwk;
    }
    default:
      return undefined;
  }
}
