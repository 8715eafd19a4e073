/**
 * HKDF (RFC 5869) over any of the hashes, via @noble/hashes: the full extract-then-expand, or either step
 * alone, as `openssl kdf -kdfopt mode:EXTRACT_ONLY|EXPAND_ONLY HKDF` offers.
 */
import { expand, extract } from "@noble/hashes/hkdf.js";
import { fail } from "./errors";
import { assertHashAlgorithm, type HashAlgorithm, nobleHash } from "./hash";

export type HkdfMode = "extract-and-expand" | "extract" | "expand";

export interface HkdfParams {
  hash: HashAlgorithm;
  /** Input keying material (extract, extract-and-expand) or the pseudorandom key (expand). */
  key: Uint8Array;
  /** Optional; an empty salt means a block of zeros, as RFC 5869 says. */
  salt?: Uint8Array;
  info?: Uint8Array;
  /** Output length in bytes (expand steps): 1 to 255 × the hash length. Ignored for extract. */
  length: number;
  mode?: HkdfMode;
}

export function hkdfMaxLength(hash: HashAlgorithm): number {
  return 255 * nobleHash(hash).outputLen;
}

export function hkdf(p: HkdfParams): Uint8Array {
  const alg = assertHashAlgorithm(p.hash);
  const h = nobleHash(alg) as never;
  const mode = p.mode ?? "extract-and-expand";
  if (mode === "extract") return extract(h, p.key, p.salt);
  const max = hkdfMaxLength(alg);
  if (!Number.isSafeInteger(p.length) || p.length < 1 || p.length > max) {
    fail("INVALID_PARAMETER", `Length must be from 1 to ${max} bytes for ${alg} (255 × its output)`);
  }
  if (mode === "expand") {
    if (p.key.length < nobleHash(alg).outputLen) {
      fail(
        "INVALID_PARAMETER",
        `The pseudorandom key must be at least ${nobleHash(alg).outputLen} bytes for ${alg}`,
      );
    }
    return expand(h, p.key, p.info, p.length);
  }
  return expand(h, extract(h, p.key, p.salt), p.info, p.length);
}
