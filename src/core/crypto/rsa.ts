import { PKCS1_KEM } from "micro-rsa-dsa-dh/rsa.js";
import { toBufferSource } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";
import type { HashAlgorithm } from "./hash";
import { decodePkcs8, encodePkcs8, encodeSpki, type PrivateKeyData, type PublicKeyData } from "./keys";
import { cachedImport, subtle } from "./webcrypto";

export type RsaPrivateKey = Extract<PrivateKeyData, { kind: "rsa" }>;
export type RsaPublicKey = Extract<PublicKeyData, { kind: "rsa" }>;

export const RSA_KEY_SIZES = [2048, 3072, 4096] as const;
export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];
/** Hashes WebCrypto offers for RSA. */
export const RSA_HASHES = ["SHA-1", "SHA-256", "SHA-384", "SHA-512"] as const;
export type RsaHash = (typeof RSA_HASHES)[number];
/** Keys below this are refused for any operation (generation needs 2048). */
export const RSA_MIN_BITS = 1024;

const HASH_BYTES: Record<RsaHash, number> = { "SHA-1": 20, "SHA-256": 32, "SHA-384": 48, "SHA-512": 64 };

export function assertRsaHash(h: HashAlgorithm | string): RsaHash {
  if (!(RSA_HASHES as readonly string[]).includes(h)) {
    unsupported(`hash ${h} with RSA (use one of ${RSA_HASHES.join(", ")})`);
  }
  return h as RsaHash;
}

function modulusBytes(k: { n: bigint }): number {
  return Math.ceil(k.n.toString(2).length / 8);
}

function checkSize(k: { n: bigint }): void {
  const bits = k.n.toString(2).length;
  if (bits < RSA_MIN_BITS)
    fail("KEY_TOO_SHORT", `RSA key too short: ${bits} bits (at least ${RSA_MIN_BITS})`);
}

export async function generateRsa(bits: number, publicExponent = 65537): Promise<RsaPrivateKey> {
  if (!Number.isInteger(bits) || bits < 2048) {
    fail("KEY_TOO_SHORT", `RSA key too short: ${bits} bits (generate at least 2048)`);
  }
  if (!(RSA_KEY_SIZES as readonly number[]).includes(bits)) {
    fail("INVALID_PARAMETER", `RSA key size must be one of ${RSA_KEY_SIZES.join(", ")}`);
  }
  if (publicExponent !== 65537 && publicExponent !== 3)
    fail("INVALID_PARAMETER", "RSA exponent must be 65537");
  const e = new Uint8Array(publicExponent === 3 ? [3] : [1, 0, 1]);
  const pair = (await subtle().generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: bits, publicExponent: e, hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const der = new Uint8Array(await subtle().exportKey("pkcs8", pair.privateKey));
  return decodePkcs8(der) as RsaPrivateKey;
}

type WebRsaAlg = "RSA-OAEP" | "RSASSA-PKCS1-v1_5" | "RSA-PSS";

function importPrivate(k: RsaPrivateKey, name: WebRsaAlg, hash: RsaHash, usage: KeyUsage) {
  checkSize(k);
  // a key marked RSASSA-PSS in its OID is still the same numbers: WebCrypto imports rsaEncryption keys
  const plain: RsaPrivateKey = { ...k, pss: false };
  return cachedImport(k, `${name}/${hash}/${usage}`, () =>
    subtle().importKey("pkcs8", toBufferSource(encodePkcs8(plain)), { name, hash }, false, [usage]),
  );
}

function importPublic(k: RsaPublicKey, name: WebRsaAlg, hash: RsaHash, usage: KeyUsage) {
  checkSize(k);
  const plain: RsaPublicKey = { kind: "rsa", n: k.n, e: k.e };
  return cachedImport(k, `${name}/${hash}/${usage}`, () =>
    subtle().importKey("spki", toBufferSource(encodeSpki(plain)), { name, hash }, false, [usage]),
  );
}

export type RsaEncryptionPadding =
  | { padding: "OAEP"; hash: RsaHash; label?: Uint8Array }
  | { padding: "PKCS1v1.5" };

export function rsaMaxMessageLength(k: { n: bigint }, p: RsaEncryptionPadding): number {
  const k8 = modulusBytes(k);
  return p.padding === "OAEP" ? k8 - 2 * HASH_BYTES[p.hash] - 2 : k8 - 11;
}

export async function rsaEncrypt(
  k: RsaPublicKey,
  data: Uint8Array,
  p: RsaEncryptionPadding,
): Promise<Uint8Array> {
  checkSize(k);
  const max = rsaMaxMessageLength(k, p);
  if (data.length > max) {
    fail(
      "MESSAGE_TOO_LONG",
      `Message too long for RSA ${p.padding === "OAEP" ? `OAEP-${p.hash}` : "PKCS#1 v1.5"} with a ` +
        `${k.n.toString(2).length}-bit key: ${data.length} bytes, at most ${max}`,
    );
  }
  if (p.padding === "PKCS1v1.5") return PKCS1_KEM.encrypt({ n: k.n, e: k.e }, data);
  const key = await importPublic(k, "RSA-OAEP", assertRsaHash(p.hash), "encrypt");
  const params: RsaOaepParams = { name: "RSA-OAEP" };
  if (p.label?.length) params.label = toBufferSource(p.label);
  return new Uint8Array(await subtle().encrypt(params, key, toBufferSource(data)));
}

export async function rsaDecrypt(
  k: RsaPrivateKey,
  data: Uint8Array,
  p: RsaEncryptionPadding,
): Promise<Uint8Array> {
  checkSize(k);
  if (data.length !== modulusBytes(k)) {
    fail(
      "DECRYPTION_FAILED",
      `Decryption failed: the ciphertext must be ${modulusBytes(k)} bytes for this key`,
    );
  }
  try {
    if (p.padding === "PKCS1v1.5") return PKCS1_KEM.decrypt({ n: k.n, d: k.d }, data);
    const key = await importPrivate(k, "RSA-OAEP", assertRsaHash(p.hash), "decrypt");
    const params: RsaOaepParams = { name: "RSA-OAEP" };
    if (p.label?.length) params.label = toBufferSource(p.label);
    return new Uint8Array(await subtle().decrypt(params, key, toBufferSource(data)));
  } catch (e) {
    if (e instanceof CryptoInputError) throw e;
    return fail(
      "DECRYPTION_FAILED",
      "Decryption failed: wrong key, wrong padding or a damaged ciphertext",
      e,
    );
  }
}

/** PSS salt length: bytes, the digest length, the maximum, or (verify only) whichever the signature used. */
export type PssSaltLength = number | "digest" | "max" | "auto";

export type RsaSignatureScheme =
  | { scheme: "PKCS1v1.5"; hash: RsaHash }
  | { scheme: "PSS"; hash: RsaHash; saltLength?: PssSaltLength };

function saltBytes(k: { n: bigint }, hash: RsaHash, s: PssSaltLength | undefined): number {
  const emLen = Math.ceil((k.n.toString(2).length - 1) / 8);
  const max = emLen - HASH_BYTES[hash] - 2;
  if (s === undefined || s === "digest" || s === "auto") return HASH_BYTES[hash];
  if (s === "max") return max;
  if (!Number.isInteger(s) || s < 0 || s > max)
    fail("INVALID_PARAMETER", `PSS salt length must be 0 to ${max}`);
  return s;
}

export async function rsaSign(
  k: RsaPrivateKey,
  data: Uint8Array,
  s: RsaSignatureScheme,
): Promise<Uint8Array> {
  const hash = assertRsaHash(s.hash);
  if (s.scheme === "PKCS1v1.5") {
    const key = await importPrivate(k, "RSASSA-PKCS1-v1_5", hash, "sign");
    return new Uint8Array(await subtle().sign("RSASSA-PKCS1-v1_5", key, toBufferSource(data)));
  }
  if (s.saltLength === "auto") fail("INVALID_PARAMETER", 'PSS salt length "auto" is for verification only');
  const key = await importPrivate(k, "RSA-PSS", hash, "sign");
  const saltLength = saltBytes(k, hash, s.saltLength);
  return new Uint8Array(await subtle().sign({ name: "RSA-PSS", saltLength }, key, toBufferSource(data)));
}

export async function rsaVerify(
  k: RsaPublicKey,
  data: Uint8Array,
  signature: Uint8Array,
  s: RsaSignatureScheme,
): Promise<boolean> {
  const hash = assertRsaHash(s.hash);
  if (signature.length !== modulusBytes(k)) return false;
  if (s.scheme === "PKCS1v1.5") {
    const key = await importPublic(k, "RSASSA-PKCS1-v1_5", hash, "verify");
    return subtle().verify("RSASSA-PKCS1-v1_5", key, toBufferSource(signature), toBufferSource(data));
  }
  const key = await importPublic(k, "RSA-PSS", hash, "verify");
  // OpenSSL verifies PSS with "auto" salt length by default; WebCrypto needs the exact length, so "auto"
  // tries the two lengths signers use (the digest length, the maximum), then 0.
  const candidates =
    s.saltLength === "auto" || s.saltLength === undefined
      ? [...new Set([saltBytes(k, hash, "digest"), saltBytes(k, hash, "max"), 0])]
      : [saltBytes(k, hash, s.saltLength)];
  for (const saltLength of candidates) {
    if (
      await subtle().verify(
        { name: "RSA-PSS", saltLength },
        key,
        toBufferSource(signature),
        toBufferSource(data),
      )
    ) {
      return true;
    }
  }
  return false;
}
