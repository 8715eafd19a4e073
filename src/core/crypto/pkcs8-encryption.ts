import { cbc } from "@noble/ciphers/aes.js";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import {
  contextChild,
  type DerNode,
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
import { type DesCipher, desCbcDecrypt } from "./des";
import { bytesToUtf8, toBufferSource, utf8ToBytes } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";
import { type HashAlgorithm, pbkdf2, randomBytes } from "./hash";
import { pbkdf1, pkcs12Kdf, pkcs12Password } from "./legacy-kdf";
import { OID, oidName } from "./oids";

/**
 * PKCS#8 EncryptedPrivateKeyInfo with PBES2 (RFC 8018): PBKDF2 or scrypt, then AES-CBC. Writes what
 * `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes (PBKDF2-HMAC-SHA256, AES-256-CBC); reads that, OpenSSL 3's
 * defaults (the same), the other PBKDF2 PRFs, AES-128/192 and scrypt; and, to open old keys, PBES2 with
 * des-cbc / des-ede3-cbc, PBES1 (pbeWithMD5AndDES-CBC, pbeWithSHA1AndDES-CBC: `openssl pkcs8 -topk8 -v1
 * PBE-MD5-DES`, OpenSSL 1.0's default) and PKCS#12's pbeWithSHAAnd3-KeyTripleDES-CBC (Java, Windows,
 * `-v1 PBE-SHA1-3DES`). DES is node-forge's, loaded only for such a key (des.ts). RC2 and RC4 are refused.
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
  [OID.desCbc]: 8,
  [OID.desEde3Cbc]: 24,
};
/** The DES ciphers PBES2 may name (read only). */
const PBES2_DES: Record<string, DesCipher> = { [OID.desCbc]: "DES-CBC", [OID.desEde3Cbc]: "DES-EDE3-CBC" };

/** PBES1 (RFC 8018 §6.1) and PKCS#12 (RFC 7292 appendix C) schemes read here, by OID. */
const LEGACY_SCHEMES: Record<string, { kdf: "PBKDF1-MD5" | "PBKDF1-SHA1" | "PKCS#12"; cipher: DesCipher }> = {
  [OID.pbeWithMD5AndDesCbc]: { kdf: "PBKDF1-MD5", cipher: "DES-CBC" },
  [OID.pbeWithSHA1AndDesCbc]: { kdf: "PBKDF1-SHA1", cipher: "DES-CBC" },
  [OID.pbeWithSHAAnd3KeyTripleDesCbc]: { kdf: "PKCS#12", cipher: "DES-EDE3-CBC" },
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
  /** The decrypted PrivateKeyInfo DER (padding checked); throws on a bad padding. */
  decrypt: (passphrase: string | Uint8Array) => Promise<Uint8Array>;
}

/** PBES1 or PKCS#12 PBE: PBEParameter ::= SEQUENCE { salt OCTET STRING, iterationCount INTEGER }. */
function parseLegacyScheme(
  schemeOid: string,
  params: DerNode | undefined,
  data: Uint8Array,
): ParsedEncrypted {
  const scheme = LEGACY_SCHEMES[schemeOid];
  if (!scheme) {
    return unsupported(
      `PKCS#8 encryption scheme ${oidName(schemeOid) ?? schemeOid} (PBES2, PBES1 with DES and PKCS#12 3DES are ` +
        "supported; re-encrypt with `openssl pkcs8 -topk8 -v2 aes-256-cbc`)",
    );
  }
  const p = seqChildren(params, "PBE parameters", 2);
  const salt = readOctets(p[0], "PBE salt");
  const iterations = readSmallInt(p[1], "PBE iteration count");
  if (iterations < 1 || iterations > MAX_ITERATIONS) {
    fail("INVALID_PARAMETER", `PBE iteration count ${iterations} is out of range`);
  }
  const { kdf, cipher } = scheme;
  const name = oidName(schemeOid) ?? schemeOid;
  return {
    info: {
      scheme: kdf === "PKCS#12" ? `PKCS#12 ${name}` : `PBES1 ${name}`,
      kdf: kdf === "PKCS#12" ? "PKCS#12 KDF" : "PBKDF1",
      prf: kdf === "PBKDF1-MD5" ? "MD5" : "SHA-1",
      iterations,
      cipher: cipher.toLowerCase(),
    },
    decrypt: async (passphrase) => {
      let key: Uint8Array;
      let iv: Uint8Array;
      if (kdf === "PKCS#12") {
        const pass = pkcs12Password(typeof passphrase === "string" ? passphrase : bytesToUtf8(passphrase));
        key = pkcs12Kdf(pass, salt, 1, iterations, 24);
        iv = pkcs12Kdf(pass, salt, 2, iterations, 8);
      } else {
        if (salt.length !== 8)
          fail("MALFORMED_KEY", "Malformed encrypted key: the PBES1 salt is not 8 bytes");
        const dk = pbkdf1(
          kdf === "PBKDF1-MD5" ? "MD5" : "SHA-1",
          passphraseBytes(passphrase),
          salt,
          iterations,
          16,
        );
        key = dk.subarray(0, 8);
        iv = dk.subarray(8, 16);
      }
      return desCbcDecrypt(cipher, key, iv, data);
    },
  };
}

function parseEncrypted(der: Uint8Array): ParsedEncrypted {
  const top = seqChildren(parseDer(der), "EncryptedPrivateKeyInfo", 2);
  const alg = seqChildren(top[0], "encryptionAlgorithm", 1);
  const schemeOid = readOid(alg[0], "encryption scheme");
  const data = readOctets(top[1], "encryptedData");
  if (schemeOid !== OID.pbes2) return parseLegacyScheme(schemeOid, alg[1], data);
  const pbes2 = seqChildren(alg[1], "PBES2 parameters", 2);
  const kdf = seqChildren(pbes2[0], "key derivation function", 2);
  const kdfOid = readOid(kdf[0], "KDF");
  const enc = seqChildren(pbes2[1], "encryption scheme", 2);
  const cipherOid = readOid(enc[0], "cipher");
  if (!CIPHER_KEY_LENGTH[cipherOid]) unsupported(`PKCS#8 cipher ${oidName(cipherOid) ?? cipherOid}`);
  const iv = readOctets(enc[1], "IV");
  const des = PBES2_DES[cipherOid];
  if (iv.length !== (des ? 8 : 16)) {
    fail("MALFORMED_KEY", `Malformed encrypted key: the ${des ?? "AES"} IV is not ${des ? 8 : 16} bytes`);
  }
  const cipher = oidName(cipherOid) ?? cipherOid;
  const keyLength = CIPHER_KEY_LENGTH[cipherOid] ?? 32;
  const decryptWith =
    (derive: (pass: Uint8Array, length: number) => Promise<Uint8Array>) =>
    async (passphrase: string | Uint8Array) => {
      const key = await derive(passphraseBytes(passphrase), keyLength);
      return des ? desCbcDecrypt(des, key, iv, data) : aesCbc("decrypt", key, iv, data);
    };

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
      decrypt: decryptWith((pass, length) => pbkdf2({ password: pass, salt, iterations, length, hash: prf })),
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
      decrypt: decryptWith((pass, dkLen) =>
        scryptAsync(pass, salt, { N, r, p: pp, dkLen, maxmem: MAX_SCRYPT_MEMORY + 1024 * 1024 }),
      ),
    };
  }
  return unsupported(`PKCS#8 key derivation ${oidName(kdfOid) ?? kdfOid}`);
}

/**
 * Decrypts any content encrypted under one of these schemes (a PKCS#12 bag's, say), given as an
 * EncryptedPrivateKeyInfo-shaped SEQUENCE { AlgorithmIdentifier, OCTET STRING }; the padding is checked.
 */
export async function decryptPbe(der: Uint8Array, passphrase: string | Uint8Array): Promise<Uint8Array> {
  const parsed = parseEncrypted(der);
  try {
    return await parsed.decrypt(passphrase);
  } catch (e) {
    return fail("WRONG_PASSPHRASE", "Wrong password: the content could not be decrypted", e);
  }
}

/** What protects an EncryptedPrivateKeyInfo, without decrypting it. */
export function describeEncryptedPkcs8(der: Uint8Array): EncryptionInfo {
  return parseEncrypted(der).info;
}

/** Decrypts to the inner PrivateKeyInfo DER; `WRONG_PASSPHRASE` if the passphrase does not open it. */
export async function decryptPkcs8(der: Uint8Array, passphrase: string | Uint8Array): Promise<Uint8Array> {
  const parsed = parseEncrypted(der);
  let plain: Uint8Array;
  try {
    plain = await parsed.decrypt(passphrase);
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
