/**
 * Making and checking X.509: PKCS#10 requests (`openssl req -new`), self-signed certificates
 * (`openssl req -x509`), the signature on a request, and a certificate chain against trusted roots, as
 * `openssl verify` decides it.
 * DER is built with asn1js (as asn1.ts); signatures are the workbench's own `sign`/`verify`.
 */
import * as asn1js from "asn1js";
import {
  type Asn1,
  bitString,
  encode,
  explicit,
  int,
  nodeBytes,
  nul,
  octets,
  oid,
  parseDer,
  raw,
  readBitString,
  readOid,
  seq,
  seqChildren,
} from "./asn1";
import { ecdsaSign, ecdsaVerify, ed448Sign, ed448Verify, ed25519Sign, ed25519Verify } from "./ec";
import { fail } from "./errors";
import { dsaSign, dsaVerify } from "./ffc";
import { type HashAlgorithm, hash, randomBytes } from "./hash";
import { encodeSpki, type PrivateKeyData, type PublicKeyData, publicFromPrivate } from "./keys";
import { OID } from "./oids";
import { parsePemAll, toPem } from "./pem";
import { type RsaHash, rsaSign, rsaVerify } from "./rsa";
import { type CertificateInfo, parseCertificate, validityStatus } from "./x509";

// ---- names -------------------------------------------------------------------------------------------

const NAME_OIDS: Record<string, string> = {
  CN: "2.5.4.3",
  C: "2.5.4.6",
  L: "2.5.4.7",
  ST: "2.5.4.8",
  O: "2.5.4.10",
  OU: "2.5.4.11",
  SERIALNUMBER: "2.5.4.5",
  EMAILADDRESS: "1.2.840.113549.1.9.1",
  DC: "0.9.2342.19200300.100.1.25",
};

/**
 * A distinguished name as `openssl req -subj` takes it (`/CN=example.com/O=Example`) or as it prints it
 * (`CN=example.com, O=Example`). Values are UTF8String, as OpenSSL's default `utf8only` mask; C is a
 * PrintableString and emailAddress/DC IA5String, as the standards require.
 */
export function parseDistinguishedName(text: string): { type: string; value: string }[] {
  const t = text.trim();
  if (!t) fail("INVALID_PARAMETER", "Enter a subject, e.g. /CN=example.com/O=Example");
  const parts = t.startsWith("/") ? t.slice(1).split(/(?<!\\)\//) : t.split(/(?<!\\),\s*/);
  return parts
    .filter((p) => p.trim())
    .map((p) => {
      const i = p.indexOf("=");
      if (i < 1) fail("INVALID_PARAMETER", `Subject: "${p}" is not TYPE=value`);
      const type = p.slice(0, i).trim();
      const value = p.slice(i + 1).replace(/\\([/,])/g, "$1");
      if (!NAME_OIDS[type.toUpperCase()]) {
        fail(
          "INVALID_PARAMETER",
          `Subject: unknown attribute "${type}" (use CN, O, OU, C, ST, L, emailAddress, DC)`,
        );
      }
      if (type.toUpperCase() === "C" && !/^[A-Z]{2}$/.test(value)) {
        fail("INVALID_PARAMETER", "Subject: C must be a two-letter country code");
      }
      if (!value) fail("INVALID_PARAMETER", `Subject: ${type} is empty`);
      return { type, value };
    });
}

function encodeName(attrs: { type: string; value: string }[]): Asn1 {
  return seq(
    ...attrs.map(({ type, value }) => {
      const t = type.toUpperCase();
      const v =
        t === "C"
          ? new asn1js.PrintableString({ value })
          : t === "EMAILADDRESS" || t === "DC"
            ? new asn1js.IA5String({ value })
            : new asn1js.Utf8String({ value });
      return new asn1js.Set({ value: [seq(oid(NAME_OIDS[t] as string), v)] });
    }),
  );
}

// ---- subject alternative names ---------------------------------------------------------------------

function ipBytes(ip: string): Uint8Array | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const b = v4.slice(1).map(Number);
    return b.every((x) => x <= 255) ? new Uint8Array(b) : undefined;
  }
  if (!ip.includes(":")) return undefined;
  const [head = "", tail = ""] = ip.split("::");
  const h = head ? head.split(":") : [];
  const t = ip.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = ip.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = Number.parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 255;
  });
  return out;
}

/** `DNS:a.example, IP:192.0.2.1, email:x@y, URI:https://…`, or bare names (DNS, or IP when they are one). */
export function parseSubjectAltNames(text: string): Asn1[] {
  return text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((item) => {
      const m = /^(DNS|IP|email|URI):(.+)$/i.exec(item);
      const [kind, value] = m
        ? [m[1]?.toUpperCase() ?? "", m[2] ?? ""]
        : [ipBytes(item) ? "IP" : "DNS", item];
      const implicit = (tagNumber: number, bytes: Uint8Array) =>
        new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber }, valueHex: bytes });
      const ascii = (s: string) => {
        if (!/^[\x21-\x7e]+$/.test(s))
          fail("INVALID_PARAMETER", `Alternative name "${s}": use ASCII (punycode for IDNs)`);
        return new TextEncoder().encode(s);
      };
      switch (kind) {
        case "IP": {
          const b = ipBytes(value);
          if (!b) fail("INVALID_PARAMETER", `Alternative name "${item}" is not an IPv4 or IPv6 address`);
          return implicit(7, b);
        }
        case "EMAIL":
          return implicit(1, ascii(value));
        case "URI":
          return implicit(6, ascii(value));
        default:
          return implicit(2, ascii(value));
      }
    });
}

// ---- signature algorithms --------------------------------------------------------------------------

const RSA_SIG_OIDS: Record<string, string> = {
  "SHA-256": "1.2.840.113549.1.1.11",
  "SHA-384": "1.2.840.113549.1.1.12",
  "SHA-512": "1.2.840.113549.1.1.13",
  "SHA-1": "1.2.840.113549.1.1.5",
};
const ECDSA_SIG_OIDS: Record<string, string> = {
  "SHA-256": "1.2.840.10045.4.3.2",
  "SHA-384": "1.2.840.10045.4.3.3",
  "SHA-512": "1.2.840.10045.4.3.4",
  "SHA-1": "1.2.840.10045.4.1",
};
const DSA_SIG_OIDS: Record<string, string> = {
  "SHA-256": "2.16.840.1.101.3.4.3.2",
  "SHA-1": "1.2.840.10040.4.3",
};
const ED25519 = "1.3.101.112";

const CURVE_HASH: Record<string, HashAlgorithm> = {
  "P-256": "SHA-256",
  "P-384": "SHA-384",
  "P-521": "SHA-512",
  secp256k1: "SHA-256",
};

function signatureAlgorithm(key: PrivateKeyData): {
  alg: Asn1;
  sign: (tbs: Uint8Array) => Promise<Uint8Array>;
} {
  switch (key.kind) {
    case "rsa": {
      if (key.pss)
        fail("UNSUPPORTED_ALGORITHM", "Unsupported algorithm: certificates signed with RSA-PSS-only keys");
      return {
        alg: seq(oid(RSA_SIG_OIDS["SHA-256"] as string), nul()),
        sign: (tbs) => rsaSign(key, tbs, { scheme: "PKCS1v1.5", hash: "SHA-256" }),
      };
    }
    case "ec": {
      const h = CURVE_HASH[key.curve] ?? "SHA-256";
      return {
        alg: seq(oid(ECDSA_SIG_OIDS[h] as string)),
        sign: (tbs) => ecdsaSign(key, tbs, { hash: h, format: "der" }),
      };
    }
    case "ed25519":
      return { alg: seq(oid(ED25519)), sign: (tbs) => ed25519Sign(key, tbs) };
    case "ed448":
      return { alg: seq(oid(OID.ed448)), sign: (tbs) => ed448Sign(key, tbs) };
    case "dsa":
      return {
        alg: seq(oid(DSA_SIG_OIDS["SHA-256"] as string)),
        sign: async (tbs) => dsaSign(key, tbs, { hash: "SHA-256", format: "der" }),
      };
    default:
      return fail("WRONG_KEY_TYPE", `Wrong key type: ${key.kind.toUpperCase()} keys cannot sign`);
  }
}

/** Verifies `sig` over `tbs` with the algorithm an X.509/PKCS#10 AlgorithmIdentifier names. */
async function verifyBy(
  algOid: string,
  key: PublicKeyData,
  tbs: Uint8Array,
  sig: Uint8Array,
): Promise<boolean> {
  const find = (table: Record<string, string>) =>
    Object.entries(table).find(([, o]) => o === algOid)?.[0] as HashAlgorithm | undefined;
  const rsaHash = find(RSA_SIG_OIDS);
  if (rsaHash) {
    if (key.kind !== "rsa") return false;
    return rsaVerify(key, tbs, sig, { scheme: "PKCS1v1.5", hash: rsaHash as RsaHash });
  }
  const ecHash = find(ECDSA_SIG_OIDS);
  if (ecHash) return key.kind === "ec" && ecdsaVerify(key, tbs, sig, { hash: ecHash, format: "der" });
  const dsaHash = find(DSA_SIG_OIDS);
  if (dsaHash) return key.kind === "dsa" && dsaVerify(key, tbs, sig, { hash: dsaHash, format: "der" });
  if (algOid === ED25519) return key.kind === "ed25519" && ed25519Verify(key.publicKey, tbs, sig);
  if (algOid === OID.ed448) return key.kind === "ed448" && ed448Verify(key.publicKey, tbs, sig);
  return fail("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: signature ${algOid}`);
}

// ---- requests and certificates ---------------------------------------------------------------------

export interface CertificateRequestSpec {
  /** `/CN=…/O=…` or `CN=…, O=…`. */
  subject: string;
  /** Comma- or space-separated: `DNS:example.com, IP:192.0.2.1`, or bare names. */
  subjectAltNames?: string;
}

function extension(extOid: string, critical: boolean, value: Asn1): Asn1 {
  return seq(oid(extOid), ...(critical ? [new asn1js.Boolean({ value: true })] : []), octets(encode(value)));
}

const SAN = "2.5.29.17";

function sanExtension(text: string | undefined): Asn1[] {
  const names = text?.trim() ? parseSubjectAltNames(text) : [];
  return names.length ? [extension(SAN, false, seq(...names))] : [];
}

const armored = (label: string, der: Uint8Array) => ({ der, pem: toPem(label, der) });

/** A PKCS#10 request signed by `key` (SHA-256; ECDSA with the curve's hash; pure Ed25519 or Ed448). */
export async function createCsr(
  key: PrivateKeyData,
  spec: CertificateRequestSpec,
): Promise<{ der: Uint8Array; pem: string }> {
  const name = encodeName(parseDistinguishedName(spec.subject));
  const exts = sanExtension(spec.subjectAltNames);
  const attributes = exts.length
    ? [seq(oid("1.2.840.113549.1.9.14"), new asn1js.Set({ value: [seq(...exts)] }))]
    : [];
  const info = seq(
    int(0),
    name,
    raw(encodeSpki(publicFromPrivate(key))),
    new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: attributes }),
  );
  const tbs = encode(info);
  const { alg, sign } = signatureAlgorithm(key);
  const der = encode(seq(raw(tbs), alg, bitString(await sign(tbs))));
  return armored("CERTIFICATE REQUEST", der);
}

export interface SelfSignedSpec extends CertificateRequestSpec {
  /** Days of validity from `notBefore` (default 365). */
  days?: number;
  /** Default: now. */
  notBefore?: Date;
  /** A CA certificate (basicConstraints CA:TRUE, critical), as `openssl req -x509` writes by default. */
  ca?: boolean;
}

function time(d: Date): Asn1 {
  const y = d.getUTCFullYear();
  return y >= 1950 && y < 2050
    ? new asn1js.UTCTime({ valueDate: d })
    : new asn1js.GeneralizedTime({ valueDate: d });
}

/** A self-signed X.509 v3 certificate, as `openssl req -x509 -key … -subj … -days … [-addext subjectAltName=…]`. */
export async function createSelfSignedCertificate(
  key: PrivateKeyData,
  spec: SelfSignedSpec,
): Promise<{ der: Uint8Array; pem: string }> {
  const days = spec.days ?? 365;
  if (!Number.isSafeInteger(days) || days < 1 || days > 36500) {
    fail("INVALID_PARAMETER", "Days must be a whole number from 1 to 36500");
  }
  const attrs = parseDistinguishedName(spec.subject);
  const name = encodeName(attrs);
  const spki = encodeSpki(publicFromPrivate(key));
  const spkiNode = parseDer(spki);
  const keyId = (await hash("SHA-1", readBitString(spkiNode.children[1], "subjectPublicKey"))).slice(0, 20);
  const notBefore = spec.notBefore ?? new Date();
  notBefore.setUTCMilliseconds(0);
  const notAfter = new Date(notBefore.getTime() + days * 86_400_000);
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40; // positive, 16 bytes
  const exts = [
    extension("2.5.29.14", false, octets(keyId)),
    extension(
      "2.5.29.35",
      false,
      seq(new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: keyId })),
    ),
    ...(spec.ca === false ? [] : [extension("2.5.29.19", true, seq(new asn1js.Boolean({ value: true })))]),
    ...sanExtension(spec.subjectAltNames),
  ];
  const { alg, sign } = signatureAlgorithm(key);
  const tbs = encode(
    seq(
      explicit(0, int(2)),
      new asn1js.Integer({ valueHex: serial }),
      alg,
      name,
      seq(time(notBefore), time(notAfter)),
      name,
      raw(spki),
      explicit(3, seq(...exts)),
    ),
  );
  const der = encode(seq(raw(tbs), alg, bitString(await sign(tbs))));
  return armored("CERTIFICATE", der);
}

function signedParts(der: Uint8Array, what: string): { tbs: Uint8Array; algOid: string; sig: Uint8Array } {
  const root = parseDer(der);
  const [tbsNode, algNode, sigNode] = seqChildren(root, what, 3);
  if (!tbsNode) fail("MALFORMED_DER", `${what}: missing body`);
  return {
    tbs: nodeBytes(der, tbsNode),
    algOid: readOid(seqChildren(algNode, "signatureAlgorithm", 1)[0], "signature algorithm"),
    sig: readBitString(sigNode, "signature"),
  };
}

/** Whether a PKCS#10 request is signed by the key it carries (`openssl req -verify`). */
export async function verifyCsrSignature(der: Uint8Array, publicKey: PublicKeyData): Promise<boolean> {
  const { tbs, algOid, sig } = signedParts(der, "CertificationRequest");
  return verifyBy(algOid, publicKey, tbs, sig);
}

/** The PEM labels of a certificate: RFC 7468's, and the two older ones OpenSSL also reads. */
const CERTIFICATE_LABELS = new Set(["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]);

/**
 * The certificates of PEM text (every block, in order), as DER. Only "CERTIFICATE" blocks are taken, and
 * OpenSSL's "X509 CERTIFICATE" and "TRUSTED CERTIFICATE" (whose trust settings after the certificate are
 * left out); any other block, be it a key, a request or a label that merely ends in "CERTIFICATE", is
 * refused by name rather than skipped or read. Empty text gives no certificates.
 */
export function certificatesFromPem(text: string): Uint8Array[] {
  if (!text.trim()) return [];
  const blocks = parsePemAll(text);
  if (blocks.length === 0) fail("MALFORMED_PEM", "No -----BEGIN CERTIFICATE----- block found");
  return blocks.map((b, i) => {
    if (!CERTIFICATE_LABELS.has(b.label)) {
      const which = blocks.length > 1 ? `Block ${i + 1}` : "The block";
      fail(
        "MALFORMED_PEM",
        `${which} is "-----BEGIN ${b.label}-----", not a certificate: only "-----BEGIN CERTIFICATE-----" blocks are read here (and OpenSSL's "TRUSTED CERTIFICATE" and "X509 CERTIFICATE")`,
      );
    }
    if (b.label !== "TRUSTED CERTIFICATE") return b.der;
    // X509_AUX (trust and reject settings, alias) follows the certificate: keep the certificate only.
    return nodeBytes(b.der, parseDer(b.der, { allowTrailing: true }));
  });
}

// ---- chain verification ----------------------------------------------------------------------------

/**
 * The checks `openssl verify` can apply to the leaf and its issuers (`-purpose`): none by default, or
 * a TLS server or client certificate (extended key usage, key usage and Netscape type, as OpenSSL's
 * X509_check_purpose reads them).
 */
export type ChainPurpose = "any" | "sslserver" | "sslclient";

export interface ChainOptions {
  purpose?: ChainPurpose;
}

/**
 * An error as `openssl verify` (OpenSSL 3.0) reports it: its number, the depth of the certificate it is
 * about (0 = the leaf) and its reason text, e.g. 19 at depth 2, "self-signed certificate in certificate
 * chain".
 */
export interface ChainError {
  code: number;
  depth: number;
  reason: string;
}

export interface ChainLink {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  /** At the time the chain is checked for. */
  status: ReturnType<typeof validityStatus>;
  /**
   * Whether the next certificate's key verifies this one's signature; for a self-signed last one, its
   * own key (shown only: like `openssl verify`, a trust anchor's self-signature is not a check).
   */
  signatureValid: boolean;
  /** Issuer name equals the next certificate's subject (for the last one: its own). */
  issuerMatches: boolean;
  selfSigned: boolean;
  /** Taken from the trusted certificates rather than from the chain. */
  trusted: boolean;
}

export interface ChainResult {
  /**
   * "verified": the chain reaches a trusted root and every check passes; "failed": it does not or a
   * check fails; "no trust anchor": no trusted certificate was given, so nothing can be verified.
   */
  verdict: "verified" | "failed" | "no trust anchor";
  /** The same as `verdict === "verified"`. */
  valid: boolean;
  /** The time the chain was checked for (ISO 8601, UTC). */
  at: string;
  /** The path built from the leaf, leaf first, ending at the trusted root when one was reached. */
  links: ChainLink[];
  /** Subjects of the chain's certificates that are not on that path. */
  unused: string[];
  /** Every error, in the order `openssl verify` meets them. */
  errors: ChainError[];
  /** The errors in words; empty when verified. */
  problems: string[];
}

const REASONS: Record<number, string> = {
  2: "unable to get issuer certificate",
  7: "certificate signature failure",
  9: "certificate is not yet valid",
  10: "certificate has expired",
  13: "format error in certificate's notBefore field",
  18: "self-signed certificate",
  19: "self-signed certificate in certificate chain",
  20: "unable to get local issuer certificate",
  21: "unable to verify the first certificate",
  25: "path length constraint exceeded",
  26: "unsuitable certificate purpose",
  32: "key usage does not include certificate signing",
  34: "unhandled critical extension",
  79: "invalid CA certificate",
};

/** The extensions OpenSSL understands; any other one marked critical makes a certificate unusable. */
const HANDLED_EXTENSIONS = new Set([
  "2.16.840.1.113730.1.1", // Netscape certificate type
  "2.5.29.15", // key usage
  "2.5.29.17", // subject alternative name
  "2.5.29.19", // basic constraints
  "2.5.29.32", // certificate policies
  "2.5.29.37", // extended key usage
  "1.3.6.1.5.5.7.1.7", // IP address blocks
  "1.3.6.1.5.5.7.1.8", // AS identifiers
  "2.5.29.36", // policy constraints
  "1.3.6.1.5.5.7.1.14", // proxy certificate information
  "2.5.29.30", // name constraints
  "2.5.29.33", // policy mappings
  "2.5.29.54", // inhibit any policy
]);

const KU_BITS = {
  digitalSignature: 0x80,
  keyEncipherment: 0x20,
  keyAgreement: 0x08,
  keyCertSign: 0x04,
};
const EKU = {
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
  nsSgc: "2.16.840.1.113730.4.1",
  msSgc: "1.3.6.1.4.1.311.10.3.3",
};
const NS = { sslClient: 0x80, sslServer: 0x40, sslCa: 0x04, anyCa: 0x07 };

/** What chain building and checking needs of a certificate, read once from its DER. */
interface ChainCert {
  der: Uint8Array;
  info: CertificateInfo;
  tbs: Uint8Array;
  algOid: string;
  sig: Uint8Array;
  serial: string;
  issuerNameDer: Uint8Array;
  skid?: string;
  akid?: { keyid?: string; serial?: string; issuerNameDer?: Uint8Array };
  /** The first byte of keyUsage; undefined when the extension is absent. */
  keyUsage?: number;
  basic?: { ca: boolean; pathLen?: number };
  extKeyUsage?: string[];
  nsCertType?: number;
  unhandledCritical: boolean;
  trusted: boolean;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
/** The first byte of a BIT STRING's bits (after its unused-bits count). */
const firstBitByte = (v: Uint8Array) => (v.length > 1 ? (v[1] ?? 0) : 0);

function integerHex(content: Uint8Array): string {
  let i = 0;
  while (i < content.length - 1 && content[i] === 0) i++;
  return hex(content.subarray(i));
}

async function readChainCert(der: Uint8Array, trusted: boolean): Promise<ChainCert> {
  const info = await parseCertificate(der);
  const parts = signedParts(der, "Certificate");
  const tbs = seqChildren(parseDer(parts.tbs), "TBSCertificate", 6);
  const off = tbs[0]?.tagClass === "context" && tbs[0].tagNumber === 0 ? 1 : 0;
  const issuerNode = tbs[off + 2];
  const c: ChainCert = {
    der,
    info,
    ...parts,
    serial: integerHex(tbs[off]?.content ?? new Uint8Array()),
    issuerNameDer: issuerNode ? nodeBytes(parts.tbs, issuerNode) : new Uint8Array(),
    unhandledCritical: false,
    trusted,
  };
  const wrapper = tbs.slice(off + 6).find((n) => n.tagClass === "context" && n.tagNumber === 3);
  for (const ext of wrapper ? seqChildren(wrapper.children[0], "Extensions") : []) {
    const extOid = readOid(ext.children[0], "extension id");
    const critical = ext.children.length === 3 && ext.children[1]?.content[0] !== 0;
    const value = ext.children[ext.children.length - 1]?.content ?? new Uint8Array();
    if (critical && !HANDLED_EXTENSIONS.has(extOid)) c.unhandledCritical = true;
    const v = parseDer(value);
    switch (extOid) {
      case "2.5.29.14":
        c.skid = hex(v.content);
        break;
      case "2.5.29.35": {
        const keyid = v.children.find((n) => n.tagClass === "context" && n.tagNumber === 0);
        const names = v.children.find((n) => n.tagClass === "context" && n.tagNumber === 1);
        const serial = v.children.find((n) => n.tagClass === "context" && n.tagNumber === 2);
        const dirName = names?.children.find((n) => n.tagClass === "context" && n.tagNumber === 4);
        const inner = dirName?.children[0];
        c.akid = {
          keyid: keyid ? hex(keyid.content) : undefined,
          serial: serial ? integerHex(serial.content) : undefined,
          issuerNameDer: inner ? nodeBytes(value, inner) : undefined,
        };
        break;
      }
      case "2.5.29.15":
        c.keyUsage = firstBitByte(v.content);
        break;
      case "2.5.29.19": {
        const ca = v.children[0]?.tagNumber === 1 && v.children[0].content[0] !== 0;
        const len = v.children.find((n) => n.tagNumber === 2);
        c.basic = { ca, pathLen: len ? Number.parseInt(hex(len.content) || "0", 16) : undefined };
        break;
      }
      case "2.5.29.37":
        c.extKeyUsage = v.children.map((n) => readOid(n, "extended key usage"));
        break;
      case "2.16.840.1.113730.1.1":
        c.nsCertType = firstBitByte(v.content);
        break;
    }
  }
  return c;
}

/** The key type a signature algorithm needs, to match an issuer's key before its signature is tried. */
function sigAlgKeyKind(algOid: string): PublicKeyData["kind"] | undefined {
  if (Object.values(RSA_SIG_OIDS).includes(algOid)) return "rsa";
  if (Object.values(ECDSA_SIG_OIDS).includes(algOid)) return "ec";
  if (Object.values(DSA_SIG_OIDS).includes(algOid)) return "dsa";
  if (algOid === ED25519) return "ed25519";
  if (algOid === OID.ed448) return "ed448";
  return undefined;
}

/**
 * Whether `issuer` may have issued `subject`, before any signature is checked (OpenSSL's
 * ossl_x509_likely_issued): the names chain, the authority key identifier (key id, serial number and
 * issuer name, when present) matches the issuer, and the signature algorithm fits the issuer's key.
 */
function likelyIssued(issuer: ChainCert, subject: ChainCert): boolean {
  if (issuer.info.subject !== subject.info.issuer) return false;
  const akid = subject.akid;
  if (akid) {
    if (akid.keyid !== undefined && issuer.skid !== undefined && akid.keyid !== issuer.skid) return false;
    if (akid.serial !== undefined && akid.serial !== issuer.serial) return false;
    if (akid.issuerNameDer && !sameBytes(akid.issuerNameDer, issuer.issuerNameDer)) return false;
  }
  const kind = sigAlgKeyKind(subject.algOid);
  return kind === undefined || kind === issuer.info.publicKey.key.kind;
}

const selfSigned = (c: ChainCert) => likelyIssued(c, c);
const selfIssued = (c: ChainCert) => c.info.subject === c.info.issuer;
const timeValid = (c: ChainCert, at: Date) => validityStatus(c.info, at) === "valid";

/** Among the certificates that may have issued `x`, one valid at `at`, else the one that expired last. */
function findIssuer(candidates: ChainCert[], x: ChainCert, at: Date): ChainCert | undefined {
  let best: ChainCert | undefined;
  for (const c of candidates) {
    if (!likelyIssued(c, x)) continue;
    if (timeValid(c, at)) return c;
    if (!best || Date.parse(c.info.notAfter) > Date.parse(best.info.notAfter)) best = c;
  }
  return best;
}

/**
 * Whether a certificate may sign others, as OpenSSL's X509_check_ca: 0 not a CA; 1 basicConstraints
 * CA:TRUE; 3 a v1 self-signed root, 4 keyUsage keyCertSign without basicConstraints, 5 a Netscape CA
 * type (the last three are accepted only at the top of the chain). keyUsage, when present, must
 * include keyCertSign.
 */
function checkCa(c: ChainCert): number {
  if (c.keyUsage !== undefined && !(c.keyUsage & KU_BITS.keyCertSign)) return 0;
  if (c.basic) return c.basic.ca ? 1 : 0;
  if (c.info.version === 1 && selfSigned(c)) return 3;
  if (c.keyUsage !== undefined) return 4;
  if (c.nsCertType !== undefined && c.nsCertType & NS.anyCa) return 5;
  return 0;
}

/** X509_check_purpose for the TLS purposes: 1 fits, 0 does not, 3-5 a CA accepted as openssl does. */
function checkPurpose(c: ChainCert, purpose: Exclude<ChainPurpose, "any">, asCa: boolean): number {
  const server = purpose === "sslserver";
  const ekus = server ? [EKU.serverAuth, EKU.nsSgc, EKU.msSgc] : [EKU.clientAuth];
  if (c.extKeyUsage && !c.extKeyUsage.some((o) => ekus.includes(o))) return 0;
  if (asCa) {
    const ca = checkCa(c);
    if (ca === 0) return 0;
    return ca !== 5 || (c.nsCertType ?? 0) & NS.sslCa ? ca : 0;
  }
  if (c.nsCertType !== undefined && !(c.nsCertType & (server ? NS.sslServer : NS.sslClient))) return 0;
  const ku = server
    ? KU_BITS.digitalSignature | KU_BITS.keyEncipherment | KU_BITS.keyAgreement
    : KU_BITS.digitalSignature | KU_BITS.keyAgreement;
  if (c.keyUsage !== undefined && !(c.keyUsage & ku)) return 0;
  return 1;
}

/**
 * Builds the path from the leaf (the first certificate) as OpenSSL 3's X509_verify_cert does with its
 * defaults (trusted first): at each step an issuer among the trusted certificates is preferred, then
 * one among the rest of the chain (in any order). The path is trusted only when it reaches a
 * self-signed trusted certificate; a self-signed certificate from the chain itself is never trusted,
 * whatever its name, and a self-signed leaf is trusted only when the very same certificate is given as
 * trusted. Returns the path, how many of its certificates came from the chain, and whether it is
 * trusted.
 */
function buildPath(
  leaf: ChainCert,
  pool: ChainCert[],
  store: ChainCert[],
  at: Date,
): { path: ChainCert[]; untrusted: number; trusted: boolean } {
  const path = [leaf];
  let untrusted = 1;
  let searchTrusted = true;
  let searchUntrusted = pool.length > 0;
  const top = () => path[path.length - 1] as ChainCert;
  while ((searchTrusted || searchUntrusted) && path.length <= pool.length + store.length + 1) {
    if (searchTrusted) {
      const x = top();
      const issuer = findIssuer(store, x, at);
      let ok = issuer !== undefined;
      if (issuer) {
        const ss = selfSigned(x);
        if (!ss) path.push(issuer);
        else if (path.length === untrusted) {
          // A self-signed certificate from the chain stands for a trusted one only if it is the same
          // certificate: a look-alike with the trusted root's name and a key of its own is refused.
          if (sameBytes(x.der, issuer.der)) {
            path[path.length - 1] = issuer;
            untrusted--;
          } else ok = false;
        }
        if (ok) {
          searchUntrusted = false;
          if (path.slice(untrusted).some(selfSigned)) return { path, untrusted, trusted: true };
          if (!ss) continue;
        }
      }
      if (!searchUntrusted) break;
    }
    if (searchUntrusted) {
      const x = top();
      const issuer = selfSigned(x)
        ? undefined
        : findIssuer(
            pool.filter((c) => !path.includes(c)),
            x,
            at,
          );
      if (!issuer) {
        searchUntrusted = false;
        searchTrusted = true;
        continue;
      }
      path.push(issuer);
      untrusted++;
    }
  }
  return { path, untrusted, trusted: false };
}

/**
 * Checks a chain given leaf first (as servers send it, or as `openssl verify -untrusted chain.pem
 * leaf.pem` takes it) against trusted root certificates, as OpenSSL 3's `openssl verify -CAfile
 * roots.pem` does with its defaults, at the time `at` (its `-attime`):
 * - the path from the leaf must reach one of the trusted certificates, matched by name (and key
 *   identifier) and verified by its key, and that certificate must be self-signed; a self-signed
 *   certificate inside the chain is refused (error 19), even one named as a trusted root;
 * - with no trusted certificates the verdict is "no trust anchor", never verified;
 * - every signature on the path, every validity period at `at`, every issuer a CA (basicConstraints
 *   CA:TRUE, keyUsage keyCertSign), path length constraints, no unknown critical extension, and with
 *   `purpose` the TLS server or client purpose of every certificate.
 * Not checked: revocation, name constraints and certificate policies.
 */
export async function verifyChain(
  chainDer: Uint8Array[],
  at: Date,
  anchors: Uint8Array[] = [],
  options: ChainOptions = {},
): Promise<ChainResult> {
  if (chainDer.length === 0) fail("INVALID_PARAMETER", "Paste at least one certificate");
  if (Number.isNaN(at.getTime())) fail("INVALID_PARAMETER", "The time to verify at is not a valid date");
  const given = await Promise.all(chainDer.map((d) => readChainCert(d, false)));
  const store = await Promise.all(anchors.map((d) => readChainCert(d, true)));
  const [leaf, ...pool] = given as [ChainCert, ...ChainCert[]];
  const { path, untrusted, trusted } = buildPath(leaf, pool, store, at);
  const purpose = options.purpose ?? "any";
  const errors: ChainError[] = [];
  const problems: string[] = [];
  const name = (d: number) => {
    const c = path[d];
    return `Certificate ${d + 1} (${c?.info.subject || "no subject"})`;
  };
  const report = (code: number, depth: number, words: string) => {
    const reason = REASONS[code] ?? "verification error";
    errors.push({ code, depth, reason });
    problems.push(`${words} (openssl verify: error ${code} at depth ${depth}, ${reason})`);
  };

  // Trust, as the path ends.
  const n = path.length;
  const last = path[n - 1] as ChainCert;
  if (!trusted) {
    const d = n - 1;
    if (selfSigned(last) && n === 1) {
      report(
        18,
        d,
        store.length
          ? `${name(d)} is self-signed and is not one of the trusted certificates`
          : `${name(d)} is self-signed, and no trusted certificate was given to compare it with`,
      );
    } else if (selfSigned(last)) {
      report(
        19,
        d,
        `${name(d)} is a self-signed root from the chain itself, not one of the trusted certificates: the chain does not reach a trusted root`,
      );
    } else if (untrusted < n) {
      report(
        2,
        d,
        `${name(d)} is a trusted certificate but not self-signed, and the root that issued it (${last.info.issuer}) is not among the trusted certificates`,
      );
    } else {
      report(
        20,
        d,
        `${name(d)}: its issuer (${last.info.issuer || "no issuer"}) is neither in the chain nor among the trusted certificates`,
      );
    }
  }

  // Extensions, CA flags, purpose and path length, from the leaf up.
  let pathLength = 0;
  for (let d = 0; d < n; d++) {
    const c = path[d] as ChainCert;
    if (c.unhandledCritical) {
      report(34, d, `${name(d)} has a critical extension that is not understood`);
    }
    if (d > 0) {
      const ca = checkCa(c);
      if (ca === 0 || (d + 1 < n && ca !== 1)) {
        report(
          79,
          d,
          `${name(d)} is not a CA certificate (no basicConstraints CA:TRUE, or keyUsage without keyCertSign), so it may not sign certificates`,
        );
      }
    }
    if (purpose !== "any" && checkPurpose(c, purpose, d > 0) === 0) {
      const what = purpose === "sslserver" ? "a TLS server" : "a TLS client";
      report(
        26,
        d,
        d === 0
          ? `${name(d)} is not for ${what} (its extended key usage, key usage or Netscape type leaves it out)`
          : `${name(d)} may not issue certificates for ${what} (its extended key usage leaves it out)`,
      );
    }
    const limit = c.basic?.pathLen;
    if (d > 1 && limit !== undefined && pathLength > limit) {
      report(
        25,
        d,
        `${name(d)} allows ${limit} intermediate certificate${limit === 1 ? "" : "s"} below it (pathlen:${limit}), and ${pathLength} follow`,
      );
    }
    if (d > 0 && !selfIssued(c)) pathLength++;
  }

  // Signatures, key usage of each issuer and validity periods, from the top down.
  const signatureValid: boolean[] = new Array(n).fill(false);
  const verifies = (issuer: ChainCert, c: ChainCert) =>
    verifyBy(c.algOid, issuer.info.publicKey.key, c.tbs, c.sig).catch(() => false);
  let d = n - 1;
  let issuer = last;
  let subject: ChainCert | undefined = last;
  if (likelyIssued(last, last)) {
    signatureValid[d] = await verifies(last, last);
  } else if (d === 0 && trusted) {
    report(21, 0, `${name(0)}: its signature cannot be checked without its issuer`);
  } else {
    d--;
    subject = path[d];
  }
  const when = at.toISOString().replace(".000Z", "Z");
  while (d >= 0 && subject) {
    if (subject !== issuer) {
      if (issuer.keyUsage !== undefined && !(issuer.keyUsage & KU_BITS.keyCertSign)) {
        report(32, d + 1, `${name(d + 1)}: its keyUsage does not include keyCertSign`);
      }
      signatureValid[d] = await verifies(issuer, subject);
      if (!signatureValid[d]) {
        report(7, d, `${name(d)}: the signature does not verify with its issuer's key`);
      }
    }
    const status = validityStatus(subject.info, at);
    if (status === "not yet valid") {
      report(9, d, `${name(d)} is not yet valid at ${when} (valid from ${subject.info.notBefore})`);
    } else if (status === "expired") {
      report(10, d, `${name(d)} has expired at ${when} (valid until ${subject.info.notAfter})`);
    } else if (status === "unknown") {
      report(13, d, `${name(d)} has a validity period that cannot be read`);
    }
    d--;
    issuer = subject;
    subject = path[d];
  }

  const links = path.map(
    (c, i): ChainLink => ({
      subject: c.info.subject,
      issuer: c.info.issuer,
      notBefore: c.info.notBefore,
      notAfter: c.info.notAfter,
      status: validityStatus(c.info, at),
      signatureValid: signatureValid[i] ?? false,
      issuerMatches: c.info.issuer === (path[i + 1] ?? c).info.subject,
      selfSigned: selfSigned(c),
      trusted: c.trusted,
    }),
  );
  const verdict = store.length === 0 ? "no trust anchor" : errors.length ? "failed" : "verified";
  if (store.length === 0) {
    problems.unshift(
      "No trusted root certificate was given: without one, nothing can be verified (a chain can always end in a self-signed certificate its sender made)",
    );
  }
  return {
    verdict,
    valid: verdict === "verified",
    at: at.toISOString(),
    links,
    // A chain's copy of the trusted root that was used in its place is not "unused".
    unused: pool
      .filter((c) => !path.includes(c) && !path.some((p) => sameBytes(p.der, c.der)))
      .map((c) => c.info.subject || "(no subject)"),
    errors,
    problems,
  };
}
