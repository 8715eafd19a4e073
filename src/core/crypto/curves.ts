import { ed448, x448 } from "@noble/curves/ed448.js";
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { fail } from "./errors";
import type { HashAlgorithm } from "./hash";
import { OID } from "./oids";

export const EC_CURVES = ["P-256", "P-384", "P-521", "secp256k1"] as const;
export type EcCurve = (typeof EC_CURVES)[number];

export interface CurveInfo {
  name: EcCurve;
  oid: string;
  /** Bytes of a field element / scalar. */
  size: number;
  bits: number;
  /** The hash conventionally paired with the curve (what `openssl dgst` users pick; what JOSE uses). */
  defaultHash: HashAlgorithm;
  /** Whether WebCrypto defines the curve (`namedCurve`). */
  webcrypto: boolean;
  noble: typeof p256;
}

export const CURVES: Record<EcCurve, CurveInfo> = {
  "P-256": {
    name: "P-256",
    oid: OID.p256,
    size: 32,
    bits: 256,
    defaultHash: "SHA-256",
    webcrypto: true,
    noble: p256,
  },
  "P-384": {
    name: "P-384",
    oid: OID.p384,
    size: 48,
    bits: 384,
    defaultHash: "SHA-384",
    webcrypto: true,
    noble: p384,
  },
  "P-521": {
    name: "P-521",
    oid: OID.p521,
    size: 66,
    bits: 521,
    defaultHash: "SHA-512",
    webcrypto: true,
    noble: p521,
  },
  secp256k1: {
    name: "secp256k1",
    oid: OID.secp256k1,
    size: 32,
    bits: 256,
    defaultHash: "SHA-256",
    webcrypto: false,
    noble: secp256k1,
  },
};

export function isEcCurve(name: string): name is EcCurve {
  return (EC_CURVES as readonly string[]).includes(name);
}

export function curveByOid(oid: string): CurveInfo | undefined {
  return Object.values(CURVES).find((c) => c.oid === oid);
}

/** Validates an encoded point (compressed or not, on the curve, not infinity) and returns it uncompressed. */
export function normalizePoint(curve: EcCurve, point: Uint8Array): Uint8Array {
  try {
    return CURVES[curve].noble.Point.fromBytes(point).toBytes(false);
  } catch (e) {
    return fail("INVALID_PUBLIC_VALUE", `The ${curve} public key is not a valid point on the curve`, e);
  }
}

export function ecPublicFromPrivate(curve: EcCurve, d: Uint8Array): Uint8Array {
  try {
    return CURVES[curve].noble.getPublicKey(d, false);
  } catch (e) {
    return fail("MALFORMED_KEY", `The ${curve} private key is out of range`, e);
  }
}

export { ed448, ed25519, x448, x25519 };
