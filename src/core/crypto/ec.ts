import { encode, int, parseDer, readInt, seq, seqChildren } from "./asn1";
import { CURVES, type EcCurve, ed448, ed25519, normalizePoint, x448, x25519 } from "./curves";
import { bigintToBytes, bytesToBigint, equalBytes, toBufferSource } from "./encoding";
import { CryptoInputError, fail } from "./errors";
import { type HashAlgorithm, hashSync } from "./hash";
import { decodePkcs8, encodePkcs8, encodeSpki, type PrivateKeyData, type PublicKeyData } from "./keys";
import { cachedImport, preferWebCrypto, subtle } from "./webcrypto";

export type EcPrivateKey = Extract<PrivateKeyData, { kind: "ec" }>;
export type EcPublicKey = Extract<PublicKeyData, { kind: "ec" }>;
export type Ed25519PrivateKey = Extract<PrivateKeyData, { kind: "ed25519" }>;
export type X25519PrivateKey = Extract<PrivateKeyData, { kind: "x25519" }>;

export type SignatureFormat = "der" | "raw";

// ---- signature encodings ---------------------------------------------------------------------------

/** r and s as the DER SEQUENCE OpenSSL writes (also DSA's format). */
export function encodeDerSignature(r: bigint, s: bigint): Uint8Array {
  return encode(seq(int(r), int(s)));
}

/**
 * Parses a DER signature strictly: anything that does not re-encode to the same bytes (BER length forms,
 * leading zeros, trailing data) is rejected, as OpenSSL does.
 */
export function decodeDerSignature(sig: Uint8Array): { r: bigint; s: bigint } {
  try {
    const c = seqChildren(parseDer(sig), "signature", 2);
    if (c.length !== 2) throw new Error("extra elements");
    const r = readInt(c[0], "r");
    const s = readInt(c[1], "s");
    if (!equalBytes(encodeDerSignature(r, s), sig)) throw new Error("not DER");
    return { r, s };
  } catch (e) {
    return fail("INVALID_SIGNATURE_FORMAT", "The signature is not a DER SEQUENCE of two INTEGERs", e);
  }
}

export function rawToDer(raw: Uint8Array): Uint8Array {
  if (raw.length % 2) fail("INVALID_SIGNATURE_FORMAT", "A raw r||s signature has an even length");
  const half = raw.length / 2;
  return encodeDerSignature(bytesToBigint(raw.subarray(0, half)), bytesToBigint(raw.subarray(half)));
}

/** DER to fixed-width r||s; `size` is the byte length of the group order. */
export function derToRaw(der: Uint8Array, size: number): Uint8Array {
  const { r, s } = decodeDerSignature(der);
  try {
    const out = new Uint8Array(size * 2);
    out.set(bigintToBytes(r, size), 0);
    out.set(bigintToBytes(s, size), size);
    return out;
  } catch (e) {
    return fail("INVALID_SIGNATURE_FORMAT", "The signature's r or s is larger than the group order", e);
  }
}

// ---- ECDSA -----------------------------------------------------------------------------------------

export async function generateEc(curve: EcCurve): Promise<EcPrivateKey> {
  const info = CURVES[curve];
  if (info.webcrypto) {
    const pair = (await subtle().generateKey({ name: "ECDSA", namedCurve: curve }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return decodePkcs8(new Uint8Array(await subtle().exportKey("pkcs8", pair.privateKey))) as EcPrivateKey;
  }
  const { secretKey } = info.noble.keygen();
  return { kind: "ec", curve, d: secretKey, point: info.noble.getPublicKey(secretKey, false) };
}

export interface EcdsaOptions {
  /** Default: the curve's conventional hash (P-256: SHA-256, P-384: SHA-384, P-521: SHA-512, k1: SHA-256). */
  hash?: HashAlgorithm;
  /** Default "der", OpenSSL's format; "raw" is r||s (WebCrypto, JOSE). */
  format?: SignatureFormat;
}

const WEB_HASHES = new Set<HashAlgorithm>(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);

export async function ecdsaSign(
  k: EcPrivateKey,
  data: Uint8Array,
  opts: EcdsaOptions = {},
): Promise<Uint8Array> {
  const info = CURVES[k.curve];
  const hash = opts.hash ?? info.defaultHash;
  let raw: Uint8Array;
  if (info.webcrypto && WEB_HASHES.has(hash)) {
    const key = await cachedImport(k, "ECDSA-sign", () =>
      subtle().importKey(
        "pkcs8",
        toBufferSource(encodePkcs8(k)),
        { name: "ECDSA", namedCurve: k.curve },
        false,
        ["sign"],
      ),
    );
    raw = new Uint8Array(await subtle().sign({ name: "ECDSA", hash }, key, toBufferSource(data)));
  } else {
    // secp256k1 (not in WebCrypto) and hashes WebCrypto lacks: noble, RFC 6979 deterministic k. Low-S for
    // secp256k1 (Bitcoin's rule, which OpenSSL accepts); plain ECDSA for the NIST curves, like OpenSSL.
    raw = info.noble.sign(hashSync(hash, data), k.d, { prehash: false, lowS: k.curve === "secp256k1" });
  }
  return (opts.format ?? "der") === "der" ? rawToDer(raw) : raw;
}

/**
 * Verifies an ECDSA signature in DER or raw r||s (auto-detected unless `format` is given). High-S signatures
 * are accepted on every curve, secp256k1 included, because OpenSSL makes them (about half the time).
 */
export async function ecdsaVerify(
  k: EcPublicKey,
  data: Uint8Array,
  signature: Uint8Array,
  opts: EcdsaOptions = {},
): Promise<boolean> {
  const info = CURVES[k.curve];
  const hash = opts.hash ?? info.defaultHash;
  let raw: Uint8Array;
  try {
    const format =
      opts.format ?? (signature.length === info.size * 2 && signature[0] !== 0x30 ? "raw" : "der");
    if (format === "raw") {
      if (signature.length !== info.size * 2) return false;
      raw = signature;
    } else {
      raw = derToRaw(signature, info.size);
    }
  } catch (e) {
    if (e instanceof CryptoInputError && e.code === "INVALID_SIGNATURE_FORMAT") return false;
    throw e;
  }
  const r = bytesToBigint(raw.subarray(0, info.size));
  const s = bytesToBigint(raw.subarray(info.size));
  const n = info.noble.Point.Fn.ORDER;
  if (r <= 0n || s <= 0n || r >= n || s >= n) return false;
  if (info.webcrypto && WEB_HASHES.has(hash)) {
    const key = await cachedImport(k, "ECDSA-verify", () =>
      subtle().importKey(
        "spki",
        toBufferSource(encodeSpki(k)),
        { name: "ECDSA", namedCurve: k.curve },
        false,
        ["verify"],
      ),
    );
    return subtle().verify({ name: "ECDSA", hash }, key, toBufferSource(raw), toBufferSource(data));
  }
  try {
    return info.noble.verify(raw, hashSync(hash, data), k.point, { prehash: false, lowS: false });
  } catch {
    return false;
  }
}

// ---- ECDH ------------------------------------------------------------------------------------------

/** ECDH: the x-coordinate of the shared point (what `openssl pkeyutl -derive` outputs). */
export async function ecdh(k: EcPrivateKey, peer: EcPublicKey): Promise<Uint8Array> {
  if (peer.curve !== k.curve)
    fail("WRONG_KEY_TYPE", `Wrong key type: the peer key is ${peer.curve}, not ${k.curve}`);
  const info = CURVES[k.curve];
  const point = normalizePoint(peer.curve, peer.point);
  if (info.webcrypto) {
    const priv = await subtle().importKey(
      "pkcs8",
      toBufferSource(encodePkcs8(k)),
      { name: "ECDH", namedCurve: k.curve },
      false,
      ["deriveBits"],
    );
    const pub = await subtle().importKey(
      "spki",
      toBufferSource(encodeSpki({ kind: "ec", curve: peer.curve, point })),
      { name: "ECDH", namedCurve: k.curve },
      false,
      [],
    );
    return new Uint8Array(await subtle().deriveBits({ name: "ECDH", public: pub }, priv, info.size * 8));
  }
  return info.noble.getSharedSecret(k.d, point, true).subarray(1);
}

// ---- Ed25519 ---------------------------------------------------------------------------------------

export async function generateEd25519(): Promise<Ed25519PrivateKey> {
  const seed = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return { kind: "ed25519", seed, publicKey: ed25519.getPublicKey(seed) };
}

export function ed25519Sign(k: Ed25519PrivateKey, data: Uint8Array): Promise<Uint8Array> {
  return preferWebCrypto(
    "Ed25519",
    async (s) => {
      const key = await cachedImport(k, "Ed25519-sign", () =>
        s.importKey("pkcs8", toBufferSource(encodePkcs8(k)), "Ed25519", false, ["sign"]),
      );
      return new Uint8Array(await s.sign("Ed25519", key, toBufferSource(data)));
    },
    () => ed25519.sign(data, k.seed),
  );
}

/** RFC 8032 verification, strict like OpenSSL (the noble fallback runs with zip215 off). */
export async function ed25519Verify(
  publicKey: Uint8Array,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  return preferWebCrypto(
    "Ed25519",
    async (s) => {
      let key: CryptoKey;
      try {
        key = await cachedImport(publicKey, "Ed25519-verify", () =>
          s.importKey("raw", toBufferSource(publicKey), "Ed25519", false, ["verify"]),
        );
      } catch (e) {
        if ((e as { name?: string }).name === "NotSupportedError") throw e;
        return false; // not a point
      }
      return s.verify("Ed25519", key, toBufferSource(signature), toBufferSource(data));
    },
    () => {
      try {
        return ed25519.verify(signature, data, publicKey, { zip215: false });
      } catch {
        return false;
      }
    },
  );
}

// ---- X25519 ----------------------------------------------------------------------------------------

export async function generateX25519(): Promise<X25519PrivateKey> {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return { kind: "x25519", secret, publicKey: x25519.getPublicKey(secret) };
}

/** X25519 (RFC 7748); an all-zero result (a small-order peer key) is refused, as OpenSSL does. */
export async function x25519Derive(k: X25519PrivateKey, peerPublic: Uint8Array): Promise<Uint8Array> {
  if (peerPublic.length !== 32) fail("INVALID_PUBLIC_VALUE", "An X25519 public key is 32 bytes");
  const out = await preferWebCrypto(
    "X25519",
    async (s) => {
      const priv = await s.importKey("pkcs8", toBufferSource(encodePkcs8(k)), "X25519", false, [
        "deriveBits",
      ]);
      const pub = await s.importKey("raw", toBufferSource(peerPublic), "X25519", false, []);
      try {
        return new Uint8Array(await s.deriveBits({ name: "X25519", public: pub }, priv, 256));
      } catch (e) {
        if ((e as { name?: string }).name === "OperationError") return new Uint8Array(32);
        throw e;
      }
    },
    () => {
      try {
        return x25519.getSharedSecret(k.secret, peerPublic);
      } catch {
        return new Uint8Array(32);
      }
    },
  );
  if (out.every((b) => b === 0)) {
    fail(
      "INVALID_PUBLIC_VALUE",
      "The X25519 peer key is a small-order point (the shared secret is all zeros)",
    );
  }
  return out;
}

// ---- Ed448 and X448 (RFC 8032, RFC 7748): @noble/curves; no browser's WebCrypto has them ---------------

export type Ed448PrivateKey = Extract<PrivateKeyData, { kind: "ed448" }>;
export type X448PrivateKey = Extract<PrivateKeyData, { kind: "x448" }>;

export async function generateEd448(): Promise<Ed448PrivateKey> {
  const seed = globalThis.crypto.getRandomValues(new Uint8Array(57));
  return { kind: "ed448", seed, publicKey: ed448.getPublicKey(seed) };
}

/** Pure Ed448 (empty context), as `openssl pkeyutl -sign -rawin` makes it. */
export async function ed448Sign(k: Ed448PrivateKey, data: Uint8Array): Promise<Uint8Array> {
  return ed448.sign(data, k.seed);
}

/** RFC 8032 verification, strict (zip215 off: non-canonical encodings are refused, as OpenSSL does). */
export async function ed448Verify(
  publicKey: Uint8Array,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 114 || publicKey.length !== 57) return false;
  try {
    return ed448.verify(signature, data, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

export async function generateX448(): Promise<X448PrivateKey> {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(56));
  return { kind: "x448", secret, publicKey: x448.getPublicKey(secret) };
}

/** X448 (RFC 7748); an all-zero result (a small-order peer key) is refused, as OpenSSL does. */
export async function x448Derive(k: X448PrivateKey, peerPublic: Uint8Array): Promise<Uint8Array> {
  if (peerPublic.length !== 56) fail("INVALID_PUBLIC_VALUE", "An X448 public key is 56 bytes");
  let out: Uint8Array;
  try {
    out = x448.getSharedSecret(k.secret, peerPublic);
  } catch {
    out = new Uint8Array(56);
  }
  if (out.every((b) => b === 0)) {
    fail("INVALID_PUBLIC_VALUE", "The X448 peer key is a small-order point (the shared secret is all zeros)");
  }
  return out;
}
