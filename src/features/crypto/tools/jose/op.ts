/**
 * The JOSE tool's operations on `jose` (WebCrypto underneath): decode a JWT/JWS/JWE, verify a JWS with
 * an algorithm the person pins (the token's own `alg` never chooses; `none` is never accepted), sign,
 * and encrypt or decrypt a JWE. Keys are PEM or DER in any form the workbench reads (converted to a
 * JWK by the core), a JWK, a JWK Set pasted as JSON (never fetched), or a shared secret as text.
 */

import {
  base64url,
  CompactEncrypt,
  type CompactJWSHeaderParameters,
  CompactSign,
  type CryptoKey,
  compactDecrypt,
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  importJWK,
  type JWK,
  type JWSHeaderParameters,
} from "jose";
import * as c from "@/core/crypto";
import { at, FieldError, privateKeyFields } from "../../op-base";
import { JWE_ALGORITHMS, JWE_ENCRYPTIONS, JWS_ALGORITHMS } from "./algorithms";

/** Tokens, keys and payloads are text a person pastes: this much at most. */
export const JOSE_MAX_CHARS = 1024 * 1024;

const SYMMETRIC = /^(HS|A\d+KW$|dir$)/;

export interface JoseKeyInput {
  /** PEM, base64 or hex DER, a JWK, a JWK Set, or a shared secret (UTF-8). */
  key: string;
  passphrase: string;
}

export interface Decoded {
  kind: "JWS" | "JWE";
  header: string;
  /** JWS only: the payload as text (pretty JSON when it is JSON). */
  payload?: string;
  /** JWS with JSON claims: the registered times, as ISO 8601. */
  times?: { claim: "iat" | "nbf" | "exp"; at: string }[];
}

function capped(text: string, field: string, what: string): string {
  if (text.length > JOSE_MAX_CHARS) {
    throw new FieldError(
      "INPUT_TOO_LARGE",
      `${what} is ${text.length.toLocaleString("en-US")} characters; up to ${JOSE_MAX_CHARS.toLocaleString("en-US")} are read`,
      field,
    );
  }
  return text;
}

function parts(token: string): string[] {
  const t = capped(token, "token", "The token").trim().replace(/\s+/g, "");
  const p = t.split(".");
  if (
    (p.length !== 3 && p.length !== 5) ||
    p.some((x, i) => !/^[A-Za-z0-9_-]*$/.test(x) || (i === 0 && !x))
  ) {
    throw new FieldError(
      "INVALID_PARAMETER",
      "Not a compact JWS or JWE: expected 3 (JWS/JWT) or 5 (JWE) base64url parts separated by dots",
      "token",
    );
  }
  return p;
}

function headerOf(token: string): JWSHeaderParameters {
  try {
    return decodeProtectedHeader(token) as JWSHeaderParameters;
  } catch {
    throw new FieldError("INVALID_PARAMETER", "The token's header is not base64url JSON", "token");
  }
}

function payloadText(bytes: Uint8Array): Pick<Decoded, "payload" | "times"> {
  let text: string;
  try {
    text = c.bytesToUtf8(bytes);
  } catch {
    return { payload: `(binary, ${bytes.length} bytes) ${c.bytesToHex(bytes)}` };
  }
  try {
    const json: unknown = JSON.parse(text);
    const out: Pick<Decoded, "payload" | "times"> = { payload: JSON.stringify(json, null, 2) };
    if (json && typeof json === "object" && !Array.isArray(json)) {
      const times: NonNullable<Decoded["times"]> = [];
      for (const claim of ["iat", "nbf", "exp"] as const) {
        const v = (json as Record<string, unknown>)[claim];
        if (typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 1e13) {
          times.push({ claim, at: new Date(v * 1000).toISOString() });
        }
      }
      if (times.length) out.times = times;
    }
    return out;
  } catch {
    return { payload: text };
  }
}

async function joseDecode(a: { token: string }): Promise<Decoded> {
  const p = parts(a.token);
  const token = p.join(".");
  const header = JSON.stringify(headerOf(token), null, 2);
  if (p.length === 5) return { kind: "JWE", header };
  let payload: Uint8Array;
  try {
    payload = base64url.decode(p[1] ?? "");
  } catch {
    throw new FieldError("INVALID_PARAMETER", "The token's payload is not base64url", "token");
  }
  return { kind: "JWS", header, ...payloadText(payload) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JWK or a JWK Set pasted as JSON, or undefined when the text is not JSON. */
function jsonKey(text: string): { jwk: JWK } | { jwks: { keys: JWK[] } } | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  const json = parseJson(t);
  if (!json || typeof json !== "object") {
    throw new FieldError("INVALID_PARAMETER", "The key looks like JSON but does not parse", "key");
  }
  if (Array.isArray((json as { keys?: unknown }).keys)) return { jwks: json as { keys: JWK[] } };
  if (typeof (json as { kty?: unknown }).kty === "string") return { jwk: json as JWK };
  throw new FieldError("INVALID_PARAMETER", 'A JWK needs "kty"; a JWK Set needs "keys"', "key");
}

async function importAs(jwk: JWK, alg: string): Promise<CryptoKey | Uint8Array> {
  try {
    return await importJWK(jwk, alg);
  } catch (e) {
    throw new FieldError(
      "WRONG_KEY_TYPE",
      `This key cannot be used with ${alg}: ${e instanceof Error ? e.message : String(e)}`,
      "key",
    );
  }
}

/** The key for `alg`, private (sign, decrypt) or public (verify, encrypt). */
async function keyFor(
  input: JoseKeyInput,
  alg: string,
  side: "private" | "public",
): Promise<CryptoKey | Uint8Array> {
  const text = capped(input.key, "key", "The key");
  if (!text.trim()) throw new FieldError("INVALID_PARAMETER", "Enter the key", "key");
  const json = jsonKey(text);
  if (json && "jwks" in json) {
    throw new FieldError("INVALID_PARAMETER", "Paste one JWK here; a JWK Set is for verifying", "key");
  }
  if (json) return importAs(json.jwk, alg);
  if (SYMMETRIC.test(alg)) return new TextEncoder().encode(text);
  const pass = input.passphrase ? { passphrase: input.passphrase } : {};
  const converted = await at(privateKeyFields("key"), () =>
    c.convertKey(text, side === "private" ? "jwk" : "jwk-public", pass),
  );
  if (converted.kind !== "jwk") throw new FieldError("INTERNAL", "The key did not convert to a JWK", "key");
  return importAs(JSON.parse(converted.text) as JWK, alg);
}

function pinned<T extends string>(alg: string, list: readonly T[], field: string): T {
  if (alg === "none") {
    throw new FieldError(
      "UNSUPPORTED_ALGORITHM",
      '"none" is never accepted: an unsigned token proves nothing',
      field,
    );
  }
  if (!(list as readonly string[]).includes(alg)) {
    throw new FieldError("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: ${alg}`, field);
  }
  return alg as T;
}

export interface Verified extends Decoded {
  valid: boolean;
  /** Why it is not valid, or what else to know (an expired token with a good signature). */
  reason?: string;
  /** The kid of the JWK Set entry that verified it. */
  kid?: string;
}

async function joseVerify(a: { token: string; alg: string } & JoseKeyInput): Promise<Verified> {
  const alg = pinned(a.alg, JWS_ALGORITHMS, "alg");
  const p = parts(a.token);
  if (p.length !== 3)
    throw new FieldError("INVALID_PARAMETER", "This is a JWE (5 parts): decrypt it", "token");
  const token = p.join(".");
  const header = headerOf(token);
  const decoded = await joseDecode({ token });
  if (header.alg !== alg) {
    return {
      ...decoded,
      valid: false,
      reason: `The token says alg "${String(header.alg)}"; you pinned ${alg}. A token never chooses its own algorithm.`,
    };
  }
  const text = capped(a.key, "key", "The key");
  const json = text.trim() ? jsonKey(text) : undefined;
  try {
    let kid: string | undefined;
    if (json && "jwks" in json) {
      const set = createLocalJWKSet(json.jwks);
      const r = await compactVerify(token, set, { algorithms: [alg] });
      kid = r.protectedHeader.kid;
    } else {
      await compactVerify(token, await keyFor(a, alg, "public"), { algorithms: [alg] });
    }
    const out: Verified = { ...decoded, valid: true };
    if (kid) out.kid = kid;
    const now = Date.now();
    const exp = decoded.times?.find((t) => t.claim === "exp");
    const nbf = decoded.times?.find((t) => t.claim === "nbf");
    if (exp && Date.parse(exp.at) <= now)
      out.reason = `The signature is good, but the token expired at ${exp.at}.`;
    else if (nbf && Date.parse(nbf.at) > now)
      out.reason = `The signature is good, but the token is not valid before ${nbf.at}.`;
    return out;
  } catch (e) {
    if (e instanceof FieldError) throw e;
    if (e instanceof errors.JWSSignatureVerificationFailed) {
      return { ...decoded, valid: false, reason: "The signature does not match this key." };
    }
    if (e instanceof errors.JWKSNoMatchingKey) {
      return {
        ...decoded,
        valid: false,
        reason: `No key in the set fits (kid ${header.kid ?? "absent"}, ${alg}).`,
      };
    }
    if (e instanceof errors.JWKSMultipleMatchingKeys) {
      return { ...decoded, valid: false, reason: "Several keys in the set fit and none verified it." };
    }
    throw new FieldError("INVALID_PARAMETER", e instanceof Error ? e.message : String(e), "key");
  }
}

async function joseSign(
  a: { payload: string; alg: string; kid: string; typ: string } & JoseKeyInput,
): Promise<{ token: string; header: string }> {
  const alg = pinned(a.alg, JWS_ALGORITHMS, "alg");
  const payload = capped(a.payload, "payload", "The payload");
  const key = await keyFor(a, alg, "private");
  const header: CompactJWSHeaderParameters = { alg };
  if (a.typ.trim()) header.typ = a.typ.trim();
  if (a.kid.trim()) header.kid = a.kid.trim();
  try {
    const token = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader(header)
      .sign(key);
    return { token, header: JSON.stringify(header, null, 2) };
  } catch (e) {
    throw new FieldError("WRONG_KEY_TYPE", e instanceof Error ? e.message : String(e), "key");
  }
}

async function joseEncrypt(
  a: { plaintext: string; alg: string; enc: string; kid: string } & JoseKeyInput,
): Promise<{ token: string; header: string }> {
  const alg = pinned(a.alg, JWE_ALGORITHMS, "alg");
  const enc = pinned(a.enc, JWE_ENCRYPTIONS, "enc");
  const plaintext = capped(a.plaintext, "plaintext", "The plaintext");
  const key = await keyFor(a, alg === "dir" ? enc : alg, "public");
  const header: Record<string, string> = { alg, enc };
  if (a.kid.trim()) header.kid = a.kid.trim();
  try {
    const token = await new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader(header as { alg: string; enc: string })
      .encrypt(key);
    return { token, header: JSON.stringify(header, null, 2) };
  } catch (e) {
    throw new FieldError("WRONG_KEY_TYPE", e instanceof Error ? e.message : String(e), "key");
  }
}

async function joseDecrypt(
  a: { token: string; alg: string; enc: string } & JoseKeyInput,
): Promise<{ plaintext: string; header: string; binary: boolean }> {
  const alg = pinned(a.alg, JWE_ALGORITHMS, "alg");
  const enc = pinned(a.enc, JWE_ENCRYPTIONS, "enc");
  const p = parts(a.token);
  if (p.length !== 5)
    throw new FieldError("INVALID_PARAMETER", "This is a JWS (3 parts): verify it", "token");
  const token = p.join(".");
  const header = headerOf(token) as JWSHeaderParameters & { enc?: string };
  if (header.alg !== alg || header.enc !== enc) {
    throw new FieldError(
      "UNSUPPORTED_ALGORITHM",
      `The token says ${String(header.alg)} with ${String(header.enc)}; you pinned ${alg} with ${enc}`,
      "alg",
    );
  }
  const key = await keyFor(a, alg === "dir" ? enc : alg, "private");
  try {
    const r = await compactDecrypt(token, key, {
      keyManagementAlgorithms: [alg],
      contentEncryptionAlgorithms: [enc],
    });
    let plaintext: string;
    let binary = false;
    try {
      plaintext = c.bytesToUtf8(r.plaintext);
    } catch {
      plaintext = c.bytesToHex(r.plaintext);
      binary = true;
    }
    return { plaintext, header: JSON.stringify(r.protectedHeader, null, 2), binary };
  } catch (e) {
    if (e instanceof errors.JWEDecryptionFailed) {
      throw new FieldError(
        "DECRYPTION_FAILED",
        "Decryption failed: wrong key, or the token was altered",
        "key",
      );
    }
    throw new FieldError("WRONG_KEY_TYPE", e instanceof Error ? e.message : String(e), "key");
  }
}

export const ops = { joseDecode, joseVerify, joseSign, joseEncrypt, joseDecrypt };
