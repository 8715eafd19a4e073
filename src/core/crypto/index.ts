/**
 * The crypto workbench's façade: every function is async, takes and returns Uint8Array and strings, and
 * throws `CryptoInputError` (with a `code`) for bad input. Keys are passed as PEM text (or base64/hex DER,
 * or DER bytes, or an already-loaded `PrivateKeyData`/`PublicKeyData`).
 */
import { type EcCurve, isEcCurve } from "./curves";
import { type DhGroupName, isDhGroupName } from "./dh-groups";
import {
  ecdh,
  ecdsaSign,
  ecdsaVerify,
  ed448Sign,
  ed448Verify,
  ed25519Sign,
  ed25519Verify,
  generateEc,
  generateEd448,
  generateEd25519,
  generateX448,
  generateX25519,
  type SignatureFormat,
  x448Derive,
  x25519Derive,
} from "./ec";
import { fail, unsupported } from "./errors";
import { dhDerive, dsaSign, dsaVerify, generateDh, generateDsa } from "./ffc";
import type { HashAlgorithm } from "./hash";
import { type KeySummary, summarizeKey } from "./inspect";
import {
  exportPrivateKeyPem,
  exportPublicKeyPem,
  type KeyInput,
  loadPrivateKey,
  loadPublicKey,
  toJwk,
} from "./keyio";
import {
  KEY_KIND_NAMES,
  type KeyKind,
  type PrivateKeyData,
  type PublicKeyData,
  publicFromPrivate,
} from "./keys";
import {
  generateRsa,
  type PssSaltLength,
  type RsaHash,
  rsaDecrypt,
  rsaEncrypt,
  rsaSign,
  rsaVerify,
} from "./rsa";

export type { Asn1Tree, Asn1TreeNode } from "./asn1";
export { asn1Tree } from "./asn1";
export {
  type ConvertOptions,
  type ConvertResult,
  convertKey,
  fromJwk,
  KEY_TARGETS,
  type KeyTarget,
  loadAnyKey,
} from "./convert";
export type { EcCurve } from "./curves";
export { EC_CURVES } from "./curves";
export type { DhGroupName } from "./dh-groups";
export { DH_GROUPS } from "./dh-groups";
export {
  DIGEST_ALGORITHMS,
  type DigestAlgorithm,
  digest,
  digestStream,
  isXof,
  XOF_ALGORITHMS,
  XOF_DEFAULT_LENGTH,
  XOF_MAX_LENGTH,
  type XofAlgorithm,
} from "./digest";
export { decodeDerSignature, derToRaw, encodeDerSignature, rawToDer, type SignatureFormat } from "./ec";
export * from "./encoding";
export * from "./errors";
export {
  createHash,
  createHmac,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  hash,
  hashInfo,
  hashStream,
  hmac,
  hmacStream,
  type IncrementalHash,
  type Pbkdf2Params,
  pbkdf2,
  RANDOM_MAX_LENGTH,
  randomBytes,
  type StreamOptions,
} from "./hash";
export { type HkdfMode, type HkdfParams, hkdf, hkdfMaxLength } from "./hkdf";
export {
  type Inspection,
  type InspectOptions,
  inspect,
  inspect as inspectPem,
  type KeySummary,
  summarizeKey,
} from "./inspect";
export {
  type DerFormat,
  exportPrivateKeyPem,
  exportPublicKeyPem,
  type KeyInput,
  loadPrivateKey,
  loadPublicKey,
  type PrivateKeyFormat,
  type PublicKeyFormat,
  privateKeyDer,
  publicKeyDer,
  toJwk,
} from "./keyio";
export type { PrivateKeyData, PublicKeyData } from "./keys";
export { type PemBlock, parsePem, parsePemAll, toPem } from "./pem";
export { decryptPkcs8, describeEncryptedPkcs8, encryptPkcs8 } from "./pkcs8-encryption";
export { type PssSaltLength, RSA_HASHES, RSA_KEY_SIZES, type RsaHash, rsaMaxMessageLength } from "./rsa";
export {
  type CipherInfo,
  cipherInfo,
  ENC_DEFAULT_ITERATIONS,
  type EncKey,
  type EncResult,
  SYMMETRIC_CIPHERS,
  type SymmetricCipher,
  symmetricDecrypt,
  symmetricDecryptDetailed,
  symmetricEncrypt,
} from "./symmetric";
export { type CertificateInfo, type CsrInfo, parseCertificate, parseCsr, validityStatus } from "./x509";
export {
  type ChainError,
  type ChainLink,
  type ChainOptions,
  type ChainPurpose,
  type ChainResult,
  certificatesFromPem,
  createCsr,
  createSelfSignedCertificate,
  verifyChain,
  verifyCsrSignature,
} from "./x509-create";

// ---- key generation --------------------------------------------------------------------------------

export type KeySpec =
  | { type: "RSA"; bits: 2048 | 3072 | 4096 }
  | { type: "EC"; curve: EcCurve }
  | { type: "Ed25519" }
  | { type: "X25519" }
  | { type: "Ed448" }
  | { type: "X448" }
  | { type: "DSA"; bits?: 2048 | 3072 }
  | { type: "DH"; group: DhGroupName };

export interface GenerateOptions {
  /** Encrypts the private key PEM (PKCS#8 PBES2, PBKDF2-HMAC-SHA256 + AES-256-CBC). */
  passphrase?: string;
  /** PBKDF2 iterations for the encryption (default 600 000). */
  iterations?: number;
}

export interface GeneratedKeyPair {
  privatePem: string;
  publicPem: string;
  /** Where a JWK form exists (RSA, EC, Ed25519, X25519, Ed448, X448); unencrypted. */
  jwk?: { privateKey: JsonWebKey; publicKey: JsonWebKey };
  summary: KeySummary;
  privateKey: PrivateKeyData;
  publicKey: PublicKeyData;
}

export async function generateKeyPair(spec: KeySpec, opts: GenerateOptions = {}): Promise<GeneratedKeyPair> {
  let key: PrivateKeyData;
  switch (spec.type) {
    case "RSA":
      key = await generateRsa(spec.bits);
      break;
    case "EC":
      if (!isEcCurve(spec.curve)) unsupported(`curve ${spec.curve}`);
      key = await generateEc(spec.curve);
      break;
    case "Ed25519":
      key = await generateEd25519();
      break;
    case "X25519":
      key = await generateX25519();
      break;
    case "Ed448":
      key = await generateEd448();
      break;
    case "X448":
      key = await generateX448();
      break;
    case "DSA":
      key = generateDsa(spec.bits ?? 2048);
      break;
    case "DH":
      if (!isDhGroupName(spec.group)) unsupported(`DH group ${spec.group}`);
      key = generateDh(spec.group);
      break;
    default:
      return unsupported(`key type ${(spec as { type: string }).type}`);
  }
  const publicKey = publicFromPrivate(key);
  const privatePem = await exportPrivateKeyPem(key, {
    ...(opts.passphrase ? { passphrase: opts.passphrase } : {}),
    ...(opts.iterations ? { iterations: opts.iterations } : {}),
  });
  const out: GeneratedKeyPair = {
    privatePem,
    publicPem: exportPublicKeyPem(publicKey),
    summary: summarizeKey(key),
    privateKey: key,
    publicKey,
  };
  const privJwk = toJwk(key);
  const pubJwk = toJwk(publicKey);
  if (privJwk && pubJwk) out.jwk = { privateKey: privJwk, publicKey: pubJwk };
  return out;
}

// ---- encryption ------------------------------------------------------------------------------------

export type EncryptionScheme =
  | { padding: "OAEP"; hash: RsaHash; label?: Uint8Array }
  | { padding: "PKCS1v1.5" };

function wrongType(k: { kind: KeyKind }, wanted: string): never {
  return fail(
    "WRONG_KEY_TYPE",
    `Wrong key type: ${wanted} needs ${articled(wanted)}, but this is ${KEY_KIND_NAMES[k.kind]}`,
  );
}

function articled(op: string): string {
  if (op.startsWith("RSA")) return "an RSA key";
  if (op.startsWith("ECDSA") || op.startsWith("ECDH")) return "an EC key";
  if (op.startsWith("Ed25519")) return "an Ed25519 key";
  if (op.startsWith("X25519")) return "an X25519 key";
  if (op.startsWith("Ed448")) return "an Ed448 key";
  if (op.startsWith("X448")) return "an X448 key";
  if (op.startsWith("DSA")) return "a DSA key";
  return "a DH key";
}

export interface KeyOptions {
  passphrase?: string;
}

export async function encrypt(
  publicKey: KeyInput | PublicKeyData,
  data: Uint8Array,
  scheme: EncryptionScheme,
) {
  const k = await loadPublicKey(publicKey);
  if (k.kind !== "rsa") wrongType(k, "RSA encryption");
  return rsaEncrypt(k, data, scheme);
}

export async function decrypt(
  privateKey: KeyInput | PrivateKeyData,
  data: Uint8Array,
  scheme: EncryptionScheme,
  opts: KeyOptions = {},
): Promise<Uint8Array> {
  const k = await loadPrivateKey(privateKey, opts);
  if (k.kind !== "rsa") wrongType(k, "RSA decryption");
  return rsaDecrypt(k, data, scheme);
}

// ---- signatures ------------------------------------------------------------------------------------

export type SignatureScheme =
  | { alg: "RSASSA-PKCS1-v1_5"; hash: RsaHash }
  | { alg: "RSA-PSS"; hash: RsaHash; saltLength?: PssSaltLength }
  | { alg: "ECDSA"; hash?: HashAlgorithm; format?: SignatureFormat }
  | { alg: "Ed25519" }
  | { alg: "Ed448" }
  | { alg: "DSA"; hash?: HashAlgorithm; format?: SignatureFormat };

export async function sign(
  privateKey: KeyInput | PrivateKeyData,
  data: Uint8Array,
  scheme: SignatureScheme,
  opts: KeyOptions = {},
): Promise<Uint8Array> {
  const k = await loadPrivateKey(privateKey, opts);
  switch (scheme.alg) {
    case "RSASSA-PKCS1-v1_5":
    case "RSA-PSS":
      if (k.kind !== "rsa") return wrongType(k, `RSA ${scheme.alg}`);
      return rsaSign(
        k,
        data,
        scheme.alg === "RSA-PSS"
          ? {
              scheme: "PSS",
              hash: scheme.hash,
              ...(scheme.saltLength !== undefined ? { saltLength: scheme.saltLength } : {}),
            }
          : { scheme: "PKCS1v1.5", hash: scheme.hash },
      );
    case "ECDSA":
      if (k.kind !== "ec") return wrongType(k, "ECDSA");
      return ecdsaSign(k, data, scheme);
    case "Ed25519":
      if (k.kind !== "ed25519") return wrongType(k, "Ed25519");
      return ed25519Sign(k, data);
    case "Ed448":
      if (k.kind !== "ed448") return wrongType(k, "Ed448");
      return ed448Sign(k, data);
    case "DSA":
      if (k.kind !== "dsa") return wrongType(k, "DSA");
      return dsaSign(k, data, scheme);
    default:
      return unsupported(`signature scheme ${(scheme as { alg: string }).alg}`);
  }
}

export async function verify(
  publicKey: KeyInput | PublicKeyData | PrivateKeyData,
  data: Uint8Array,
  signature: Uint8Array,
  scheme: SignatureScheme,
): Promise<boolean> {
  const k = await loadPublicKey(publicKey);
  switch (scheme.alg) {
    case "RSASSA-PKCS1-v1_5":
    case "RSA-PSS":
      if (k.kind !== "rsa") return wrongType(k, `RSA ${scheme.alg}`);
      return rsaVerify(
        k,
        data,
        signature,
        scheme.alg === "RSA-PSS"
          ? { scheme: "PSS", hash: scheme.hash, saltLength: scheme.saltLength ?? "auto" }
          : { scheme: "PKCS1v1.5", hash: scheme.hash },
      );
    case "ECDSA":
      if (k.kind !== "ec") return wrongType(k, "ECDSA");
      return ecdsaVerify(k, data, signature, scheme);
    case "Ed25519":
      if (k.kind !== "ed25519") return wrongType(k, "Ed25519");
      return ed25519Verify(k.publicKey, data, signature);
    case "Ed448":
      if (k.kind !== "ed448") return wrongType(k, "Ed448");
      return ed448Verify(k.publicKey, data, signature);
    case "DSA":
      if (k.kind !== "dsa") return wrongType(k, "DSA");
      return dsaVerify(k, data, signature, scheme);
    default:
      return unsupported(`signature scheme ${(scheme as { alg: string }).alg}`);
  }
}

// ---- key agreement ---------------------------------------------------------------------------------

export interface DeriveOptions extends KeyOptions {
  /** DH only: left-pad the secret to the length of p (default true; OpenSSL: `-pkeyopt dh_pad:1`). */
  pad?: boolean;
}

/** ECDH (P-256/384/521, secp256k1), X25519, X448 or finite-field DH; both keys must be of the same type and group. */
export async function deriveSharedSecret(
  privateKey: KeyInput | PrivateKeyData,
  peerPublicKey: KeyInput | PublicKeyData,
  opts: DeriveOptions = {},
): Promise<Uint8Array> {
  const k = await loadPrivateKey(privateKey, opts);
  const peer = await loadPublicKey(peerPublicKey);
  if (peer.kind !== k.kind) {
    fail(
      "WRONG_KEY_TYPE",
      `Wrong key type: the peer key is ${KEY_KIND_NAMES[peer.kind]}, the private key ${KEY_KIND_NAMES[k.kind]}`,
    );
  }
  switch (k.kind) {
    case "ec":
      return ecdh(k, peer as Extract<PublicKeyData, { kind: "ec" }>);
    case "x25519":
      return x25519Derive(k, (peer as Extract<PublicKeyData, { kind: "x25519" }>).publicKey);
    case "x448":
      return x448Derive(k, (peer as Extract<PublicKeyData, { kind: "x448" }>).publicKey);
    case "dh":
      return dhDerive(
        k,
        peer as Extract<PublicKeyData, { kind: "dh" }>,
        opts.pad === false ? { pad: false } : {},
      );
    default:
      return fail(
        "WRONG_KEY_TYPE",
        `Wrong key type: ${KEY_KIND_NAMES[k.kind]} keys cannot agree on a secret`,
      );
  }
}
