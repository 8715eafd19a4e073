/**
 * PKCS#12 / PFX files (RFC 7292): open one with its password to list its certificates and keys, and
 * create one from a key and a chain as `openssl pkcs12 -export` does (PBES2 with AES-256-CBC and
 * PBKDF2-HMAC-SHA-256, and an HMAC-SHA-256 MAC). Reading also takes the legacy encryptions OpenSSL 3
 * reads only with `-legacy`: 3DES for keys and 40-bit RC2 for certificates; those are not written.
 */
import * as asn1js from "asn1js";
import {
  contextChild,
  encode,
  explicit,
  int,
  nodeBytes,
  nul,
  octets,
  oid,
  parseDer,
  raw,
  readOctets,
  readOid,
  readSmallInt,
  seq,
  seqChildren,
  TAG,
} from "./asn1";
import { concatBytes } from "./encoding";
import { fail } from "./errors";
import { hmac } from "./hash";
import { pkcs12Kdf, pkcs12Password } from "./legacy-kdf";
import { decryptPbe, decryptPkcs8, encryptPkcs8 } from "./pkcs8-encryption";

const P7_DATA = "1.2.840.113549.1.7.1";
const P7_ENCRYPTED = "1.2.840.113549.1.7.6";
const KEY_BAG = "1.2.840.113549.1.12.10.1.1";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const CERT_BAG = "1.2.840.113549.1.12.10.1.3";
const X509_CERT = "1.2.840.113549.1.9.22.1";
const FRIENDLY_NAME = "1.2.840.113549.1.9.20";
const LOCAL_KEY_ID = "1.2.840.113549.1.9.21";
const RC2_40 = "1.2.840.113549.1.12.1.6";
const RC2_128 = "1.2.840.113549.1.12.1.5";
const SHA1 = "1.3.14.3.2.26";
const SHA256 = "2.16.840.1.101.3.4.2.1";

/** OpenSSL 3's defaults for `openssl pkcs12 -export`. */
export const PKCS12_ITERATIONS = 2048;
/** Files larger than this are not PKCS#12 a person carries around. */
export const PKCS12_MAX_BYTES = 4 * 1024 * 1024;

export interface Pkcs12Bag {
  kind: "certificate" | "key";
  /** The certificate's DER, or the key's PrivateKeyInfo (PKCS#8) DER. */
  der: Uint8Array;
  friendlyName?: string;
  localKeyId?: Uint8Array;
  /** How the bag was protected: "none", or the scheme (e.g. "PBES2/AES-256-CBC", "RC2-40 (legacy)"). */
  protection: string;
}

export interface Pkcs12Contents {
  bags: Pkcs12Bag[];
  mac: { algorithm: "SHA-1" | "SHA-256"; iterations: number } | null;
  /** A legacy algorithm (RC2, 3DES, SHA-1 MAC) was used: OpenSSL 3 reads it only with -legacy. */
  legacy: boolean;
}

const contentOf = (n: ReturnType<typeof parseDer>, what: string) => {
  const inner = n.children[0];
  if (!inner) return fail("MALFORMED_DER", `Malformed PKCS#12: ${what} has no content`);
  // BER files may split an OCTET STRING into constructed pieces.
  if (inner.constructed && inner.tagNumber === TAG.OCTET_STRING) {
    return concatBytes(...inner.children.map((c) => c.content));
  }
  return readOctets(inner, what);
};

async function rc2Decrypt(algOid: string, params: Uint8Array, data: Uint8Array, password: string) {
  const p = seqChildren(parseDer(params), "PBE parameters", 2);
  const salt = readOctets(p[0], "salt");
  const iterations = readSmallInt(p[1], "iterations");
  const bits = algOid === RC2_40 ? 40 : 128;
  const pass = pkcs12Password(password);
  const key = pkcs12Kdf(pass, salt, 1, iterations, bits / 8);
  const iv = pkcs12Kdf(pass, salt, 2, iterations, 8);
  const [{ default: rc2 }, { default: util }] = await Promise.all([
    import("node-forge/lib/rc2.js"),
    import("node-forge/lib/util.js"),
  ]);
  const bin = (b: Uint8Array) => util.createBuffer(String.fromCharCode(...b), "raw");
  const cipher = rc2.createDecryptionCipher(bin(key), bits);
  cipher.start(bin(iv));
  // Large bags are fed in pieces: String.fromCharCode takes a bounded number of arguments.
  for (let i = 0; i < data.length; i += 8192) cipher.update(bin(data.subarray(i, i + 8192)));
  if (!cipher.finish()) fail("WRONG_PASSPHRASE", "Wrong password: the certificates could not be decrypted");
  return Uint8Array.from(cipher.output.getBytes(), (c) => c.charCodeAt(0));
}

function attributes(bag: ReturnType<typeof parseDer>): Pick<Pkcs12Bag, "friendlyName" | "localKeyId"> {
  const out: Pick<Pkcs12Bag, "friendlyName" | "localKeyId"> = {};
  const set = bag.children[2];
  for (const attr of set?.children ?? []) {
    const type = readOid(attr.children[0], "attribute type");
    const value = attr.children[1]?.children[0];
    if (!value) continue;
    if (type === FRIENDLY_NAME) {
      const b = value.content;
      let s = "";
      for (let i = 0; i + 1 < b.length; i += 2)
        s += String.fromCharCode(((b[i] ?? 0) << 8) | (b[i + 1] ?? 0));
      out.friendlyName = s;
    } else if (type === LOCAL_KEY_ID) out.localKeyId = value.content;
  }
  return out;
}

async function readBags(der: Uint8Array, protection: string, password: string, into: Pkcs12Bag[]) {
  for (const bag of seqChildren(parseDer(der), "SafeContents")) {
    const id = readOid(bag.children[0], "bag type");
    const value = contextChild(bag.children, 0)?.children[0];
    if (!value) fail("MALFORMED_DER", "Malformed PKCS#12: a bag has no value");
    const attrs = attributes(bag);
    if (id === CERT_BAG) {
      const c = seqChildren(value, "CertBag", 2);
      if (readOid(c[0], "certificate type") !== X509_CERT) continue;
      const certDer = readOctets(contextChild(c, 0)?.children[0], "certificate");
      into.push({ kind: "certificate", der: certDer, protection, ...attrs });
    } else if (id === KEY_BAG) {
      into.push({ kind: "key", der: nodeBytes(der, value), protection, ...attrs });
    } else if (id === SHROUDED_KEY_BAG) {
      const enc = nodeBytes(der, value);
      const scheme = readOid(value.children[0]?.children[0], "key encryption");
      into.push({
        kind: "key",
        der: await decryptPkcs8(enc, password),
        protection: scheme === "1.2.840.113549.1.12.1.3" ? "3DES (legacy)" : "PBES2",
        ...attrs,
      });
    }
  }
}

export async function readPkcs12(file: Uint8Array, password: string): Promise<Pkcs12Contents> {
  if (file.length > PKCS12_MAX_BYTES) fail("INPUT_TOO_LARGE", "PKCS#12 files up to 4 MiB are read here");
  const pfx = seqChildren(parseDer(file), "PFX", 2);
  if (readSmallInt(pfx[0], "version") !== 3) fail("MALFORMED_DER", "Not a PKCS#12 file (version 3 expected)");
  const authSafe = seqChildren(pfx[1], "authSafe", 2);
  if (readOid(authSafe[0], "authSafe type") !== P7_DATA) {
    fail("UNSUPPORTED_ALGORITHM", "Only password-protected PKCS#12 files are read (not public-key ones)");
  }
  const safeDer = contentOf(contextChild(authSafe, 0) ?? fail("MALFORMED_DER", "no authSafe"), "authSafe");
  let legacy = false;
  let mac: Pkcs12Contents["mac"] = null;
  if (pfx[2]) {
    const macData = seqChildren(pfx[2], "MacData", 2);
    const digestInfo = seqChildren(macData[0], "DigestInfo", 2);
    const algOid = readOid(digestInfo[0]?.children[0], "MAC digest");
    const algorithm = algOid === SHA256 ? "SHA-256" : algOid === SHA1 ? "SHA-1" : null;
    if (!algorithm) fail("UNSUPPORTED_ALGORITHM", `Unsupported PKCS#12 MAC digest ${algOid}`);
    const expected = readOctets(digestInfo[1], "MAC");
    const salt = readOctets(macData[1], "MAC salt");
    const iterations = macData[2] ? readSmallInt(macData[2], "MAC iterations") : 1;
    const size = algorithm === "SHA-256" ? 32 : 20;
    const key = pkcs12Kdf(pkcs12Password(password), salt, 3, iterations, size, algorithm ?? "SHA-1");
    const got = await hmac(algorithm ?? "SHA-1", key, safeDer);
    if (got.length !== expected.length || got.some((b, i) => b !== expected[i])) {
      fail("WRONG_PASSPHRASE", "Wrong password: the file's MAC does not match");
    }
    mac = { algorithm: algorithm ?? "SHA-1", iterations };
    if (algorithm === "SHA-1") legacy = true;
  }
  const bags: Pkcs12Bag[] = [];
  for (const info of seqChildren(parseDer(safeDer), "AuthenticatedSafe")) {
    const type = readOid(info.children[0], "content type");
    const content = contextChild(info.children, 0);
    if (!content) fail("MALFORMED_DER", "Malformed PKCS#12: empty content");
    if (type === P7_DATA) {
      await readBags(contentOf(content, "SafeContents"), "none", password, bags);
    } else if (type === P7_ENCRYPTED) {
      const ed = seqChildren(content.children[0], "EncryptedData", 2);
      const eci = seqChildren(ed[1], "EncryptedContentInfo", 3);
      const alg = eci[1];
      if (!alg) return fail("MALFORMED_DER", "Malformed PKCS#12: no algorithm");
      const algOid = readOid(alg.children[0], "content encryption");
      const encNode = contextChild(eci, 0);
      if (!encNode) return fail("MALFORMED_DER", "Malformed PKCS#12: no encrypted content");
      const encrypted = encNode.constructed
        ? concatBytes(...encNode.children.map((c) => c.content))
        : encNode.content;
      let plain: Uint8Array;
      let protection: string;
      if (algOid === RC2_40 || algOid === RC2_128) {
        const params = alg.children[1];
        if (!params) return fail("MALFORMED_DER", "Malformed PKCS#12: no RC2 parameters");
        plain = await rc2Decrypt(algOid, nodeBytes(safeDer, params), encrypted, password);
        protection = algOid === RC2_40 ? "RC2-40 (legacy)" : "RC2-128 (legacy)";
        legacy = true;
      } else {
        plain = await decryptPbe(encode(seq(raw(nodeBytes(safeDer, alg)), octets(encrypted))), password);
        protection = algOid === "1.2.840.113549.1.12.1.3" ? "3DES (legacy)" : "PBES2";
        if (algOid === "1.2.840.113549.1.12.1.3") legacy = true;
      }
      await readBags(plain, protection, password, bags);
    } else {
      fail("UNSUPPORTED_ALGORITHM", `Unsupported PKCS#12 content ${type}`);
    }
  }
  if (bags.some((b) => b.protection.includes("legacy"))) legacy = true;
  return { bags, mac, legacy };
}

function bagAttributes(name: string | undefined, keyId: Uint8Array): asn1js.Set {
  const attrs = [seq(oid(LOCAL_KEY_ID), new asn1js.Set({ value: [octets(keyId)] }))];
  if (name)
    attrs.unshift(
      seq(oid(FRIENDLY_NAME), new asn1js.Set({ value: [new asn1js.BmpString({ value: name })] })),
    );
  return new asn1js.Set({ value: attrs });
}

/**
 * A PKCS#12 file holding a PKCS#8 key and its certificates (leaf first), as `openssl pkcs12 -export`
 * writes it with OpenSSL 3's defaults: the certificates in an encrypted SafeContents, the key in a
 * shrouded key bag, both PBES2 (AES-256-CBC, PBKDF2-HMAC-SHA-256), and an HMAC-SHA-256 MAC.
 */
export async function createPkcs12(
  pkcs8Der: Uint8Array,
  certificates: Uint8Array[],
  password: string,
  opts: { friendlyName?: string; iterations?: number } = {},
): Promise<Uint8Array> {
  if (!password) fail("INVALID_PARAMETER", "Enter a password for the file");
  const iterations = opts.iterations ?? PKCS12_ITERATIONS;
  const keyId = crypto.getRandomValues(new Uint8Array(20));
  const certBags = certificates.map((der, i) =>
    seq(
      oid(CERT_BAG),
      explicit(0, seq(oid(X509_CERT), explicit(0, octets(der)))),
      ...(i === 0 ? [bagAttributes(opts.friendlyName, keyId)] : []),
    ),
  );
  const pbes2 = { iterations, prf: "SHA-256" as const };
  const encryptedCerts = await encryptPkcs8(encode(seq(...certBags)), password, pbes2);
  const [alg, data] = parseDer(encryptedCerts).children;
  if (!alg || !data) return fail("INVALID_PARAMETER", "The certificates could not be encrypted");
  const encryptedKey = await encryptPkcs8(pkcs8Der, password, pbes2);
  const keyBag = seq(
    oid(SHROUDED_KEY_BAG),
    explicit(0, raw(encryptedKey)),
    bagAttributes(opts.friendlyName, keyId),
  );
  const implicitContent = new asn1js.Primitive({
    idBlock: { tagClass: 3, tagNumber: 0 },
    valueHex: data.content,
  });
  const authSafe = encode(
    seq(
      seq(
        oid(P7_ENCRYPTED),
        explicit(0, seq(int(0), seq(oid(P7_DATA), raw(nodeBytes(encryptedCerts, alg)), implicitContent))),
      ),
      seq(oid(P7_DATA), explicit(0, octets(encode(seq(keyBag))))),
    ),
  );
  const salt = crypto.getRandomValues(new Uint8Array(8));
  const macKey = pkcs12Kdf(pkcs12Password(password), salt, 3, iterations, 32, "SHA-256");
  const mac = await hmac("SHA-256", macKey, authSafe);
  return encode(
    seq(
      int(3),
      seq(oid(P7_DATA), explicit(0, octets(authSafe))),
      seq(seq(seq(oid(SHA256), nul()), octets(mac)), octets(salt), int(iterations)),
    ),
  );
}
