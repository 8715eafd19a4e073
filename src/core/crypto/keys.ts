import {
  bitString,
  contextChild,
  type DerNode,
  encode,
  expectTag,
  explicit,
  int,
  nul,
  octets,
  oid,
  parseDer,
  readBitString,
  readInt,
  readOctets,
  readOid,
  readSmallInt,
  seq,
  seqChildren,
  TAG,
} from "./asn1";
import {
  CURVES,
  curveByOid,
  type EcCurve,
  ecPublicFromPrivate,
  ed448,
  ed25519,
  normalizePoint,
  x448,
  x25519,
} from "./curves";
import { findDhGroup } from "./dh-groups";
import { bigintToBytes, bytesToBigint } from "./encoding";
import { fail, unsupported } from "./errors";
import { OID, oidName } from "./oids";

/**
 * A plain model of every key the workbench handles, independent of the format it came in. Codecs below
 * convert between it and PKCS#8, SPKI, PKCS#1, SEC1 and OpenSSL's traditional DSA format.
 */

export interface DsaParams {
  p: bigint;
  q: bigint;
  g: bigint;
}

export interface DhParams {
  p: bigint;
  g: bigint;
  /** Subgroup order: given in X9.42 parameters, or (p - 1) / 2 for the named safe-prime groups. */
  q?: bigint;
  /** How the parameters are encoded: PKCS#3 `dhKeyAgreement` (OpenSSL's "DH") or X9.42 (`DHX`). */
  encoding: "pkcs3" | "x942";
  privateValueLength?: number;
}

export type PublicKeyData =
  | { kind: "rsa"; n: bigint; e: bigint; pss?: boolean }
  | { kind: "ec"; curve: EcCurve; point: Uint8Array }
  | { kind: "ed25519"; publicKey: Uint8Array }
  | { kind: "x25519"; publicKey: Uint8Array }
  | { kind: "ed448"; publicKey: Uint8Array }
  | { kind: "x448"; publicKey: Uint8Array }
  | { kind: "dsa"; params: DsaParams; y: bigint }
  | { kind: "dh"; params: DhParams; y: bigint };

export type PrivateKeyData =
  | {
      kind: "rsa";
      n: bigint;
      e: bigint;
      d: bigint;
      p: bigint;
      q: bigint;
      dp: bigint;
      dq: bigint;
      qi: bigint;
      pss?: boolean;
    }
  | { kind: "ec"; curve: EcCurve; d: Uint8Array; point: Uint8Array }
  | { kind: "ed25519"; seed: Uint8Array; publicKey: Uint8Array }
  | { kind: "x25519"; secret: Uint8Array; publicKey: Uint8Array }
  /** RFC 8032: a 57-byte secret key and public key. */
  | { kind: "ed448"; seed: Uint8Array; publicKey: Uint8Array }
  /** RFC 7748: 56-byte scalar and public key. */
  | { kind: "x448"; secret: Uint8Array; publicKey: Uint8Array }
  | { kind: "dsa"; params: DsaParams; x: bigint; y: bigint }
  | { kind: "dh"; params: DhParams; x: bigint; y: bigint };

export type KeyKind = PublicKeyData["kind"];

export const KEY_KIND_NAMES: Record<KeyKind, string> = {
  rsa: "RSA",
  ec: "EC",
  ed25519: "Ed25519",
  x25519: "X25519",
  ed448: "Ed448",
  x448: "X448",
  dsa: "DSA",
  dh: "DH",
};

export function publicFromPrivate(k: PrivateKeyData): PublicKeyData {
  switch (k.kind) {
    case "rsa":
      return k.pss ? { kind: "rsa", n: k.n, e: k.e, pss: true } : { kind: "rsa", n: k.n, e: k.e };
    case "ec":
      return { kind: "ec", curve: k.curve, point: k.point };
    case "ed25519":
      return { kind: "ed25519", publicKey: k.publicKey };
    case "x25519":
      return { kind: "x25519", publicKey: k.publicKey };
    case "ed448":
      return { kind: "ed448", publicKey: k.publicKey };
    case "x448":
      return { kind: "x448", publicKey: k.publicKey };
    case "dsa":
      return { kind: "dsa", params: k.params, y: k.y };
    case "dh":
      return { kind: "dh", params: k.params, y: k.y };
  }
}

// ---- PKCS#1 ----------------------------------------------------------------------------------------

export function encodeRsaPrivatePkcs1(k: Extract<PrivateKeyData, { kind: "rsa" }>): Uint8Array {
  return encode(
    seq(int(0), int(k.n), int(k.e), int(k.d), int(k.p), int(k.q), int(k.dp), int(k.dq), int(k.qi)),
  );
}

export function decodeRsaPrivatePkcs1(der: Uint8Array | DerNode): Extract<PrivateKeyData, { kind: "rsa" }> {
  const c = seqChildren(der instanceof Uint8Array ? parseDer(der) : der, "RSAPrivateKey", 9);
  const version = readSmallInt(c[0], "RSAPrivateKey version");
  if (version !== 0) unsupported(`multi-prime RSA (RSAPrivateKey version ${version})`);
  const [n, e, d, p, q, dp, dq, qi] = c
    .slice(1, 9)
    .map((x, i) => readInt(x, `RSAPrivateKey field ${i + 1}`)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (n === 0n || p * q !== n) fail("MALFORMED_KEY", "Malformed RSA private key: p × q does not equal n");
  return { kind: "rsa", n, e, d, p, q, dp, dq, qi };
}

export function encodeRsaPublicPkcs1(k: { n: bigint; e: bigint }): Uint8Array {
  return encode(seq(int(k.n), int(k.e)));
}

export function decodeRsaPublicPkcs1(der: Uint8Array): Extract<PublicKeyData, { kind: "rsa" }> {
  const c = seqChildren(parseDer(der), "RSAPublicKey", 2);
  const n = readInt(c[0], "RSA modulus");
  const e = readInt(c[1], "RSA public exponent");
  if (n < 3n || e < 3n)
    fail("MALFORMED_KEY", "Malformed RSA public key: the modulus or exponent is too small");
  return { kind: "rsa", n, e };
}

// ---- algorithm identifiers -------------------------------------------------------------------------

function algorithmIdentifier(k: PublicKeyData | PrivateKeyData) {
  switch (k.kind) {
    case "rsa":
      return k.pss ? seq(oid(OID.rsassaPss)) : seq(oid(OID.rsaEncryption), nul());
    case "ec":
      return seq(oid(OID.ecPublicKey), oid(CURVES[k.curve].oid));
    case "ed25519":
      return seq(oid(OID.ed25519));
    case "x25519":
      return seq(oid(OID.x25519));
    case "ed448":
      return seq(oid(OID.ed448));
    case "x448":
      return seq(oid(OID.x448));
    case "dsa":
      return seq(oid(OID.dsa), seq(int(k.params.p), int(k.params.q), int(k.params.g)));
    case "dh": {
      const { p, g, q, encoding, privateValueLength } = k.params;
      if (encoding === "x942") {
        if (q === undefined) fail("MALFORMED_KEY", "X9.42 DH parameters need q");
        return seq(oid(OID.dhPublicNumber), seq(int(p), int(g), int(q)));
      }
      const fields = [int(p), int(g)];
      if (privateValueLength !== undefined) fields.push(int(privateValueLength));
      return seq(oid(OID.dhKeyAgreement), seq(...fields));
    }
  }
}

interface ParsedAlgorithm {
  oid: string;
  params: DerNode | undefined;
}

function parseAlgorithm(node: DerNode | undefined, what: string): ParsedAlgorithm {
  const c = seqChildren(node, what, 1);
  return { oid: readOid(c[0], `${what} OID`), params: c[1] };
}

function namedCurve(params: DerNode | undefined): EcCurve {
  if (!params) fail("MALFORMED_KEY", "EC key without curve parameters");
  if (params.tagClass === "universal" && params.tagNumber === TAG.SEQUENCE) {
    unsupported("EC keys with explicit curve parameters (only named curves are supported)");
  }
  const curveOid = readOid(params, "EC named curve");
  const c = curveByOid(curveOid);
  if (!c) unsupported(`elliptic curve ${oidName(curveOid) ?? curveOid}`);
  return c.name;
}

function dsaParams(params: DerNode | undefined): DsaParams {
  const c = seqChildren(params, "DSA parameters", 3);
  return { p: readInt(c[0], "DSA p"), q: readInt(c[1], "DSA q"), g: readInt(c[2], "DSA g") };
}

function dhParams(algOid: string, params: DerNode | undefined): DhParams {
  const c = seqChildren(params, "DH parameters", 2);
  const p = readInt(c[0], "DH p");
  const g = readInt(c[1], "DH g");
  if (algOid === OID.dhPublicNumber) {
    return { p, g, q: readInt(c[2], "DH q"), encoding: "x942" };
  }
  const out: DhParams = { p, g, encoding: "pkcs3" };
  if (c[2]) out.privateValueLength = readSmallInt(c[2], "DH privateValueLength");
  if (findDhGroup(p, g)) out.q = (p - 1n) / 2n;
  return out;
}

/** An Ed448 public key must decode to a curve point (OpenSSL refuses others when loading). */
function ed448Point(bytes: Uint8Array): Uint8Array {
  try {
    ed448.Point.fromBytes(bytes);
  } catch (e) {
    return fail("INVALID_PUBLIC_VALUE", "The Ed448 public key is not a valid point on the curve", e);
  }
  return bytes;
}

function fixedLength(bytes: Uint8Array, len: number, what: string): Uint8Array {
  if (bytes.length !== len)
    fail("MALFORMED_KEY", `Malformed ${what}: expected ${len} bytes, found ${bytes.length}`);
  return bytes;
}

// ---- SPKI ------------------------------------------------------------------------------------------

export function encodeSpki(k: PublicKeyData): Uint8Array {
  let keyBytes: Uint8Array;
  switch (k.kind) {
    case "rsa":
      keyBytes = encodeRsaPublicPkcs1(k);
      break;
    case "ec":
      keyBytes = k.point;
      break;
    case "ed25519":
    case "x25519":
    case "ed448":
    case "x448":
      keyBytes = k.publicKey;
      break;
    case "dsa":
    case "dh":
      keyBytes = encode(int(k.y));
      break;
  }
  return encode(seq(algorithmIdentifier(k), bitString(keyBytes)));
}

export function decodeSpki(der: Uint8Array | DerNode): PublicKeyData {
  const c = seqChildren(der instanceof Uint8Array ? parseDer(der) : der, "SubjectPublicKeyInfo", 2);
  const alg = parseAlgorithm(c[0], "SubjectPublicKeyInfo algorithm");
  const keyBytes = readBitString(c[1], "subjectPublicKey");
  switch (alg.oid) {
    case OID.rsaEncryption:
    case OID.rsassaPss: {
      const k = decodeRsaPublicPkcs1(keyBytes);
      return alg.oid === OID.rsassaPss ? { ...k, pss: true } : k;
    }
    case OID.ecPublicKey: {
      const curve = namedCurve(alg.params);
      return { kind: "ec", curve, point: normalizePoint(curve, keyBytes) };
    }
    case OID.ed25519:
      return { kind: "ed25519", publicKey: fixedLength(keyBytes, 32, "Ed25519 public key") };
    case OID.x25519:
      return { kind: "x25519", publicKey: fixedLength(keyBytes, 32, "X25519 public key") };
    case OID.ed448:
      return { kind: "ed448", publicKey: ed448Point(fixedLength(keyBytes, 57, "Ed448 public key")) };
    case OID.x448:
      return { kind: "x448", publicKey: fixedLength(keyBytes, 56, "X448 public key") };
    case OID.dsa:
      return { kind: "dsa", params: dsaParams(alg.params), y: readInt(parseDer(keyBytes), "DSA public key") };
    case OID.dhKeyAgreement:
    case OID.dhPublicNumber:
      return {
        kind: "dh",
        params: dhParams(alg.oid, alg.params),
        y: readInt(parseDer(keyBytes), "DH public key"),
      };
    default:
      return unsupported(`public key algorithm ${oidName(alg.oid) ?? alg.oid}`);
  }
}

// ---- SEC1 ------------------------------------------------------------------------------------------

export function encodeSec1(k: Extract<PrivateKeyData, { kind: "ec" }>, withParams = true): Uint8Array {
  const fields = [int(1), octets(k.d)];
  if (withParams) fields.push(explicit(0, oid(CURVES[k.curve].oid)));
  fields.push(explicit(1, bitString(k.point)));
  return encode(seq(...fields));
}

export function decodeSec1(
  der: Uint8Array,
  curveFromOuter?: EcCurve,
): Extract<PrivateKeyData, { kind: "ec" }> {
  const c = seqChildren(parseDer(der), "ECPrivateKey", 2);
  if (readSmallInt(c[0], "ECPrivateKey version") !== 1)
    fail("MALFORMED_KEY", "Malformed ECPrivateKey: version is not 1");
  const rawD = readOctets(c[1], "EC private key");
  const params = contextChild(c, 0);
  const curve = params ? namedCurve(params.children[0]) : curveFromOuter;
  if (!curve) fail("MALFORMED_KEY", "Malformed ECPrivateKey: the curve is not named");
  if (curveFromOuter && curve !== curveFromOuter) {
    fail("MALFORMED_KEY", "Malformed EC key: the inner and outer curves differ");
  }
  const size = CURVES[curve].size;
  if (rawD.length > size) fail("MALFORMED_KEY", `Malformed ${curve} private key: too long`);
  const d = new Uint8Array(size);
  d.set(rawD, size - rawD.length);
  const computed = ecPublicFromPrivate(curve, d);
  const pub = contextChild(c, 1);
  if (pub) {
    const given = normalizePoint(curve, readBitString(pub.children[0], "EC public key"));
    if (bytesToBigint(given) !== bytesToBigint(computed)) {
      fail("MALFORMED_KEY", "Malformed EC key: the public key does not match the private key");
    }
  }
  return { kind: "ec", curve, d, point: computed };
}

// ---- PKCS#8 ----------------------------------------------------------------------------------------

export function encodePkcs8(k: PrivateKeyData): Uint8Array {
  let inner: Uint8Array;
  switch (k.kind) {
    case "rsa":
      inner = encodeRsaPrivatePkcs1(k);
      break;
    case "ec":
      inner = encodeSec1(k, false);
      break;
    case "ed25519":
    case "ed448":
      inner = encode(octets(k.seed));
      break;
    case "x25519":
    case "x448":
      inner = encode(octets(k.secret));
      break;
    case "dsa":
    case "dh":
      inner = encode(int(k.x));
      break;
  }
  return encode(seq(int(0), algorithmIdentifier(k), octets(inner)));
}

export function decodePkcs8(der: Uint8Array | DerNode): PrivateKeyData {
  const c = seqChildren(der instanceof Uint8Array ? parseDer(der) : der, "PrivateKeyInfo", 3);
  const version = readSmallInt(c[0], "PrivateKeyInfo version");
  if (version !== 0 && version !== 1) fail("MALFORMED_KEY", `Malformed PKCS#8: unknown version ${version}`);
  const alg = parseAlgorithm(c[1], "PrivateKeyInfo algorithm");
  const inner = readOctets(c[2], "PKCS#8 privateKey");
  switch (alg.oid) {
    case OID.rsaEncryption:
    case OID.rsassaPss: {
      const k = decodeRsaPrivatePkcs1(inner);
      return alg.oid === OID.rsassaPss ? { ...k, pss: true } : k;
    }
    case OID.ecPublicKey:
      return decodeSec1(inner, namedCurve(alg.params));
    case OID.ed25519: {
      const seed = fixedLength(readOctets(parseDer(inner), "Ed25519 private key"), 32, "Ed25519 private key");
      return { kind: "ed25519", seed, publicKey: ed25519.getPublicKey(seed) };
    }
    case OID.x25519: {
      const secret = fixedLength(readOctets(parseDer(inner), "X25519 private key"), 32, "X25519 private key");
      return { kind: "x25519", secret, publicKey: x25519.getPublicKey(secret) };
    }
    case OID.ed448: {
      const seed = fixedLength(readOctets(parseDer(inner), "Ed448 private key"), 57, "Ed448 private key");
      return { kind: "ed448", seed, publicKey: ed448.getPublicKey(seed) };
    }
    case OID.x448: {
      const secret = fixedLength(readOctets(parseDer(inner), "X448 private key"), 56, "X448 private key");
      return { kind: "x448", secret, publicKey: x448.getPublicKey(secret) };
    }
    case OID.dsa: {
      const params = dsaParams(alg.params);
      const x = readInt(parseDer(inner), "DSA private key");
      if (x <= 0n || x >= params.q) fail("MALFORMED_KEY", "Malformed DSA key: x is not in [1, q - 1]");
      return { kind: "dsa", params, x, y: modPow(params.g, x, params.p) };
    }
    case OID.dhKeyAgreement:
    case OID.dhPublicNumber: {
      const params = dhParams(alg.oid, alg.params);
      const x = readInt(parseDer(inner), "DH private key");
      if (x <= 1n || x >= params.p - 1n) fail("MALFORMED_KEY", "Malformed DH key: x is out of range");
      return { kind: "dh", params, x, y: modPow(params.g, x, params.p) };
    }
    default:
      return unsupported(`private key algorithm ${oidName(alg.oid) ?? alg.oid}`);
  }
}

// ---- OpenSSL traditional DSA ("DSA PRIVATE KEY") ---------------------------------------------------

export function decodeDsaTraditional(der: Uint8Array): Extract<PrivateKeyData, { kind: "dsa" }> {
  const c = seqChildren(parseDer(der), "DSAPrivateKey", 6);
  const [, p, q, g, y, x] = c.map((n, i) => readInt(n, `DSAPrivateKey field ${i}`)) as bigint[];
  if (p === undefined || q === undefined || g === undefined || y === undefined || x === undefined) {
    return fail("MALFORMED_KEY", "Malformed DSA private key");
  }
  return { kind: "dsa", params: { p, q, g }, x, y };
}

export function encodeDsaTraditional(k: Extract<PrivateKeyData, { kind: "dsa" }>): Uint8Array {
  return encode(seq(int(0), int(k.params.p), int(k.params.q), int(k.params.g), int(k.y), int(k.x)));
}

// ---- helpers ---------------------------------------------------------------------------------------

import { pow } from "micro-rsa-dsa-dh/utils.js";

/** g^x mod p via micro-rsa-dsa-dh (a library routine; not constant-time, like all JS bigint code). */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  return pow(base, exponent, modulus);
}

export function keyBits(k: PublicKeyData | PrivateKeyData): number {
  switch (k.kind) {
    case "rsa":
      return k.n.toString(2).length;
    case "ec":
      return CURVES[k.curve].bits;
    case "ed25519":
    case "x25519":
      return 256;
    case "ed448":
      return 456;
    case "x448":
      return 448;
    case "dsa":
    case "dh":
      return k.params.p.toString(2).length;
  }
}

/** The big-endian bytes of x padded to the byte length of p (how DH and DSA values travel). */
export function padTo(value: bigint, modulus: bigint): Uint8Array {
  return bigintToBytes(value, Math.ceil(modulus.toString(2).length / 8));
}

export { expectTag };
