/**
 * The workbench's operations, run inside the crypto Web Worker (see crypto.worker.ts): they take the
 * form's values as typed (text plus its encoding, or a File), call `@/core/crypto`, and return strings
 * ready to show. Every input error is a `FieldError` naming the form field it concerns, so the UI can
 * show it next to that input.
 *
 * This module (and so the crypto libraries) is loaded only by the worker: the UI imports its types.
 */
import * as c from "@/core/crypto";
import { formatLimit } from "./format";
import { hash } from "./hash-ops";
import {
  at,
  type DataSpec,
  type DigestResult,
  encode,
  FieldError,
  type Fields,
  type OpContext,
  type OutputEncoding,
} from "./op-base";

export type { DataSpec, DigestResult, OpContext, OutputEncoding, TextKind } from "./op-base";
export { FieldError } from "./op-base";

/** Reads typed text (or a file) as bytes; errors point at `field`. */
async function bytesOf(field: string, data: DataSpec): Promise<Uint8Array> {
  if (data.kind === "file") return new Uint8Array(await data.file.arrayBuffer());
  const { kind, text } = data;
  return at(field, () => c.decodeText(text, kind));
}

/** Where the passphrase errors of loading a private key go, and the rest. */
const privateKeyFields = (field: string): Fields => ({
  WRONG_PASSPHRASE: "passphrase",
  PASSPHRASE_REQUIRED: "passphrase",
  default: field,
});

/** Files are read 4 MiB at a time: progress every few percent of a big file, few calls. */
const FILE_CHUNK = 4 * 1024 * 1024;

// ---- hashing (the hash tool's operation is in hash-ops.ts) -----------------------------------------

async function hmac(
  a: { alg: c.HashAlgorithm; key: DataSpec; data: DataSpec; output: OutputEncoding },
  ctx: OpContext = {},
): Promise<DigestResult> {
  const { alg, data } = a;
  const key = await bytesOf("key", a.key);
  let mac: Uint8Array;
  let inputLength: number;
  if (data.kind === "file") {
    inputLength = data.file.size;
    mac = await at("data", () =>
      c.hmacStream(alg, key, data.file, {
        chunkSize: FILE_CHUNK,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.progress ? { onProgress: ctx.progress } : {}),
      }),
    );
  } else {
    const bytes = await bytesOf("data", data);
    inputLength = bytes.length;
    mac = await at("alg", () => c.hmac(alg, key, bytes));
  }
  return { value: encode(mac, a.output), inputLength, outputLength: mac.length };
}

async function pbkdf2(a: {
  password: string;
  salt: DataSpec;
  iterations: number;
  length: number;
  hash: c.HashAlgorithm;
  output: OutputEncoding;
}): Promise<{ value: string; millis: number }> {
  const salt = await bytesOf("salt", a.salt);
  const started = performance.now();
  const out = await at({ default: "iterations" }, async () => {
    try {
      return await c.pbkdf2({
        password: a.password,
        salt,
        iterations: a.iterations,
        length: a.length,
        hash: a.hash,
      });
    } catch (e) {
      if (e instanceof c.CryptoInputError && /length/.test(e.message)) {
        throw new FieldError(e.code, e.message, "length");
      }
      throw e;
    }
  });
  return { value: encode(out, a.output), millis: Math.round(performance.now() - started) };
}

function randomBytes(a: { length: number; output: OutputEncoding }): { value: string } {
  if (!Number.isSafeInteger(a.length) || a.length < 1 || a.length > c.RANDOM_MAX_LENGTH) {
    throw new FieldError(
      "INVALID_PARAMETER",
      `Length must be a whole number of bytes from 1 to ${c.RANDOM_MAX_LENGTH.toLocaleString("en-US")}`,
      "length",
    );
  }
  return { value: encode(c.randomBytes(a.length), a.output) };
}

// ---- keys ------------------------------------------------------------------------------------------

/** Key generation choices, e.g. "RSA-2048", "EC-P-256", "Ed25519", "DSA-2048", "DH-ffdhe2048". */
export function keySpecOf(id: string): c.KeySpec {
  if (id.startsWith("RSA-")) {
    const bits = Number(id.slice(4));
    if (bits === 2048 || bits === 3072 || bits === 4096) return { type: "RSA", bits };
  } else if (id.startsWith("EC-")) {
    const curve = id.slice(3);
    if ((c.EC_CURVES as readonly string[]).includes(curve)) return { type: "EC", curve: curve as c.EcCurve };
  } else if (id === "Ed25519" || id === "X25519" || id === "Ed448" || id === "X448") {
    return { type: id };
  } else if (id === "DSA-2048") {
    return { type: "DSA", bits: 2048 };
  } else if (id.startsWith("DH-")) {
    const group = id.slice(3);
    if ((c.DH_GROUPS as readonly string[]).includes(group))
      return { type: "DH", group: group as c.DhGroupName };
  }
  throw new FieldError("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: ${id}`, "algorithm");
}

export interface GeneratedKeys {
  privatePem: string;
  publicPem: string;
  privateJwk?: string;
  publicJwk?: string;
  summary: c.KeySummary;
  encrypted: boolean;
  millis: number;
}

async function generateKey(a: { algorithm: string; passphrase?: string }): Promise<GeneratedKeys> {
  const spec = keySpecOf(a.algorithm);
  const started = performance.now();
  const pair = await at("algorithm", () =>
    c.generateKeyPair(spec, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const out: GeneratedKeys = {
    privatePem: pair.privatePem,
    publicPem: pair.publicPem,
    summary: pair.summary,
    encrypted: Boolean(a.passphrase),
    millis: Math.round(performance.now() - started),
  };
  if (pair.jwk) {
    out.publicJwk = JSON.stringify(pair.jwk.publicKey, null, 2);
    // An encrypted PEM was asked for: a plain private JWK next to it would defeat the point.
    if (!a.passphrase) out.privateJwk = JSON.stringify(pair.jwk.privateKey, null, 2);
  }
  return out;
}

// ---- RSA encryption --------------------------------------------------------------------------------

export type RsaPadding = "OAEP-SHA-256" | "OAEP-SHA-1" | "PKCS1v1.5";

function encryptionScheme(p: RsaPadding): c.EncryptionScheme {
  if (p === "PKCS1v1.5") return { padding: "PKCS1v1.5" };
  return { padding: "OAEP", hash: p === "OAEP-SHA-1" ? "SHA-1" : "SHA-256" };
}

async function rsaEncrypt(a: {
  publicKey: string;
  data: DataSpec;
  padding: RsaPadding;
  output: OutputEncoding;
}): Promise<{ value: string; maxLength: number }> {
  const key = await at("publicKey", () => c.loadPublicKey(a.publicKey));
  const scheme = encryptionScheme(a.padding);
  const data = await bytesOf("data", a.data);
  const out = await at({ WRONG_KEY_TYPE: "publicKey", KEY_TOO_SHORT: "publicKey", default: "data" }, () =>
    c.encrypt(key, data, scheme),
  );
  return {
    value: encode(out, a.output),
    maxLength: key.kind === "rsa" ? c.rsaMaxMessageLength(key, scheme) : 0,
  };
}

async function rsaDecrypt(a: {
  privateKey: string;
  passphrase: string;
  data: DataSpec;
  padding: RsaPadding;
  output: "utf8" | OutputEncoding;
}): Promise<{ value: string; shownAs: "utf8" | OutputEncoding }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const data = await bytesOf("data", a.data);
  const out = await at({ WRONG_KEY_TYPE: "privateKey", KEY_TOO_SHORT: "privateKey", default: "data" }, () =>
    c.decrypt(key, data, encryptionScheme(a.padding)),
  );
  if (a.output === "utf8") {
    try {
      return { value: c.bytesToUtf8(out), shownAs: "utf8" };
    } catch {
      return { value: c.bytesToHex(out), shownAs: "hex" };
    }
  }
  return { value: encode(out, a.output), shownAs: a.output };
}

// ---- signatures ------------------------------------------------------------------------------------

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

// ---- key agreement ---------------------------------------------------------------------------------

async function derive(a: {
  privateKey: string;
  passphrase: string;
  peerPublicKey: string;
  pad: boolean;
  output: OutputEncoding;
}): Promise<{ value: string; length: number; kind: string }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const peer = await at("peerPublicKey", () => c.loadPublicKey(a.peerPublicKey));
  const secret = await at({ default: "peerPublicKey" }, () =>
    c.deriveSharedSecret(key, peer, a.pad ? {} : { pad: false }),
  );
  return { value: encode(secret, a.output), length: secret.length, kind: key.kind };
}

// ---- inspector -------------------------------------------------------------------------------------

type WithoutKey<T extends { publicKey: { key: unknown } }> = Omit<T, "publicKey"> & {
  publicKey: Omit<T["publicKey"], "key">;
};

/** An inspection without the decoded key material (bigints the UI has no use for). */
export type InspectedBlock = Omit<c.Inspection, "certificate" | "csr"> & {
  certificate?: WithoutKey<c.CertificateInfo> & {
    /** At the moment of inspection, by this device's clock. */
    status: "valid" | "expired" | "not yet valid" | "unknown";
  };
  csr?: WithoutKey<c.CsrInfo>;
};

function withoutKey<T extends { publicKey: { key: unknown } }>(x: T): WithoutKey<T> {
  const { key: _key, ...publicKey } = x.publicKey;
  return { ...x, publicKey } as unknown as WithoutKey<T>;
}

async function inspect(a: { input: string; passphrase: string }): Promise<InspectedBlock[]> {
  const blocks = await at(privateKeyFields("input"), () =>
    c.inspect(a.input, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const now = new Date();
  return blocks.map(({ certificate, csr, ...b }) => ({
    ...b,
    ...(certificate
      ? { certificate: { ...withoutKey(certificate), status: c.validityStatus(certificate, now) } }
      : {}),
    ...(csr ? { csr: withoutKey(csr) } : {}),
  }));
}

// ---- symmetric encryption (openssl enc) -------------------------------------------------------------

/** Encrypting a file keeps input and output in memory: this much at most. */
export const SYMMETRIC_MAX_BYTES = 256 * 1024 * 1024;
/** Results longer than this are offered as a download only, not shown as text. */
const SHOW_MAX_BYTES = 64 * 1024;

export interface SymmetricArgs {
  direction: "encrypt" | "decrypt";
  cipher: c.SymmetricCipher;
  keyMode: "password" | "raw";
  password: string;
  kdf: "pbkdf2" | "legacy";
  iterations: number;
  hash: c.HashAlgorithm;
  /** Hex, for keyMode "raw". */
  key: string;
  iv: string;
  aad: DataSpec | null;
  data: DataSpec;
  /** "base64-lines" is `openssl enc -a` (64-column lines); "utf8" for decrypted text. */
  output: "base64" | "base64-lines" | "hex" | "utf8";
}

export interface SymmetricResult {
  /** The output as text, or "" when it is too long to show (download it). */
  value: string;
  shownAs: SymmetricArgs["output"];
  /** The raw output bytes, for download. */
  bytes: Uint8Array;
  key: string;
  iv: string;
  salt?: string;
  /** The ciphertext file was Base64 text (openssl enc -a) and was decoded first. */
  readAsBase64?: boolean;
}

function wrap64(text: string): string {
  return text.replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
}

async function symmetric(a: SymmetricArgs): Promise<SymmetricResult> {
  if (a.data.kind === "file" && a.data.file.size > SYMMETRIC_MAX_BYTES) {
    throw new FieldError(
      "INPUT_TOO_LARGE",
      `Files up to ${formatLimit(SYMMETRIC_MAX_BYTES)} can be encrypted here; use openssl enc for larger ones`,
      "data",
    );
  }
  let data = await bytesOf("data", a.data);
  // A file `openssl enc -a` wrote is Base64 text: read it as such when it is nothing else.
  let readAsBase64 = false;
  if (a.direction === "decrypt" && a.data.kind === "file" && looksLikeBase64(data)) {
    const text = new TextDecoder().decode(data).replace(/\s+/g, "");
    data = await at("data", () => c.base64ToBytes(text));
    readAsBase64 = true;
  }
  const aad = a.aad ? await bytesOf("aad", a.aad) : undefined;
  const opts = aad && aad.length > 0 ? { aad } : {};
  let key: c.EncKey;
  if (a.keyMode === "raw") {
    key = {
      kind: "raw",
      key: await at("key", () => c.hexToBytes(a.key)),
      iv: await at("iv", () => c.hexToBytes(a.iv)),
    };
  } else {
    key = { kind: "password", password: a.password, kdf: a.kdf, hash: a.hash, iterations: a.iterations };
  }
  const fields: Fields = {
    DECRYPTION_FAILED: a.keyMode === "raw" ? "key" : "password",
    default: a.keyMode === "raw" ? "key" : "password",
  };
  let out: Uint8Array;
  let info: { key: Uint8Array; iv: Uint8Array; salt?: Uint8Array } | undefined;
  if (a.direction === "encrypt") {
    const r = await at({ ...fields, INVALID_PARAMETER: a.keyMode === "raw" ? "key" : "iterations" }, () =>
      c.symmetricEncrypt(a.cipher, data, key, opts),
    );
    out = r.output;
    info = r;
  } else {
    const r = await at(fields, () => c.symmetricDecryptDetailed(a.cipher, data, key, opts));
    out = r.output;
    info = r;
  }
  let shownAs = a.output;
  let value = "";
  if (out.length <= SHOW_MAX_BYTES) {
    if (shownAs === "utf8") {
      try {
        value = c.bytesToUtf8(out);
      } catch {
        shownAs = "hex";
      }
    }
    if (shownAs === "hex") value = c.bytesToHex(out);
    else if (shownAs === "base64") value = c.bytesToBase64(out);
    else if (shownAs === "base64-lines") value = wrap64(c.bytesToBase64(out));
  }
  const result: SymmetricResult = {
    value,
    shownAs,
    bytes: out,
    key: info ? c.bytesToHex(info.key) : "",
    iv: info ? c.bytesToHex(info.iv) : "",
  };
  if (info?.salt) result.salt = c.bytesToHex(info.salt);
  if (readAsBase64) result.readAsBase64 = true;
  return result;
}

/**
 * Whether file bytes are Base64 text (`openssl enc -a` output: the alphabet in lines), rather than
 * binary ciphertext, which is all Base64 characters only by a chance too small to matter.
 */
function looksLikeBase64(bytes: Uint8Array): boolean {
  let chars = 0;
  for (const b of bytes) {
    const base64 =
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      (b >= 0x30 && b <= 0x39) ||
      b === 0x2b ||
      b === 0x2f;
    if (base64) chars++;
    else if (b !== 0x3d && b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) return false;
  }
  return chars >= 16;
}

// ---- HKDF ------------------------------------------------------------------------------------------

async function hkdf(a: {
  hash: c.HashAlgorithm;
  mode: c.HkdfMode;
  key: DataSpec;
  salt: DataSpec;
  info: DataSpec;
  length: number;
  output: OutputEncoding;
}): Promise<{ value: string; length: number }> {
  const key = await bytesOf("key", a.key);
  const salt = await bytesOf("salt", a.salt);
  const info = await bytesOf("info", a.info);
  const out = await at({ default: a.mode === "expand" ? "key" : "length" }, () => {
    try {
      return c.hkdf({ hash: a.hash, key, salt, info, length: a.length, mode: a.mode });
    } catch (e) {
      if (e instanceof c.CryptoInputError && /^Length/.test(e.message)) {
        throw new FieldError(e.code, e.message, "length");
      }
      throw e;
    }
  });
  return { value: encode(out, a.output), length: out.length };
}

// ---- key conversion --------------------------------------------------------------------------------

export interface ConvertedKey {
  /** PEM or JWK text, or base64 of DER. */
  value: string;
  kind: "pem" | "der" | "jwk";
  label?: string;
  summary: c.KeySummary;
}

async function convertKey(a: {
  input: string;
  passphrase: string;
  target: c.KeyTarget;
  encoding: "pem" | "der";
  newPassphrase: string;
}): Promise<ConvertedKey> {
  const pass = a.passphrase ? { passphrase: a.passphrase } : {};
  const key = await at(privateKeyFields("privateKey"), () => c.loadAnyKey(a.input, pass));
  const r = await at(
    { ...privateKeyFields("privateKey"), INVALID_PARAMETER: "newPassphrase", WRONG_KEY_TYPE: "target" },
    () =>
      c.convertKey(a.input, a.target, {
        ...pass,
        encoding: a.encoding,
        ...(a.newPassphrase ? { newPassphrase: a.newPassphrase } : {}),
      }),
  );
  const summary = c.summarizeKey(key);
  if (r.kind === "der") return { value: c.bytesToBase64(r.bytes), kind: "der", summary };
  if (r.kind === "pem") return { value: r.text, kind: "pem", label: r.label, summary };
  return { value: r.text, kind: "jwk", summary };
}

// ---- certificates ----------------------------------------------------------------------------------

async function createCertificate(a: {
  privateKey: string;
  passphrase: string;
  make: "csr" | "self-signed";
  subject: string;
  subjectAltNames: string;
  days: number;
}): Promise<{ pem: string; der: string; summary: string }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const fieldFor = (e: c.CryptoInputError) =>
    /^Subject/.test(e.message) || /subject/.test(e.message)
      ? "subject"
      : /^Alternative name/.test(e.message)
        ? "subjectAltNames"
        : /^Days/.test(e.message)
          ? "days"
          : "privateKey";
  try {
    const spec = { subject: a.subject, subjectAltNames: a.subjectAltNames };
    const r =
      a.make === "csr"
        ? await c.createCsr(key, spec)
        : await c.createSelfSignedCertificate(key, { ...spec, days: a.days });
    const summary =
      a.make === "csr"
        ? "PKCS#10 request; check it with: openssl req -in request.csr -verify -noout -text"
        : `Self-signed, valid ${a.days} days from now; check it with: openssl x509 -in certificate.pem -noout -text`;
    return { pem: r.pem, der: c.bytesToBase64(r.der), summary };
  } catch (e) {
    if (e instanceof c.CryptoInputError) throw new FieldError(e.code, e.message, fieldFor(e));
    throw e;
  }
}

const CHAIN_PURPOSES: readonly c.ChainPurpose[] = ["any", "sslserver", "sslclient"];

async function verifyChain(a: {
  chain: string;
  trusted: string;
  /** The time to check at (ISO 8601); empty for now. */
  at?: string;
  purpose?: c.ChainPurpose;
}): Promise<c.ChainResult> {
  const blocks = (text: string, field: string) => at(field, () => c.certificatesFromPem(text));
  const chain = await blocks(a.chain, "chain");
  if (chain.length === 0)
    throw new FieldError("INVALID_PARAMETER", "Paste at least one certificate", "chain");
  const trusted = a.trusted.trim() ? await blocks(a.trusted, "trusted") : [];
  const when = a.at?.trim() ? new Date(a.at) : new Date();
  if (Number.isNaN(when.getTime()))
    throw new FieldError("INVALID_PARAMETER", "Enter a date and time, or leave it empty for now", "at");
  const purpose = a.purpose ?? "any";
  if (!CHAIN_PURPOSES.includes(purpose))
    throw new FieldError("INVALID_PARAMETER", `Unknown purpose "${purpose}"`, "purpose");
  return at("chain", () => c.verifyChain(chain, when, trusted, { purpose }));
}

export const ops = {
  hash,
  hmac,
  pbkdf2,
  randomBytes,
  generateKey,
  rsaEncrypt,
  rsaDecrypt,
  sign,
  verify,
  derive,
  inspect,
  symmetric,
  hkdf,
  convertKey,
  createCertificate,
  verifyChain,
};

export type Ops = typeof ops;
export type OpName = keyof Ops;
export type OpArgs<K extends OpName> = Parameters<Ops[K]>[0];
export type OpResult<K extends OpName> = Awaited<ReturnType<Ops[K]>>;
