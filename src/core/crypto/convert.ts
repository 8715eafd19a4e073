/**
 * Key conversion: any key the loaders read (PEM/DER PKCS#8, encrypted PKCS#8, PKCS#1, SEC1, OpenSSL's
 * DSA format, legacy encrypted PEM, SPKI, a certificate's or a CSR's key, or a JWK) to PEM or DER in
 * PKCS#8 (optionally encrypted), PKCS#1, SEC1, SPKI or JWK, and the public key of a private one, as
 * `openssl pkey`, `openssl rsa -RSAPublicKey_out`, `openssl ec` and `openssl pkcs8 -topk8` do.
 */
import { CURVES, type EcCurve } from "./curves";
import { base64ToBytes, bytesToBigint } from "./encoding";
import { CryptoInputError, fail } from "./errors";
import {
  exportPrivateKeyPem,
  type KeyInput,
  loadPrivateKey,
  loadPublicKey,
  privateKeyDer,
  publicKeyDer,
  toJwk,
} from "./keyio";
import {
  decodePkcs8,
  decodeSpki,
  encodePkcs8,
  encodeSpki,
  KEY_KIND_NAMES,
  type PrivateKeyData,
  type PublicKeyData,
  publicFromPrivate,
} from "./keys";
import { toPem } from "./pem";
import { rsaKeyFromExponents } from "./rsa-crt";

export const KEY_TARGETS = [
  "pkcs8",
  "pkcs8-encrypted",
  "pkcs1",
  "sec1",
  "spki",
  "pkcs1-public",
  "jwk",
  "jwk-public",
] as const;
export type KeyTarget = (typeof KEY_TARGETS)[number];

export interface ConvertOptions {
  /** Opens an encrypted input key. */
  passphrase?: string;
  /** For `pkcs8-encrypted`. */
  newPassphrase?: string;
  iterations?: number;
  /** PEM (default) or DER bytes; JWK is always JSON text. */
  encoding?: "pem" | "der";
}

export type ConvertResult =
  | { kind: "pem"; text: string; label: string }
  | { kind: "der"; bytes: Uint8Array }
  | { kind: "jwk"; text: string };

// DSA and DH private keys both carry x (no public key has one).
const isPrivate = (k: PrivateKeyData | PublicKeyData): k is PrivateKeyData =>
  "d" in k || "seed" in k || "secret" in k || "x" in k;

function b64u(v: unknown, what: string): Uint8Array {
  if (typeof v !== "string") fail("MALFORMED_KEY", `Malformed JWK: "${what}" is missing`);
  return base64ToBytes(v);
}

const JWK_CURVES: Record<string, EcCurve> = {
  "P-256": "P-256",
  "P-384": "P-384",
  "P-521": "P-521",
  secp256k1: "secp256k1",
};

/**
 * A private key built from a JWK's fields, checked as the PEM/DER loaders check a key (through the same
 * PKCS#8 codec: lengths, curve points, p × q = n), and its public part compared with the JWK's.
 */
function checkedPrivate(k: PrivateKeyData, given: Uint8Array, what: string): PrivateKeyData {
  const key = decodePkcs8(encodePkcs8(k));
  const derived = "publicKey" in key ? key.publicKey : key.kind === "ec" ? key.point : undefined;
  if (derived && (derived.length !== given.length || derived.some((b, i) => b !== given[i]))) {
    fail("MALFORMED_KEY", `Malformed JWK: d does not match ${what}`);
  }
  return key;
}

/** A public key from a JWK's fields, checked as the SPKI loader checks one (lengths, curve points). */
const checkedPublic = (k: PublicKeyData): PublicKeyData => decodeSpki(encodeSpki(k));

/** A JWK (RFC 7517/7518/8037/8812) as a key: RSA, EC (P-256/384/521, secp256k1), Ed25519, X25519, Ed448, X448. */
export function fromJwk(text: string): PrivateKeyData | PublicKeyData {
  let jwk: Record<string, unknown>;
  try {
    jwk = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new CryptoInputError("MALFORMED_KEY", "Malformed JWK: not JSON", { cause: e });
  }
  if (typeof jwk !== "object" || jwk === null) fail("MALFORMED_KEY", "Malformed JWK: not a JSON object");
  const int = (name: string) => bytesToBigint(b64u(jwk[name], name));
  switch (jwk.kty) {
    case "RSA": {
      const pub = { kind: "rsa" as const, n: int("n"), e: int("e") };
      if (jwk.d === undefined) return checkedPublic(pub);
      const missing = ["p", "q", "dp", "dq", "qi"].filter((f) => jwk[f] === undefined);
      // RFC 7518 §6.3.2: the CRT values are optional, but all or none of them. Without them the primes
      // are recovered from n, e and d.
      if (missing.length === 5) return decodePkcs8(encodePkcs8(rsaKeyFromExponents(pub.n, pub.e, int("d"))));
      if (missing.length > 0) {
        fail(
          "MALFORMED_KEY",
          `Malformed JWK: ${missing.map((f) => `"${f}"`).join(", ")} missing; RFC 7518 §6.3.2 wants all of p, q, dp, dq and qi, or none of them`,
        );
      }
      // decodeRsaPrivatePkcs1 refuses a key whose p × q is not n.
      return decodePkcs8(
        encodePkcs8({
          ...pub,
          d: int("d"),
          p: int("p"),
          q: int("q"),
          dp: int("dp"),
          dq: int("dq"),
          qi: int("qi"),
        }),
      );
    }
    case "EC": {
      const curve = JWK_CURVES[String(jwk.crv)];
      if (!curve) return fail("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: JWK curve ${String(jwk.crv)}`);
      const size = CURVES[curve].size;
      const x = b64u(jwk.x, "x");
      const y = b64u(jwk.y, "y");
      if (x.length !== size || y.length !== size)
        fail("MALFORMED_KEY", `Malformed JWK: x and y must be ${size} bytes`);
      const point = new Uint8Array(1 + 2 * size);
      point[0] = 4;
      point.set(x, 1);
      point.set(y, 1 + size);
      if (jwk.d === undefined) return checkedPublic({ kind: "ec", curve, point });
      const d = b64u(jwk.d, "d");
      if (d.length !== size) fail("MALFORMED_KEY", `Malformed JWK: d must be ${size} bytes`);
      return checkedPrivate({ kind: "ec", curve, d, point }, point, "x and y");
    }
    case "OKP": {
      const crv = String(jwk.crv);
      const kind = OKP_KINDS[crv];
      if (!kind) return fail("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: JWK curve ${crv}`);
      const x = b64u(jwk.x, "x");
      if (jwk.d === undefined) return checkedPublic({ kind, publicKey: x });
      const d = b64u(jwk.d, "d");
      const none = new Uint8Array(0);
      return checkedPrivate(
        kind === "ed25519" || kind === "ed448"
          ? { kind, seed: d, publicKey: none }
          : { kind, secret: d, publicKey: none },
        x,
        "x",
      );
    }
    default:
      return fail("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: JWK key type ${String(jwk.kty)}`);
  }
}

const OKP_KINDS: Record<string, "ed25519" | "x25519" | "ed448" | "x448" | undefined> = {
  Ed25519: "ed25519",
  X25519: "x25519",
  Ed448: "ed448",
  X448: "x448",
};

/** Reads any key input: a JWK (text starting with "{"), or what the PEM/DER loaders read. */
export async function loadAnyKey(
  input: KeyInput,
  opts: { passphrase?: string } = {},
): Promise<PrivateKeyData | PublicKeyData> {
  if (typeof input === "string" && input.trim().startsWith("{")) return fromJwk(input.trim());
  const pass = opts.passphrase ? { passphrase: opts.passphrase } : {};
  try {
    return await loadPrivateKey(input, pass);
  } catch (e) {
    if (!(e instanceof CryptoInputError) || e.code !== "WRONG_KEY_TYPE") throw e;
    return loadPublicKey(input, pass);
  }
}

function privateOnly(k: PrivateKeyData | PublicKeyData, target: string): PrivateKeyData {
  if (!isPrivate(k))
    fail("WRONG_KEY_TYPE", `Wrong key type: ${target} needs a private key; this is a public key`);
  return k;
}

export async function convertKey(
  input: KeyInput,
  target: KeyTarget,
  opts: ConvertOptions = {},
): Promise<ConvertResult> {
  const key = await loadAnyKey(input, opts.passphrase ? { passphrase: opts.passphrase } : {});
  const der = opts.encoding === "der";
  const out = (label: string, bytes: Uint8Array): ConvertResult =>
    der ? { kind: "der", bytes } : { kind: "pem", text: toPem(label, bytes), label };
  const pub = (): PublicKeyData => (isPrivate(key) ? publicFromPrivate(key) : key);
  switch (target) {
    case "pkcs8":
      return out("PRIVATE KEY", privateKeyDer(privateOnly(key, "PKCS#8"), "pkcs8"));
    case "pkcs8-encrypted": {
      if (der) fail("INVALID_PARAMETER", "Encrypted PKCS#8 is written as PEM here");
      if (!opts.newPassphrase) fail("INVALID_PARAMETER", "Enter a passphrase to encrypt the key with");
      const text = await exportPrivateKeyPem(privateOnly(key, "Encrypted PKCS#8"), {
        passphrase: opts.newPassphrase,
        ...(opts.iterations ? { iterations: opts.iterations } : {}),
      });
      return { kind: "pem", text, label: "ENCRYPTED PRIVATE KEY" };
    }
    case "pkcs1":
      return out("RSA PRIVATE KEY", privateKeyDer(privateOnly(key, "PKCS#1"), "pkcs1"));
    case "sec1":
      return out("EC PRIVATE KEY", privateKeyDer(privateOnly(key, "SEC1"), "sec1"));
    case "spki":
      return out("PUBLIC KEY", publicKeyDer(pub(), "spki"));
    case "pkcs1-public":
      return out("RSA PUBLIC KEY", publicKeyDer(pub(), "pkcs1"));
    case "jwk":
    case "jwk-public": {
      const k = target === "jwk" ? privateOnly(key, "A private JWK") : pub();
      const jwk = toJwk(k);
      if (!jwk) fail("WRONG_KEY_TYPE", `Wrong key type: ${KEY_KIND_NAMES[k.kind]} keys have no JWK form`);
      return { kind: "jwk", text: JSON.stringify(jwk, null, 2) };
    }
  }
}
