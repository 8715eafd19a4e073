/**
 * Making and checking X.509: PKCS#10 requests (`openssl req -new`), self-signed certificates
 * (`openssl req -x509`), the signature on a request, and a certificate chain (each certificate signed by
 * the next, names chained, each in its validity period; the last one self-signed or given as the anchor).
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

export interface ChainLink {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  status: ReturnType<typeof validityStatus>;
  /** Whether the next certificate's key (or its own, for the last) verifies this one's signature. */
  signatureValid: boolean;
  /** Issuer name equals the next certificate's subject. */
  issuerMatches: boolean;
  selfSigned: boolean;
}

export interface ChainResult {
  /** Every signature and name checks, all in their validity period, ending at a trusted anchor. */
  valid: boolean;
  links: ChainLink[];
  /** What makes it invalid, in words; empty when valid. */
  problems: string[];
}

/**
 * Whether a certificate may sign others, as OpenSSL 3's `openssl verify` checks each issuer
 * (X509_check_ca): keyUsage, when present, must include keyCertSign; basicConstraints, when present,
 * must say CA:TRUE. Without basicConstraints only a root passes (the chain's self-signed end or a
 * trusted certificate): a v1 self-issued one, or one whose keyUsage allows certificate signing.
 */
function mayIssue(c: CertificateInfo, root: boolean): boolean {
  const ext = (oid: string) => c.extensions.find((e) => e.oid === oid);
  const keyUsage = ext("2.5.29.15");
  if (keyUsage && !keyUsage.summary.split(", ").includes("keyCertSign")) return false;
  const basic = ext("2.5.29.19");
  if (basic) return basic.summary.startsWith("CA:TRUE");
  return root && ((c.version === 1 && c.selfIssued) || keyUsage !== undefined);
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

/**
 * Checks a chain given leaf first (as servers send it). The last certificate must be self-signed, or
 * `anchors` must hold the certificate that signed it; every issuer must be a CA certificate
 * ({@link mayIssue}). Not checked: revocation, name constraints, extended key usage and path length
 * (use `openssl verify` for a full RFC 5280 path validation).
 */
export async function verifyChain(
  chainDer: Uint8Array[],
  now: Date,
  anchors: Uint8Array[] = [],
): Promise<ChainResult> {
  if (chainDer.length === 0) fail("INVALID_PARAMETER", "Paste at least one certificate");
  const certs = await Promise.all(chainDer.map((d) => parseCertificate(d)));
  const anchorCerts = await Promise.all(anchors.map((d) => parseCertificate(d)));
  const links: ChainLink[] = [];
  const problems: string[] = [];
  for (let i = 0; i < certs.length; i++) {
    const cert = certs[i];
    const der = chainDer[i];
    if (!cert || !der) continue;
    const parts = signedParts(der, "Certificate");
    let issuerCert = certs[i + 1];
    // The issuer is the root when it ends the chain self-issued, or is a trusted certificate.
    let issuerIsRoot = i + 2 === certs.length && issuerCert?.subject === issuerCert?.issuer;
    if (!issuerCert) {
      const anchor = anchorCerts.find((a) => a.subject === cert.issuer);
      issuerIsRoot = anchor !== undefined;
      issuerCert = anchor ?? (cert.subject === cert.issuer ? cert : undefined);
    }
    const selfSigned =
      cert.subject === cert.issuer &&
      (await verifyBy(parts.algOid, cert.publicKey.key, parts.tbs, parts.sig).catch(() => false));
    const signatureValid = issuerCert
      ? await verifyBy(parts.algOid, issuerCert.publicKey.key, parts.tbs, parts.sig).catch(() => false)
      : false;
    const status = validityStatus(cert, now);
    const issuerMatches = issuerCert ? issuerCert.subject === cert.issuer : false;
    links.push({
      subject: cert.subject,
      issuer: cert.issuer,
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      status,
      signatureValid,
      issuerMatches,
      selfSigned,
    });
    const n = `Certificate ${i + 1} (${cert.subject || "no subject"})`;
    if (status !== "valid") problems.push(`${n} is ${status === "unknown" ? "of unknown validity" : status}`);
    if (!issuerCert)
      problems.push(`${n}: its issuer (${cert.issuer}) is not in the chain or the trusted certificates`);
    else if (!issuerMatches) problems.push(`${n}: the next certificate is not its issuer (names differ)`);
    else if (!signatureValid) problems.push(`${n}: the signature does not verify with its issuer's key`);
    else if (issuerCert !== cert && !mayIssue(issuerCert, issuerIsRoot)) {
      problems.push(
        `${n}: its issuer (${issuerCert.subject || "no subject"}) is not a CA certificate (no basicConstraints CA:TRUE, or keyUsage without keyCertSign), so it may not sign certificates`,
      );
    }
  }
  for (const a of anchorCerts) {
    const st = validityStatus(a, now);
    if (st !== "valid") problems.push(`Trusted certificate ${a.subject} is ${st}`);
  }
  return { valid: problems.length === 0, links, problems };
}
