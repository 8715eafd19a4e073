/**
 * Symmetric encryption compatible with `openssl enc`: AES-128/192/256 in CBC (PKCS#7 padding) and CTR,
 * with a key and IV given directly (`-K … -iv …`) or derived from a password the way `openssl enc` does:
 *
 * - `-pbkdf2` (the recommended form): PBKDF2-HMAC(md) over the password and an 8-byte salt gives key ‖ IV;
 *   the output starts with `Salted__` and the salt. Defaults as OpenSSL 3: SHA-256, 10 000 iterations.
 * - without `-pbkdf2` (legacy, OpenSSL warns "deprecated key derivation"): EVP_BytesToKey(md, 1 round),
 *   same `Salted__` header; read and written so that old files open.
 *
 * AES-GCM is offered with a key and a 12-byte IV only, the tag (16 bytes) appended to the ciphertext as
 * WebCrypto and most libraries do; `openssl enc` refuses AEAD ciphers, so its interoperability is tested
 * against OpenSSL's library through `node:crypto`. The cipher code is @noble/ciphers (audited); PBKDF2 is
 * WebCrypto's (see hash.ts).
 */
import { cbc, ctr, gcm } from "@noble/ciphers/aes.js";
import { bytesToUtf8, utf8ToBytes } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";
import { type HashAlgorithm, nobleHash, PBKDF2_MAX_ITERATIONS, pbkdf2, randomBytes } from "./hash";

export const SYMMETRIC_CIPHERS = [
  "AES-128-CBC",
  "AES-192-CBC",
  "AES-256-CBC",
  "AES-128-CTR",
  "AES-192-CTR",
  "AES-256-CTR",
  "AES-128-GCM",
  "AES-192-GCM",
  "AES-256-GCM",
] as const;
export type SymmetricCipher = (typeof SYMMETRIC_CIPHERS)[number];

export interface CipherInfo {
  keyLength: number;
  ivLength: number;
  mode: "CBC" | "CTR" | "GCM";
  /** The `openssl enc` name, where OpenSSL's command line has the cipher. */
  openssl?: string;
}

export function cipherInfo(cipher: SymmetricCipher): CipherInfo {
  const m = /^AES-(128|192|256)-(CBC|CTR|GCM)$/.exec(cipher);
  if (!m?.[1] || !m[2]) return unsupported(`cipher ${String(cipher)}`);
  const mode = m[2] as CipherInfo["mode"];
  const info: CipherInfo = { keyLength: Number(m[1]) / 8, ivLength: mode === "GCM" ? 12 : 16, mode };
  if (mode !== "GCM") info.openssl = cipher.toLowerCase();
  return info;
}

/** `openssl enc -pbkdf2`'s default iteration count. */
export const ENC_DEFAULT_ITERATIONS = 10_000;
const MAGIC = utf8ToBytes("Salted__");
const SALT_LENGTH = 8;
export const GCM_TAG_LENGTH = 16;

export type EncKey =
  | { kind: "raw"; key: Uint8Array; iv: Uint8Array }
  | {
      kind: "password";
      password: string | Uint8Array;
      /** "pbkdf2" as `openssl enc -pbkdf2`; "legacy" as without it (EVP_BytesToKey, 1 round). */
      kdf: "pbkdf2" | "legacy";
      /** `-md`; default SHA-256, as OpenSSL 3. */
      hash?: HashAlgorithm;
      /** `-iter`; PBKDF2 only; default 10 000. */
      iterations?: number;
      /** `-S`: a fixed salt (8 bytes); random when absent. Encryption only. */
      salt?: Uint8Array;
    };

export interface EncOptions {
  /** GCM only: additional authenticated data. */
  aad?: Uint8Array;
}

export interface EncResult {
  /** What `openssl enc` writes: `Salted__` ‖ salt ‖ ciphertext for passwords, the ciphertext otherwise. */
  output: Uint8Array;
  /** As `openssl enc -P` prints them. */
  key: Uint8Array;
  iv: Uint8Array;
  salt?: Uint8Array;
}

/** EVP_BytesToKey(md, count 1): D_i = md(D_{i-1} ‖ password ‖ salt). */
function bytesToKey(hash: HashAlgorithm, pass: Uint8Array, salt: Uint8Array, length: number): Uint8Array {
  const h = nobleHash(hash);
  const out = new Uint8Array(length);
  let prev: Uint8Array = new Uint8Array(0);
  for (let off = 0; off < length; off += prev.length) {
    const input = new Uint8Array(prev.length + pass.length + salt.length);
    input.set(prev);
    input.set(pass, prev.length);
    input.set(salt, prev.length + pass.length);
    prev = h(input);
    out.set(prev.subarray(0, Math.min(prev.length, length - off)), off);
  }
  return out;
}

async function deriveKeyIv(
  info: CipherInfo,
  k: Extract<EncKey, { kind: "password" }>,
  salt: Uint8Array,
): Promise<{ key: Uint8Array; iv: Uint8Array }> {
  const pass = typeof k.password === "string" ? utf8ToBytes(k.password) : k.password;
  if (pass.length === 0) fail("INVALID_PARAMETER", "Enter a password");
  const hash = k.hash ?? "SHA-256";
  const total = info.keyLength + info.ivLength;
  let material: Uint8Array;
  if (k.kdf === "pbkdf2") {
    const iterations = k.iterations ?? ENC_DEFAULT_ITERATIONS;
    if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
      fail("INVALID_PARAMETER", `Iterations must be a whole number from 1 to ${PBKDF2_MAX_ITERATIONS}`);
    }
    material = await pbkdf2({ password: pass, salt, iterations, length: total, hash });
  } else {
    material = bytesToKey(hash, pass, salt, total);
  }
  return { key: material.slice(0, info.keyLength), iv: material.slice(info.keyLength) };
}

function checkRaw(info: CipherInfo, key: Uint8Array, iv: Uint8Array): void {
  if (key.length !== info.keyLength) {
    fail(
      "INVALID_PARAMETER",
      `The key must be ${info.keyLength} bytes (${info.keyLength * 2} hex digits), not ${key.length}`,
    );
  }
  if (iv.length !== info.ivLength) {
    fail(
      "INVALID_PARAMETER",
      `The IV must be ${info.ivLength} bytes (${info.ivLength * 2} hex digits), not ${iv.length}`,
    );
  }
}

function run(
  info: CipherInfo,
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
  decrypting: boolean,
  aad: Uint8Array | undefined,
): Uint8Array {
  switch (info.mode) {
    case "CBC": {
      const c = cbc(key, iv);
      if (!decrypting) return c.encrypt(data);
      try {
        return c.decrypt(data);
      } catch (e) {
        throw new CryptoInputError(
          "DECRYPTION_FAILED",
          "Decryption failed (bad decrypt): a wrong password or key, another cipher, or a damaged file",
          { cause: e },
        );
      }
    }
    case "CTR":
      return ctr(key, iv)[decrypting ? "decrypt" : "encrypt"](data);
    case "GCM": {
      const c = gcm(key, iv, aad);
      if (!decrypting) return c.encrypt(data);
      if (data.length < GCM_TAG_LENGTH)
        fail("DECRYPTION_FAILED", "Decryption failed: shorter than the 16-byte tag");
      try {
        return c.decrypt(data);
      } catch (e) {
        throw new CryptoInputError(
          "DECRYPTION_FAILED",
          "Decryption failed: the tag does not match (wrong key, IV or associated data, or altered ciphertext)",
          { cause: e },
        );
      }
    }
  }
}

export async function symmetricEncrypt(
  cipher: SymmetricCipher,
  data: Uint8Array,
  k: EncKey,
  opts: EncOptions = {},
): Promise<EncResult> {
  const info = cipherInfo(cipher);
  if (opts.aad && info.mode !== "GCM") fail("INVALID_PARAMETER", "Associated data is for GCM only");
  if (k.kind === "raw") {
    checkRaw(info, k.key, k.iv);
    return { output: run(info, k.key, k.iv, data, false, opts.aad), key: k.key, iv: k.iv };
  }
  if (info.mode === "GCM") {
    fail(
      "INVALID_PARAMETER",
      "GCM takes a key and IV here: openssl enc has no password form for AEAD ciphers",
    );
  }
  const salt = k.salt ?? randomBytes(SALT_LENGTH);
  if (salt.length !== SALT_LENGTH) fail("INVALID_PARAMETER", "The salt must be 8 bytes (16 hex digits)");
  const { key, iv } = await deriveKeyIv(info, k, salt);
  const body = run(info, key, iv, data, false, undefined);
  const output = new Uint8Array(MAGIC.length + SALT_LENGTH + body.length);
  output.set(MAGIC);
  output.set(salt, MAGIC.length);
  output.set(body, MAGIC.length + SALT_LENGTH);
  return { output, key, iv, salt };
}

export async function symmetricDecrypt(
  cipher: SymmetricCipher,
  data: Uint8Array,
  k: EncKey,
  opts: EncOptions = {},
): Promise<Uint8Array> {
  return (await symmetricDecryptDetailed(cipher, data, k, opts)).output;
}

/**
 * Decrypts as {@link symmetricDecrypt}, and gives the key and IV used, with the salt read from the
 * `Salted__` header for a password: what `openssl enc -d … -P` prints.
 */
export async function symmetricDecryptDetailed(
  cipher: SymmetricCipher,
  data: Uint8Array,
  k: EncKey,
  opts: EncOptions = {},
): Promise<EncResult> {
  const info = cipherInfo(cipher);
  if (opts.aad && info.mode !== "GCM") fail("INVALID_PARAMETER", "Associated data is for GCM only");
  if (k.kind === "raw") {
    checkRaw(info, k.key, k.iv);
    return { output: run(info, k.key, k.iv, data, true, opts.aad), key: k.key, iv: k.iv };
  }
  if (info.mode === "GCM") {
    fail(
      "INVALID_PARAMETER",
      "GCM takes a key and IV here: openssl enc has no password form for AEAD ciphers",
    );
  }
  const head = data.subarray(0, MAGIC.length);
  if (data.length < MAGIC.length + SALT_LENGTH || bytesToUtf8(head, false) !== "Salted__") {
    fail(
      "DECRYPTION_FAILED",
      'Not password-encrypted openssl enc output: it does not start with "Salted__" (was it made with -K and -iv, or -nosalt?)',
    );
  }
  const salt = data.slice(MAGIC.length, MAGIC.length + SALT_LENGTH);
  const { key, iv } = await deriveKeyIv(info, k, salt);
  return {
    output: run(info, key, iv, data.subarray(MAGIC.length + SALT_LENGTH), true, undefined),
    key,
    iv,
    salt,
  };
}
