import { DSA, genDSAParams } from "micro-rsa-dsa-dh/dsa.js";
import { type DhGroupName, dhGroup } from "./dh-groups";
import { decodeDerSignature, derToRaw, encodeDerSignature, type SignatureFormat } from "./ec";
import { bigintToBytes, bitLength, bytesToBigint } from "./encoding";
import { fail } from "./errors";
import { type HashAlgorithm, nobleHash, randomBytes } from "./hash";
import { type DhParams, type DsaParams, modPow, type PrivateKeyData, type PublicKeyData } from "./keys";

/** Finite-field cryptography: DSA (FIPS 186-4) and Diffie-Hellman, on micro-rsa-dsa-dh's bigint arithmetic. */

export type DsaPrivateKey = Extract<PrivateKeyData, { kind: "dsa" }>;
export type DsaPublicKey = Extract<PublicKeyData, { kind: "dsa" }>;
export type DhPrivateKey = Extract<PrivateKeyData, { kind: "dh" }>;
export type DhPublicKey = Extract<PublicKeyData, { kind: "dh" }>;

export const DSA_SIZES = [2048, 3072] as const;

/** A uniform integer in [2, max - 1] (rejection sampling over random bytes). */
function randomBelow(max: bigint): bigint {
  const bytes = Math.ceil(bitLength(max) / 8);
  const extraBits = BigInt(bytes * 8 - bitLength(max));
  for (;;) {
    const v = bytesToBigint(randomBytes(bytes)) >> extraBits;
    if (v >= 2n && v < max) return v;
  }
}

/** New DSA domain parameters (L, N = 256, SHA-256; FIPS 186-4 A.1.1.2) and a key. Takes seconds for L=3072. */
export function generateDsa(bits: number = 2048, params?: DsaParams): DsaPrivateKey {
  if (!params && bits < 2048)
    fail("KEY_TOO_SHORT", `DSA key too short: ${bits} bits (generate at least 2048)`);
  if (!params && !(DSA_SIZES as readonly number[]).includes(bits)) {
    fail("INVALID_PARAMETER", `DSA sizes: ${DSA_SIZES.map((b) => `${b}/256`).join(", ")}`);
  }
  const p = params ?? genDSAParams(bits, 256, nobleHash("SHA-256"), 1);
  const domain = { p: p.p, q: p.q, g: p.g };
  const x = randomBelow(domain.q);
  return { kind: "dsa", params: domain, x, y: modPow(domain.g, x, domain.p) };
}

function checkDsaParams(params: DsaParams): void {
  const pBits = bitLength(params.p);
  const qBits = bitLength(params.q);
  if (pBits < 1024) fail("KEY_TOO_SHORT", `DSA key too short: p has ${pBits} bits`);
  if (![160, 224, 256].includes(qBits))
    fail("MALFORMED_KEY", `DSA q has ${qBits} bits (expected 160, 224 or 256)`);
}

function dsaFor(params: DsaParams, hash: HashAlgorithm) {
  return DSA({ ...params, hash: nobleHash(hash) as never });
}

export interface DsaOptions {
  /** Default SHA-256. */
  hash?: HashAlgorithm;
  /** Default "der" (OpenSSL); "raw" is r||s with each N/8 bytes. */
  format?: SignatureFormat;
}

/** DSA signature with RFC 6979 deterministic k (micro-rsa-dsa-dh). */
export function dsaSign(k: DsaPrivateKey, data: Uint8Array, opts: DsaOptions = {}): Uint8Array {
  checkDsaParams(k.params);
  const raw = dsaFor(k.params, opts.hash ?? "SHA-256").sign(k.x, data);
  if ((opts.format ?? "der") === "raw") return raw;
  const half = raw.length / 2;
  return encodeDerSignature(bytesToBigint(raw.subarray(0, half)), bytesToBigint(raw.subarray(half)));
}

export function dsaVerify(
  k: DsaPublicKey,
  data: Uint8Array,
  signature: Uint8Array,
  opts: DsaOptions = {},
): boolean {
  checkDsaParams(k.params);
  const size = Math.ceil(bitLength(k.params.q) / 8);
  let r: bigint;
  let s: bigint;
  const format = opts.format ?? (signature.length === size * 2 && signature[0] !== 0x30 ? "raw" : "der");
  if (format === "raw") {
    if (signature.length !== size * 2) return false;
    r = bytesToBigint(signature.subarray(0, size));
    s = bytesToBigint(signature.subarray(size));
  } else {
    try {
      ({ r, s } = decodeDerSignature(signature));
    } catch {
      return false;
    }
  }
  if (r <= 0n || s <= 0n || r >= k.params.q || s >= k.params.q) return false;
  if (k.y <= 1n || k.y >= k.params.p - 1n) return false;
  // hand micro-rsa-dsa-dh a canonical DER signature (it parses DER before raw)
  return dsaFor(k.params, opts.hash ?? "SHA-256").verify(k.y, data, encodeDerSignature(r, s));
}

export { derToRaw };

// ---- Diffie-Hellman --------------------------------------------------------------------------------

export function generateDh(group: DhGroupName): DhPrivateKey {
  const { p, g, q } = dhGroup(group);
  const x = randomBelow(q);
  return { kind: "dh", params: { p, g, q, encoding: "pkcs3" }, x, y: modPow(g, x, p) };
}

function sameParams(a: DhParams, b: DhParams): boolean {
  return a.p === b.p && a.g === b.g;
}

/**
 * Checks a peer's public value: 1 < y < p - 1 (SP 800-56A's partial check), and y^q = 1 when the subgroup
 * order q is known (the full check, as OpenSSL does for the named groups).
 */
export function validateDhPublic(params: DhParams, y: bigint): void {
  if (y <= 1n || y >= params.p - 1n) {
    fail("INVALID_PUBLIC_VALUE", "Invalid DH public value: it must be between 1 and p - 1 exclusive");
  }
  if (params.q !== undefined && modPow(y, params.q, params.p) !== 1n) {
    fail("INVALID_PUBLIC_VALUE", "Invalid DH public value: it is not in the group's prime-order subgroup");
  }
}

/**
 * The DH shared secret g^(xy) mod p, left-padded to the length of p (RFC 7919 / TLS 1.3 style; OpenSSL
 * pads with `-pkeyopt dh_pad:1`). `pad: false` strips leading zeros as OpenSSL does by default.
 */
export function dhDerive(k: DhPrivateKey, peer: DhPublicKey, opts: { pad?: boolean } = {}): Uint8Array {
  if (!sameParams(k.params, peer.params)) {
    fail("WRONG_KEY_TYPE", "Wrong key type: the two DH keys use different groups");
  }
  validateDhPublic(k.params, peer.y);
  const z = modPow(peer.y, k.x, k.params.p);
  return opts.pad === false ? bigintToBytes(z) : bigintToBytes(z, Math.ceil(bitLength(k.params.p) / 8));
}
