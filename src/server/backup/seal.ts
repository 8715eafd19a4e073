import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { BackupError } from "./errors";

/**
 * Passphrase encryption of the instance secrets inside an archive: scrypt (RFC 7914) derives a
 * 256-bit key, AES-256-GCM encrypts and authenticates. Both from node:crypto (OpenSSL), nothing
 * hand-rolled. The parameters travel with the ciphertext so a later release can raise them and
 * still open old archives.
 */
export interface SealedBox {
  kdf: "scrypt";
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: "aes-256-gcm";
  iv: string;
  tag: string;
  ciphertext: string;
}

// N = 2^17, r = 8: 128 MiB of memory per guess, OWASP's recommended floor for scrypt.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const MIN_PASSPHRASE = 12;

function derive(passphrase: string, salt: Buffer, N: number, r: number, p: number): Buffer {
  return scryptSync(passphrase.normalize("NFC"), salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
}

export function checkPassphrase(passphrase: string): void {
  if ([...passphrase].length < MIN_PASSPHRASE)
    throw new BackupError(`The backup passphrase must be at least ${MIN_PASSPHRASE} characters long.`);
}

export function seal(plaintext: Buffer, passphrase: string): SealedBox {
  checkPassphrase(passphrase);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = derive(passphrase, salt, PARAMS.N, PARAMS.r, PARAMS.p);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    kdf: "scrypt",
    ...PARAMS,
    salt: salt.toString("base64"),
    cipher: "aes-256-gcm",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
  };
}

export function open(box: SealedBox, passphrase: string): Buffer {
  if (box.kdf !== "scrypt" || box.cipher !== "aes-256-gcm")
    throw new BackupError("The archive's secrets are sealed with an unknown method.");
  // Bounds on what a crafted archive could ask the key derivation to spend.
  const sane =
    Number.isInteger(box.N) &&
    box.N >= 2 ** 14 &&
    box.N <= 2 ** 20 &&
    (box.N & (box.N - 1)) === 0 &&
    Number.isInteger(box.r) &&
    box.r >= 1 &&
    box.r <= 16 &&
    Number.isInteger(box.p) &&
    box.p >= 1 &&
    box.p <= 4;
  if (!sane) throw new BackupError("The archive's secrets name key-derivation parameters out of range.");
  const key = derive(passphrase, Buffer.from(box.salt, "base64"), box.N, box.r, box.p);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(box.iv, "base64"));
  decipher.setAuthTag(Buffer.from(box.tag, "base64"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(box.ciphertext, "base64")), decipher.final()]);
  } catch {
    throw new BackupError("Wrong passphrase: the archive's secrets could not be decrypted.");
  }
}
