/**
 * The sign-and-verify tool's operations: the scheme is resolved from the key and the options, and a
 * failed verification says when the signature fits another scheme or encoding.
 */
import * as c from "@/core/crypto";
import {
  at,
  bytesOf,
  type DataSpec,
  encode,
  FieldError,
  type OutputEncoding,
  privateKeyFields,
} from "../../op-base";

export type SchemeChoice = "auto" | "RSASSA-PKCS1-v1_5" | "RSA-PSS" | "ECDSA" | "Ed25519" | "Ed448" | "DSA";

export interface SignatureOptions {
  scheme: SchemeChoice;
  /** For RSA, ECDSA and DSA; "default" is the key's usual hash (SHA-256; ECDSA: the curve's). */
  hash: "default" | c.HashAlgorithm;
  /** ECDSA and DSA: DER (OpenSSL's) or raw r||s. */
  format: c.SignatureFormat;
  /**
   * RSA-PSS salt length: "digest" (OpenSSL's default when signing), "max", a number of bytes, or "auto"
   * (verification only: the digest length, the maximum, then 0). Absent: "digest" to sign, "auto" to verify.
   */
  pssSalt?: string;
}

function pssSaltOf(v: string | undefined, verifying: boolean): c.PssSaltLength {
  if (v === undefined || v === "") return verifying ? "auto" : "digest";
  if (v === "digest" || v === "max") return v;
  if (v === "auto") {
    if (verifying) return "auto";
    throw new FieldError(
      "INVALID_PARAMETER",
      'Salt length "auto" is for verifying; choose one to sign',
      "pssSalt",
    );
  }
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || n > 1024) {
    throw new FieldError(
      "INVALID_PARAMETER",
      "Salt length must be digest, max, auto or a whole number of bytes from 0",
      "pssSalt",
    );
  }
  return n;
}

const KIND_SCHEME: Record<string, Exclude<SchemeChoice, "auto"> | undefined> = {
  rsa: "RSASSA-PKCS1-v1_5",
  ec: "ECDSA",
  ed25519: "Ed25519",
  ed448: "Ed448",
  dsa: "DSA",
};

function resolveScheme(
  kind: string,
  o: SignatureOptions,
  pss: boolean,
  field: string,
  verifying = false,
): { scheme: c.SignatureScheme; label: string } {
  const alg = o.scheme === "auto" ? (pss ? "RSA-PSS" : KIND_SCHEME[kind]) : o.scheme;
  if (!alg) {
    throw new FieldError(
      "WRONG_KEY_TYPE",
      `Wrong key type: ${kind === "x25519" ? "X25519" : kind === "x448" ? "X448" : kind.toUpperCase()} keys cannot sign; use an RSA, EC, Ed25519, Ed448 or DSA key`,
      field,
    );
  }
  const hash = o.hash === "default" ? undefined : o.hash;
  switch (alg) {
    case "RSASSA-PKCS1-v1_5":
    case "RSA-PSS": {
      const h = hash ?? "SHA-256";
      if (!(c.RSA_HASHES as readonly string[]).includes(h)) {
        throw new FieldError(
          "UNSUPPORTED_ALGORITHM",
          `Unsupported algorithm: RSA signatures use ${c.RSA_HASHES.join(", ")}`,
          "hash",
        );
      }
      if (alg === "RSA-PSS") {
        const saltLength = pssSaltOf(o.pssSalt, verifying);
        const salt =
          saltLength === "auto"
            ? "any usual salt length"
            : saltLength === "digest"
              ? "salt = digest length"
              : saltLength === "max"
                ? "maximum salt"
                : `${saltLength}-byte salt`;
        return { scheme: { alg, hash: h as c.RsaHash, saltLength }, label: `RSA-PSS with ${h}, ${salt}` };
      }
      return { scheme: { alg, hash: h as c.RsaHash }, label: `RSA PKCS#1 v1.5 with ${h}` };
    }
    case "ECDSA":
      return {
        scheme: { alg, ...(hash ? { hash } : {}), format: o.format },
        label: `ECDSA with ${hash ?? "the curve's hash"}, ${o.format === "der" ? "DER" : "raw r||s"}`,
      };
    case "DSA":
      return {
        scheme: { alg, ...(hash ? { hash } : {}), format: o.format },
        label: `DSA with ${hash ?? "SHA-256"}, ${o.format === "der" ? "DER" : "raw r||s"}`,
      };
    default: {
      // Pure EdDSA hashes the message itself (SHA-512 / SHAKE256 inside); a chosen hash would be silently ignored.
      const inner = alg === "Ed448" ? "SHAKE256" : "SHA-512";
      if (hash) {
        throw new FieldError(
          "INVALID_PARAMETER",
          `${alg} signs the message itself (with ${inner} inside): it takes no separate hash; choose "Default for the key" instead of ${hash}`,
          "hash",
        );
      }
      return { scheme: { alg }, label: `${alg} (pure)` };
    }
  }
}

const ECDSA_DEFAULT_HASH: Record<string, string> = {
  "P-256": "SHA-256",
  "P-384": "SHA-384",
  "P-521": "SHA-512",
  secp256k1: "SHA-256",
};

async function sign(a: {
  privateKey: string;
  passphrase: string;
  data: DataSpec;
  options: SignatureOptions;
  output: OutputEncoding;
}): Promise<{ value: string; label: string; publicPem: string }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const { scheme, label } = resolveScheme(
    key.kind,
    a.options,
    key.kind === "rsa" && key.pss === true,
    "privateKey",
  );
  const data = await bytesOf("data", a.data);
  const sig = await at({ WRONG_KEY_TYPE: "privateKey", KEY_TOO_SHORT: "privateKey", default: "hash" }, () =>
    c.sign(key, data, scheme),
  );
  const publicPem = c.exportPublicKeyPem(await c.loadPublicKey(key));
  return {
    value: encode(sig, a.output),
    label: key.kind === "ec" ? label.replace("the curve's hash", ECDSA_DEFAULT_HASH[key.curve] ?? "") : label,
    publicPem,
  };
}

async function verify(a: {
  publicKey: string;
  data: DataSpec;
  signature: DataSpec;
  options: SignatureOptions;
}): Promise<{ valid: boolean; label: string; hint?: string }> {
  const key = await at(privateKeyFields("publicKey"), () => c.loadPublicKey(a.publicKey));
  const { scheme, label } = resolveScheme(
    key.kind,
    a.options,
    key.kind === "rsa" && key.pss === true,
    "publicKey",
    true,
  );
  const data = await bytesOf("data", a.data);
  const signature = await bytesOf("signature", a.signature);
  const valid = await at(
    {
      WRONG_KEY_TYPE: "publicKey",
      KEY_TOO_SHORT: "publicKey",
      UNSUPPORTED_ALGORITHM: "hash",
      default: "signature",
    },
    () => c.verify(key, data, signature, scheme),
  );
  const out = {
    valid,
    label: key.kind === "ec" ? label.replace("the curve's hash", ECDSA_DEFAULT_HASH[key.curve] ?? "") : label,
  };
  // An RSA key does not say which padding signed: when PKCS#1 v1.5 was assumed and failed, see whether
  // the signature is a PSS one and say so (it is not accepted silently: the user picks the scheme).
  if (!valid && scheme.alg === "RSASSA-PKCS1-v1_5") {
    const pss = await c
      .verify(key, data, signature, { alg: "RSA-PSS", hash: scheme.hash, saltLength: "auto" })
      .catch(() => false);
    return {
      ...out,
      hint: pss
        ? `It is a valid RSA-PSS signature with ${scheme.hash}: choose the RSA-PSS scheme to accept it.`
        : "If it was made with PSS (openssl … -sigopt rsa_padding_mode:pss), choose RSA-PSS; check the hash too.",
    };
  }
  // ECDSA and DSA signatures come in two encodings: when the chosen one fails, try the other and say so.
  if (!valid && (scheme.alg === "ECDSA" || scheme.alg === "DSA")) {
    const format = scheme.format ?? "der";
    const other = format === "der" ? "raw" : "der";
    const fits = await c.verify(key, data, signature, { ...scheme, format: other }).catch(() => false);
    const named = other === "raw" ? "Raw r||s (JWS, WebCrypto)" : "DER (OpenSSL)";
    const looksDer =
      signature[0] === 0x30 && signature[1] !== undefined && signature[1] + 2 <= signature.length;
    if (fits) {
      return {
        ...out,
        hint: `It is a valid signature in the other encoding: choose “${named}” as the format.`,
      };
    }
    if (format === "der" && !looksDer) {
      return {
        ...out,
        hint: `It is not DER (OpenSSL's form starts with 0x30): if it is ${signature.length} bytes of r||s (as JWS and WebCrypto write it), choose “${named}”; check the hash too.`,
      };
    }
  }
  return out;
}

export const ops = { sign, verify };
