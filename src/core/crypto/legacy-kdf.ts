/**
 * The key derivations of the old password-based formats, built on @noble/hashes' MD5 and SHA-1 (the
 * constructions are a few lines of glue over audited hashes; each is checked against OpenSSL's output in
 * legacy-des.test.ts):
 *   - PBKDF1 (RFC 8018 §5.1), which PBES1 uses: pbeWithMD5AndDES-CBC, pbeWithSHA1AndDES-CBC;
 *   - the PKCS#12 key derivation (RFC 7292 appendix B.2), which pbeWithSHAAnd3-KeyTripleDES-CBC uses;
 *   - EVP_BytesToKey with MD5 and one iteration, which OpenSSL's legacy encrypted PEM uses.
 * Reading only: nothing new is protected with these.
 */
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { fail } from "./errors";

/** Iteration counts beyond this are refused (a pasted file must not hang the worker). */
export const LEGACY_MAX_ITERATIONS = 10_000_000;

function checkIterations(iterations: number): void {
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > LEGACY_MAX_ITERATIONS) {
    fail("INVALID_PARAMETER", `Iteration count ${iterations} is out of range`);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** PBKDF1: T_1 = H(P || S), T_i = H(T_(i-1)); the first `length` bytes of T_c (at most the hash's size). */
export function pbkdf1(
  hash: "MD5" | "SHA-1",
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  length: number,
): Uint8Array {
  checkIterations(iterations);
  const h = hash === "MD5" ? md5 : sha1;
  if (length > h.outputLen) fail("INVALID_PARAMETER", `PBKDF1-${hash} gives at most ${h.outputLen} bytes`);
  let t = h(concat(password, salt));
  for (let i = 1; i < iterations; i++) t = h(t);
  return t.slice(0, length);
}

/** A passphrase as PKCS#12 wants it: UTF-16BE (BMPString) with a two-byte zero terminator, as OpenSSL 3. */
export function pkcs12Password(passphrase: string): Uint8Array {
  const out = new Uint8Array(passphrase.length * 2 + 2);
  for (let i = 0; i < passphrase.length; i++) {
    const c = passphrase.charCodeAt(i);
    out[2 * i] = c >> 8;
    out[2 * i + 1] = c & 255;
  }
  return out;
}

/**
 * The PKCS#12 KDF with SHA-1 (u = 20, v = 64), or SHA-256 (u = 32) for the MACs OpenSSL 3 writes.
 * `id` 1 gives key material, 2 an IV, 3 a MAC key; `password` is already in the BMPString form of
 * {@link pkcs12Password}.
 */
export function pkcs12Kdf(
  password: Uint8Array,
  salt: Uint8Array,
  id: 1 | 2 | 3,
  iterations: number,
  length: number,
  hash: "SHA-1" | "SHA-256" = "SHA-1",
): Uint8Array {
  checkIterations(iterations);
  const h = hash === "SHA-256" ? sha256 : sha1;
  const u = hash === "SHA-256" ? 32 : 20;
  const v = 64;
  const fill = (src: Uint8Array) => {
    const n = v * Math.ceil(src.length / v);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = src[i % src.length] ?? 0;
    return out;
  };
  const D = new Uint8Array(v).fill(id);
  const I = concat(fill(salt), fill(password));
  const out = new Uint8Array(length);
  for (let off = 0; off < length; off += u) {
    let A = h(concat(D, I));
    for (let r = 1; r < iterations; r++) A = h(A);
    out.set(A.subarray(0, Math.min(u, length - off)), off);
    if (off + u >= length) break;
    const B = fill(A);
    // I_j = (I_j + B + 1) mod 2^(8v), for each v-byte block of I.
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = (I[j + k] ?? 0) + (B[k] ?? 0) + carry;
        I[j + k] = sum & 255;
        carry = sum >> 8;
      }
    }
  }
  return out;
}

/** EVP_BytesToKey with MD5 and one iteration (OpenSSL's PEM_do_header): D_i = MD5(D_(i-1) || P || S). */
export function bytesToKey(pass: Uint8Array, salt: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let prev = new Uint8Array(0);
  for (let off = 0; off < length; off += prev.length) {
    prev = md5(concat(prev, pass, salt));
    out.set(prev.subarray(0, Math.min(prev.length, length - off)), off);
  }
  return out;
}
