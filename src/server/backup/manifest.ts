import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import canonicalize from "canonicalize";
import { base64ToBytes } from "../../core/crypto/encoding";
import { ed25519KeyId } from "../../core/receipts/receipt";
import { BackupError } from "./errors";

export const FORMAT = "abacus-backup/1";
export const MANIFEST = "manifest.json";
export const SIGNATURE = "manifest.sig";
export const SECRETS_PLAIN = "secrets.json";
export const SECRETS_SEALED = "secrets.enc";
/** Table data: COPY text format, one file per table. */
export const tableFile = (schema: string, name: string) => `tables/${schema}.${name}.copy`;

// What an archive may hold; anything else is refused before it is read.
export const ENTRY_NAME =
  /^(manifest\.json|manifest\.sig|secrets\.json|secrets\.enc|tables\/[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*\.copy)$/;
export const MAX_ENTRIES = 1_000;
export const MAX_MANIFEST_BYTES = 1024 * 1024;
export const MAX_SECRETS_BYTES = 64 * 1024;

export interface TableEntry {
  schema: string;
  name: string;
  file: string;
  columns: string[];
  rows: number;
  bytes: number;
  sha256: string;
}

export interface SequenceEntry {
  schema: string;
  name: string;
  /** As text: a bigint. Null when the sequence was never used. */
  lastValue: string | null;
}

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  app: { version: string };
  database: { serverVersion: string };
  schema: { tag: string | null; when: number };
  tables: TableEntry[];
  sequences: SequenceEntry[];
  secrets: { file: string; encrypted: boolean; bytes: number; sha256: string };
  signer: { alg: "Ed25519"; kid: string; x: string };
}

/** What an archive's secrets file holds once decrypted. */
export interface InstanceSecrets {
  authSecret: string;
  /** PKCS#8 PEM of the Ed25519 key that signs receipts (and this manifest). */
  receiptSigningKey: string;
}

export function manifestBytes(manifest: Manifest): Buffer {
  const text = canonicalize(manifest);
  if (typeof text !== "string") throw new Error("manifest cannot be serialised");
  return Buffer.from(text, "utf8");
}

export function signerOf(privateKeyPem: string): { key: KeyObject; signer: Manifest["signer"] } {
  const key = createPrivateKey({ key: privateKeyPem, format: "pem" });
  if (key.asymmetricKeyType !== "ed25519") throw new BackupError("The instance key must be Ed25519.");
  const x = String(createPublicKey(key).export({ format: "jwk" }).x);
  return { key, signer: { alg: "Ed25519", kid: ed25519KeyId(base64ToBytes(x)), x } };
}

export function signManifest(bytes: Buffer, key: KeyObject): string {
  return sign(null, bytes, key).toString("base64");
}

/**
 * Parses and checks a manifest's signature against the key it names. That proves the archive is
 * whole; that it is this instance's comes from the key id (`expectKid`, shown on /admin and at
 * /api/v1/receipt-keys) or from the private key inside the archive matching it.
 */
export function readSignedManifest(bytes: Buffer, signature: string, expectKid?: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  } catch {
    throw new BackupError("The archive's manifest is not valid JSON.");
  }
  if (manifest?.format !== FORMAT)
    throw new BackupError(
      `Not an Abacus backup (format ${JSON.stringify(manifest?.format)}; expected ${FORMAT}).`,
    );
  const signer = manifest.signer;
  if (signer?.alg !== "Ed25519" || typeof signer.x !== "string")
    throw new BackupError("The archive's manifest names no Ed25519 signer.");
  const raw = Buffer.from(signer.x, "base64url");
  if (raw.length !== 32 || ed25519KeyId(raw) !== signer.kid)
    throw new BackupError("The archive's signer key is malformed.");
  const publicKey = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: signer.x }, format: "jwk" });
  const sig = Buffer.from(signature.trim(), "base64");
  if (sig.length !== 64 || !verify(null, bytes, publicKey, sig))
    throw new BackupError(
      "The archive's manifest signature does not verify: the archive was changed or damaged.",
    );
  if (expectKid && expectKid !== signer.kid)
    throw new BackupError(`The archive was signed by key ${signer.kid}, not by the expected ${expectKid}.`);
  return manifest;
}
