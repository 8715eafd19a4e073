/**
 * OpenSSL's legacy ("traditional") PEM encryption: `Proc-Type: 4,ENCRYPTED` and `DEK-Info: <cipher>,<iv>`
 * headers over a PKCS#1, SEC1 or DSA key, as `openssl rsa -aes256` and OpenSSL 1.x's `genrsa -aes256`
 * write. The key is EVP_BytesToKey(MD5, passphrase, salt = the IV's first 8 bytes, 1 iteration), the
 * cipher CBC with PKCS#7 padding. AES-128/192/256-CBC are read with @noble/ciphers; DES-CBC and
 * DES-EDE3-CBC (`openssl rsa -des3`, the old default) with node-forge's DES, loaded only for such a key
 * (des.ts). Reading only: new keys are written as PKCS#8.
 */
import { cbc } from "@noble/ciphers/aes.js";
import { type DesCipher, desCbcDecrypt } from "./des";
import { hexToBytes } from "./encoding";
import { CryptoInputError, fail } from "./errors";
import { bytesToKey } from "./legacy-kdf";

const KEY_LENGTHS: Record<string, number> = {
  "AES-128-CBC": 16,
  "AES-192-CBC": 24,
  "AES-256-CBC": 32,
  "DES-CBC": 8,
  "DES-EDE3-CBC": 24,
};
const isDes = (cipher: string): cipher is DesCipher => cipher.startsWith("DES-");

export interface LegacyPemEncryption {
  cipher: string;
  iv: Uint8Array;
}

export function isLegacyEncrypted(headers: Record<string, string> | undefined): boolean {
  return Boolean(headers?.["Proc-Type"]?.includes("ENCRYPTED"));
}

export function describeLegacyPem(headers: Record<string, string>): LegacyPemEncryption {
  const dek = headers["DEK-Info"];
  const m = dek ? /^([A-Za-z0-9-]+)\s*,\s*([0-9A-Fa-f]+)$/.exec(dek.trim()) : null;
  if (!m?.[1] || !m[2]) fail("MALFORMED_PEM", "Malformed PEM: an encrypted block needs a DEK-Info header");
  return { cipher: m[1].toUpperCase(), iv: hexToBytes(m[2]) };
}

/** Decrypts the body of a legacy encrypted PEM block to the key's DER. */
export async function decryptLegacyPem(
  headers: Record<string, string>,
  body: Uint8Array,
  passphrase: string | Uint8Array | undefined,
): Promise<Uint8Array> {
  const { cipher, iv } = describeLegacyPem(headers);
  const keyLength = KEY_LENGTHS[cipher];
  if (!keyLength) {
    fail(
      "UNSUPPORTED_ALGORITHM",
      `Unsupported algorithm: legacy PEM encrypted with ${cipher}; AES-128/192/256-CBC, DES-CBC and DES-EDE3-CBC are supported. ` +
        "Re-encrypt it with `openssl pkcs8 -topk8 -v2 aes-256-cbc`",
    );
  }
  const ivLength = isDes(cipher) ? 8 : 16;
  if (iv.length !== ivLength) {
    fail("MALFORMED_PEM", `Malformed PEM: the DEK-Info IV must be ${ivLength} bytes for ${cipher}`);
  }
  if (passphrase === undefined || passphrase.length === 0) {
    fail("PASSPHRASE_REQUIRED", "This private key is encrypted: enter its passphrase");
  }
  const pass = typeof passphrase === "string" ? new TextEncoder().encode(passphrase) : passphrase;
  const key = bytesToKey(pass, iv.subarray(0, 8), keyLength);
  try {
    return isDes(cipher) ? await desCbcDecrypt(cipher, key, iv, body) : cbc(key, iv).decrypt(body);
  } catch (e) {
    throw new CryptoInputError("WRONG_PASSPHRASE", "Wrong passphrase: the key could not be decrypted", {
      cause: e,
    });
  }
}
