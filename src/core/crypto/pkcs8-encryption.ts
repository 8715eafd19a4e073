import { cbc } from "@noble/ciphers/aes.js";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import {
  contextChild,
  encode,
  int,
  nul,
  octets,
  oid,
  parseDer,
  readInt,
  readOctets,
  readOid,
  readSmallInt,
  seq,
  seqChildren,
  TAG,
} from "./asn1";
import { toBufferSource, utf8ToBytes } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";
import { type HashAlgorithm, pbkdf2, randomBytes } from "./hash";
import { OID, oidName } from "./oids";

/**
 * PKCS#8 EncryptedPrivateKeyInfo with PBES2 (RFC 8018): PBKDF2 or scrypt, then AES-CBC. Writes what
 * `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes (PBKDF2-HMAC-SHA256, AES-256-CBC); reads that, OpenSSL 3's
 * defaults (the same), the other PBKDF2 PRFs, AES-128/192 and scrypt.
 */

const PRF_BY_OID: Record<string, HashAlgorithm> = {
  [OID.hmacWithSHA1]: "SHA-1",
  [OID.hmacWithSHA224]: "SHA-224",
  [OID.hmacWithSHA256]: "SHA-256",
  [OID.hmacWithSHA384]: "SHA-384",
  [OID.hmacWithSHA512]: "SHA-512",
  [OID.hmacWithSHA512_256]: "SHA-512/256",
};
const PRF_OID: Partial<Record<HashAlgorithm, string>> = Object.fromEntries(
  Object.entries(PRF_BY_OID).map(([k, v]) => [v, k]),
);

const CIPHER_KEY_LENGTH: Record<string, number> = {
  [OID.aes128Cbc]: 16,
  [OID.aes192Cbc]: 24,
  [OID.aes256Cbc]: 32,
};

export type Pkcs8Cipher = "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc";
const CIPHER_OID: Record<Pkcs8Cipher, string> = {
  "aes-128-cbc": OID.aes128Cbc,
  "aes-192-cbc": OID.aes192Cbc,
  "aes-256-cbc": OID.aes256Cbc,
};

export interface EncryptPkcs8Options {
  /** PBKDF2 iterations; default 600 000 (OWASP's figure for PBKDF2-HMAC-SHA256). */
  iterations?: number;
  prf?: HashAlgorithm;
  cipher?: Pkcs8Cipher;
}

export const DEFAULT_PBKDF2_ITERATIONS = 600_000;
/** Refuse to run a KDF with absurd parameters from a pasted file (a cheap denial of service otherwise). */
const MAX_ITERATIONS = 10_000_000;
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;

async function aesCbc(
  direction: "encrypt" | "decrypt",
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  // WebCrypto has AES-CBC with 128- and 256-bit keys everywhere; Chromium lacks 192-bit keys.
  if (subtle && key.length !== 24) {
    const k = await subtle.importKey("raw", toBufferSource(key), "AES-CBC", false, [direction]);
    const fn = direction === "encrypt" ? subtle.encrypt.bind(subtle) : subtle.decrypt.bind(subtle);
    return new Uint8Array(await fn({ name: "AES-CBC", iv: toBufferSource(iv) }, k, toBufferSource(data)));
  }
  const c = cbc(key, iv);
  return direction === "encrypt" ? c.encrypt(data) : c.decrypt(data);
}

function passphraseBytes(passphrase: string | Uint8Array): Uint8Array {
  return typeof passphrase === "string" ? utf8ToBytes(passphrase) : passphrase;
}

export async function encryptPkcs8(
  pkcs8Der: Uint8Array,
  passphrase: string | Uint8Array,
  opts: EncryptPkcs8Options = {},
): Promise<Uint8Array> {
  const pass = passphraseBytes(passphrase);
  if (pass.length === 0) fail("INVALID_PARAMETER", "The passphrase is empty");
  const iterations = opts.iterations ?? DEFAULT_PBKDF2_ITERATIONS;
  const prf = opts.prf ?? "SHA-256";
  const prfOid = PRF_OID[prf];
  if (!prfOid) unsupported(`PBKDF2 PRF HMAC-${prf} in PKCS#8`);
  const cipherOid = CIPHER_OID[opts.cipher ?? "aes-256-cbc"];
  const keyLength = CIPHER_KEY_LENGTH[cipherOid] ?? 32;
  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const key = await pbkdf2({ password: pass, salt, iterations, length: keyLength, hash: prf });
  const encrypted = await aesCbc("encrypt", key, iv, pkcs8Der);
  const prfParams = prf === "SHA-1" ? [] : [seq(oid(prfOid), nul())];
  return encode(
    seq(
      seq(
        oid(OID.pbes2),
        seq(
          seq(oid(OID.pbkdf2), seq(octets(salt), int(iterations), ...prfParams)),
          seq(oid(cipherOid), octets(iv)),
        ),
      ),
      octets(encrypted),
    ),
  );
}

export interface EncryptionInfo {
  scheme: string;
  kdf: string;
  prf?: string;
  iterations?: number;
  scrypt?: { N: number; r: number; p: number };
  cipher: string;
}

interface ParsedEncrypted {
  info: EncryptionInfo;
  derive: (pass: Uint8Array, keyLength: number) => Promise<Uint8Array>;
  cipherOid: string;
  iv: Uint8Array;
  data: Uint8Array;
}

function parseEncrypted(der: Uint8Array): ParsedEncrypted {
  const top = seqChildren(parseDer(der), "EncryptedPrivateKeyInfo", 2);
  const alg = seqChildren(top[0], "encryptionAlgorithm", 1);
  const schemeOid = readOid(alg[0], "encryption scheme");
  const data = readOctets(top[1], "encryptedData");
  if (schemeOid !== OID.pbes2) {
    unsupported(
      `PKCS#8 encryption scheme ${oidName(schemeOid) ?? schemeOid} (only PBES2 is supported; re-encrypt with ` +
        "`openssl pkcs8 -topk8 -v2 aes-256-cbc`)",
    );
  }
  const pbes2 = seqChildren(alg[1], "PBES2 parameters", 2);
  const kdf = seqChildren(pbes2[0], "key derivation function", 2);
  const kdfOid = readOid(kdf[0], "KDF");
  const enc = seqChildren(pbes2[1], "encryption scheme", 2);
  const cipherOid = readOid(enc[0], "cipher");
  if (!CIPHER_KEY_LENGTH[cipherOid]) unsupported(`PKCS#8 cipher ${oidName(cipherOid) ?? cipherOid}`);
  const iv = readOctets(enc[1], "IV");
  if (iv.length !== 16) fail("MALFORMED_KEY", "Malformed encrypted key: the AES IV is not 16 bytes");
  const cipher = oidName(cipherOid) ?? cipherOid;

  if (kdfOid === OID.pbkdf2) {
    const p = seqChildren(kdf[1], "PBKDF2 parameters", 2);
    const salt = readOctets(p[0], "PBKDF2 salt");
    const iterations = readSmallInt(p[1], "PBKDF2 iteration count");
    if (iterations < 1 || iterations > MAX_ITERATIONS) {
      fail("INVALID_PARAMETER", `PBKDF2 iteration count ${iterations} is out of range`);
    }
    let prf: HashAlgorithm = "SHA-1"; // the default when the PRF is absent
    let prfName = "hmacWithSHA1";
    for (const extra of p.slice(2)) {
      if (extra.tagClass === "universal" && extra.tagNumber === TAG.SEQUENCE) {
        const prfOid = readOid(extra.children[0], "PBKDF2 PRF");
        const found = PRF_BY_OID[prfOid];
        if (!found) unsupported(`PBKDF2 PRF ${oidName(prfOid) ?? prfOid}`);
        prf = found;
        prfName = oidName(prfOid) ?? prfOid;
      }
    }
    return {
      info: { scheme: "PBES2", kdf: "PBKDF2", prf: prfName, iterations, cipher },
      derive: (pass, length) => pbkdf2({ password: pass, salt, iterations, length, hash: prf }),
      cipherOid,
      iv,
      data,
    };
  }
  if (kdfOid === OID.scrypt) {
    const p = seqChildren(kdf[1], "scrypt parameters", 4);
    const salt = readOctets(p[0], "scrypt salt");
    const N = Number(readInt(p[1], "scrypt N"));
    const r = Number(readInt(p[2], "scrypt r"));
    const pp = Number(readInt(p[3], "scrypt p"));
    if (128 * N * r > MAX_SCRYPT_MEMORY || N < 2 || r < 1 || pp < 1 || pp > 16) {
      fail("INVALID_PARAMETER", "scrypt parameters are out of the supported range");
    }
    return {
      info: { scheme: "PBES2", kdf: "scrypt", scrypt: { N, r, p: pp }, cipher },
      derive: (pass, dkLen) =>
        scryptAsync(pass, salt, { N, r, p: pp, dkLen, maxmem: MAX_SCRYPT_MEMORY + 1024 * 1024 }),
      cipherOid,
      iv,
      data,
    };
  }
  return unsupported(`PKCS#8 key derivation ${oidName(kdfOid) ?? kdfOid}`);
}

/** What protects an EncryptedPrivateKeyInfo, without decrypting it. */
export function describeEncryptedPkcs8(der: Uint8Array): EncryptionInfo {
  return parseEncrypted(der).info;
}

/** Decrypts to the inner PrivateKeyInfo DER; `WRONG_PASSPHRASE` if the passphrase does not open it. */
export async function decryptPkcs8(der: Uint8Array, passphrase: string | Uint8Array): Promise<Uint8Array> {
  const parsed = parseEncrypted(der);
  const keyLength = CIPHER_KEY_LENGTH[parsed.cipherOid] ?? 32;
  const key = await parsed.derive(passphraseBytes(passphrase), keyLength);
  let plain: Uint8Array;
  try {
    plain = await aesCbc("decrypt", key, parsed.iv, parsed.data);
  } catch (e) {
    return fail("WRONG_PASSPHRASE", "Wrong passphrase: the key could not be decrypted", e);
  }
  // A wrong key passes the padding check about 1 time in 256; the DER check catches those.
  try {
    const c = seqChildren(parseDer(plain), "PrivateKeyInfo", 3);
    readSmallInt(c[0], "version");
    if (contextChild(c, 0) === undefined && c[1]?.tagNumber !== TAG.SEQUENCE) throw new Error("not PKCS#8");
  } catch (e) {
    if (e instanceof CryptoInputError || e instanceof Error) {
      return fail("WRONG_PASSPHRASE", "Wrong passphrase: the key could not be decrypted", e);
    }
    throw e;
  }
  return plain;
}
