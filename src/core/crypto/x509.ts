import {
  contextChild,
  type DerNode,
  decodeOid,
  nodeBytes,
  parseDer,
  readBitString,
  readInt,
  readOid,
  seqChildren,
  TAG,
} from "./asn1";
import { bytesToHex, bytesToUtf8 } from "./encoding";
import { fail } from "./errors";
import { hash } from "./hash";
import { decodeSpki, keyBits, type PublicKeyData } from "./keys";
import { oidName } from "./oids";

/**
 * X.509 v1-v3 certificate parsing on the same asn1js-based DER tree as the keys (no @peculiar/x509: see
 * README). Shows; does not validate chains or signatures.
 */

export interface NameAttribute {
  oid: string;
  /** Short name (CN, O, …) or the dotted OID. */
  name: string;
  value: string;
}

export interface CertificateExtension {
  oid: string;
  name: string;
  critical: boolean;
  /** A one-line human summary of the value. */
  summary: string;
}

export interface SubjectAltName {
  type: "dns" | "ip" | "email" | "uri" | "dirName" | "registeredId" | "otherName";
  value: string;
}

export interface CertificateInfo {
  version: number;
  /** Serial number, hex, uppercase, colon-separated bytes (as OpenSSL prints it). */
  serial: string;
  serialDecimal: string;
  subject: string;
  subjectAttributes: NameAttribute[];
  issuer: string;
  issuerAttributes: NameAttribute[];
  selfIssued: boolean;
  notBefore: string;
  notAfter: string;
  signatureAlgorithm: string;
  publicKey: { type: string; bits: number; curve?: string; exponent?: string; key: PublicKeyData };
  subjectAltNames: SubjectAltName[];
  extensions: CertificateExtension[];
  fingerprints: { sha1: string; sha256: string };
}

const colonHex = (b: Uint8Array) => bytesToHex(b, ":").toUpperCase();

function readString(n: DerNode): string {
  if (n.tagClass !== "universal") return colonHex(n.content);
  if (n.tagNumber === TAG.BMP_STRING) {
    let s = "";
    for (let i = 0; i + 1 < n.content.length; i += 2) {
      s += String.fromCharCode(((n.content[i] ?? 0) << 8) | (n.content[i + 1] ?? 0));
    }
    return s;
  }
  if (n.tagNumber === TAG.T61_STRING) return Array.from(n.content, (b) => String.fromCharCode(b)).join("");
  return bytesToUtf8(n.content, false);
}

function parseName(n: DerNode | undefined): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const rdn of seqChildren(n, "Name")) {
    for (const atv of rdn.children) {
      const oid = readOid(atv.children[0], "attribute type");
      const v = atv.children[1];
      out.push({ oid, name: oidName(oid) ?? oid, value: v ? readString(v) : "" });
    }
  }
  return out;
}

function formatName(attrs: NameAttribute[]): string {
  return attrs.map((a) => `${a.name}=${a.value.replace(/([,+"\\<>;])/g, "\\$1")}`).join(", ");
}

function parseTime(n: DerNode | undefined): string {
  if (!n) fail("MALFORMED_DER", "Certificate validity is missing a time");
  const s = bytesToUtf8(n.content, false);
  const m =
    n.tagNumber === TAG.UTC_TIME
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(s)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?Z$/.exec(s);
  if (!m) return s;
  let year = Number(m[1]);
  if (n.tagNumber === TAG.UTC_TIME) year += year < 50 ? 2000 : 1900;
  return `${String(year).padStart(4, "0")}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}Z`;
}

function ipString(b: Uint8Array): string {
  if (b.length === 4) return Array.from(b).join(".");
  if (b.length === 16) {
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)).toString(16));
    // RFC 5952: the longest run (two or more) of zero groups becomes "::"
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8; ) {
      let j = i;
      while (j < 8 && groups[j] === "0") j++;
      if (j - i > bestLen) {
        best = i;
        bestLen = j - i;
      }
      i = j === i ? i + 1 : j;
    }
    if (best < 0) return groups.join(":");
    return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
  }
  return colonHex(b);
}

function generalName(n: DerNode): SubjectAltName {
  switch (n.tagNumber) {
    case 1:
      return { type: "email", value: bytesToUtf8(n.content, false) };
    case 2:
      return { type: "dns", value: bytesToUtf8(n.content, false) };
    case 6:
      return { type: "uri", value: bytesToUtf8(n.content, false) };
    case 7:
      return { type: "ip", value: ipString(n.content) };
    case 4:
      return { type: "dirName", value: formatName(parseName(n.children[0])) };
    case 8:
      return { type: "registeredId", value: decodeOid(n.content) };
    default: {
      const typeOid = n.children[0] ? decodeOid(n.children[0].content) : "?";
      return { type: "otherName", value: typeOid };
    }
  }
}

const KEY_USAGE = [
  "digitalSignature",
  "nonRepudiation",
  "keyEncipherment",
  "dataEncipherment",
  "keyAgreement",
  "keyCertSign",
  "cRLSign",
  "encipherOnly",
  "decipherOnly",
];

/** Every context [6] (URI) string under a node: for CRL distribution points and AIA. */
function uris(n: DerNode, out: string[] = []): string[] {
  if (n.tagClass === "context" && n.tagNumber === 6 && !n.constructed)
    out.push(bytesToUtf8(n.content, false));
  for (const c of n.children) uris(c, out);
  return out;
}

function summarizeExtension(oid: string, value: Uint8Array, sans: SubjectAltName[]): string {
  try {
    const v = parseDer(value);
    switch (oid) {
      case "2.5.29.19": {
        const c = v.children;
        const ca = c[0]?.tagNumber === TAG.BOOLEAN && c[0].content[0] !== 0;
        const path = c.find((x) => x.tagNumber === TAG.INTEGER);
        return `CA:${ca ? "TRUE" : "FALSE"}${path ? `, pathlen:${parseInt(bytesToHex(path.content), 16)}` : ""}`;
      }
      case "2.5.29.15": {
        const bits = v.content.subarray(1);
        const names = KEY_USAGE.filter((_, i) => ((bits[i >> 3] ?? 0) >> (7 - (i & 7))) & 1);
        return names.join(", ");
      }
      case "2.5.29.37":
        return v.children.map((c) => oidName(decodeOid(c.content)) ?? decodeOid(c.content)).join(", ");
      case "2.5.29.17":
      case "2.5.29.18": {
        const names = v.children.map(generalName);
        if (oid === "2.5.29.17") sans.push(...names);
        return names.map((s) => `${s.type.toUpperCase()}:${s.value}`).join(", ");
      }
      case "2.5.29.14":
        return colonHex(v.content);
      case "2.5.29.35": {
        const kid = contextChild(v.children, 0);
        return kid ? `keyid:${colonHex(kid.content)}` : "(no key identifier)";
      }
      case "2.5.29.31":
      case "1.3.6.1.5.5.7.1.1": {
        const list = uris(v);
        if (oid === "1.3.6.1.5.5.7.1.1") {
          return v.children
            .map(
              (ad) =>
                `${oidName(decodeOid(ad.children[0]?.content ?? new Uint8Array())) ?? "?"} - ${uris(ad).join(" ")}`,
            )
            .join(", ");
        }
        return list.join(", ");
      }
      case "2.5.29.32":
        return v.children
          .map((pi) => {
            const o = decodeOid(pi.children[0]?.content ?? new Uint8Array());
            return oidName(o) ? `${oidName(o)} (${o})` : o;
          })
          .join(", ");
      default:
        return value.length > 48
          ? `${colonHex(value.subarray(0, 48))}… (${value.length} bytes)`
          : colonHex(value);
    }
  } catch {
    return colonHex(value.subarray(0, 48));
  }
}

function publicKeySummary(key: PublicKeyData): CertificateInfo["publicKey"] {
  switch (key.kind) {
    case "rsa":
      return { type: key.pss ? "RSASSA-PSS" : "RSA", bits: keyBits(key), exponent: key.e.toString(), key };
    case "ec":
      return { type: "EC", bits: keyBits(key), curve: key.curve, key };
    case "ed25519":
      return { type: "Ed25519", bits: 256, key };
    case "x25519":
      return { type: "X25519", bits: 256, key };
    case "ed448":
      return { type: "Ed448", bits: 456, key };
    case "x448":
      return { type: "X448", bits: 448, key };
    case "dsa":
      return { type: "DSA", bits: keyBits(key), key };
    case "dh":
      return { type: "DH", bits: keyBits(key), key };
  }
}

export function isCertificateDer(root: DerNode): boolean {
  const c = root.children;
  return c.length === 3 && c[0]?.tagNumber === TAG.SEQUENCE && c[2]?.tagNumber === TAG.BIT_STRING;
}

export async function parseCertificate(der: Uint8Array): Promise<CertificateInfo> {
  const root = parseDer(der);
  const [tbsNode, sigAlgNode, sigNode] = seqChildren(root, "Certificate", 3);
  readBitString(sigNode, "signatureValue");
  const tbs = seqChildren(tbsNode, "TBSCertificate", 6);
  let i = 0;
  let version = 1;
  const first = tbs[0];
  if (first?.tagClass === "context" && first.tagNumber === 0) {
    version = Number(parseInt(bytesToHex(first.children[0]?.content ?? new Uint8Array([0])), 16)) + 1;
    i = 1;
  }
  const serialNode = tbs[i];
  if (!serialNode || serialNode.tagNumber !== TAG.INTEGER)
    fail("MALFORMED_DER", "Certificate serial number missing");
  const serialBytes = serialNode.content;
  const issuerAttributes = parseName(tbs[i + 2]);
  const validity = seqChildren(tbs[i + 3], "Validity", 2);
  const subjectAttributes = parseName(tbs[i + 4]);
  const spkiNode = tbs[i + 5];
  if (!spkiNode) fail("MALFORMED_DER", "Certificate public key missing");
  const key = decodeSpki(nodeBytes(der, spkiNode));
  const sigOid = readOid(seqChildren(sigAlgNode, "signatureAlgorithm", 1)[0], "signature algorithm");

  const extensions: CertificateExtension[] = [];
  const subjectAltNames: SubjectAltName[] = [];
  const extWrapper = contextChild(tbs.slice(i + 6), 3);
  if (extWrapper) {
    for (const ext of seqChildren(extWrapper.children[0], "Extensions")) {
      const oid = readOid(ext.children[0], "extension id");
      const critical = ext.children.length === 3 && ext.children[1]?.content[0] !== 0;
      const valueNode = ext.children[ext.children.length - 1];
      const value = valueNode?.content ?? new Uint8Array();
      extensions.push({
        oid,
        name: oidName(oid) ?? oid,
        critical,
        summary: summarizeExtension(oid, value, subjectAltNames),
      });
    }
  }

  const [sha1, sha256] = await Promise.all([hash("SHA-1", der), hash("SHA-256", der)]);
  const subject = formatName(subjectAttributes);
  const issuer = formatName(issuerAttributes);
  return {
    version,
    serial: colonHex(serialBytes[0] === 0 && serialBytes.length > 1 ? serialBytes.subarray(1) : serialBytes),
    serialDecimal: BigInt(`0x${bytesToHex(serialBytes) || "0"}`).toString(),
    subject,
    subjectAttributes,
    issuer,
    issuerAttributes,
    selfIssued: subject === issuer,
    notBefore: parseTime(validity[0]),
    notAfter: parseTime(validity[1]),
    signatureAlgorithm: oidName(sigOid) ?? sigOid,
    publicKey: publicKeySummary(key),
    subjectAltNames,
    extensions,
    fingerprints: { sha1: colonHex(sha1), sha256: colonHex(sha256) },
  };
}

// ---- PKCS#10 certificate requests (RFC 2986) -------------------------------------------------------

export interface CsrInfo {
  version: number;
  subject: string;
  subjectAttributes: NameAttribute[];
  signatureAlgorithm: string;
  publicKey: CertificateInfo["publicKey"];
  subjectAltNames: SubjectAltName[];
  /** Extensions asked for in the extensionRequest attribute. */
  extensions: CertificateExtension[];
  /** Other attributes by name (challengePassword is shown as present, never its value). */
  attributes: string[];
}

const EXTENSION_REQUEST = "1.2.840.113549.1.9.14";
const CHALLENGE_PASSWORD = "1.2.840.113549.1.9.7";

/** A CertificationRequest: SEQUENCE { SEQUENCE { INTEGER 0, Name, SPKI, [0] attributes }, AlgId, BIT STRING }. */
export function isCsrDer(root: DerNode): boolean {
  const [info, alg, sig] = root.children;
  if (root.children.length !== 3 || alg?.tagNumber !== TAG.SEQUENCE || sig?.tagNumber !== TAG.BIT_STRING)
    return false;
  const c = info?.children ?? [];
  const last = c[3];
  return (
    c.length === 4 &&
    c[0]?.tagNumber === TAG.INTEGER &&
    c[0].tagClass === "universal" &&
    c[1]?.tagNumber === TAG.SEQUENCE &&
    c[2]?.tagNumber === TAG.SEQUENCE &&
    last?.tagClass === "context" &&
    last.tagNumber === 0
  );
}

export function parseCsr(der: Uint8Array): CsrInfo {
  const root = parseDer(der);
  const [infoNode, sigAlgNode, sigNode] = seqChildren(root, "CertificationRequest", 3);
  readBitString(sigNode, "signature");
  const info = seqChildren(infoNode, "CertificationRequestInfo", 4);
  const version = Number(readInt(info[0], "version")) + 1;
  const subjectAttributes = parseName(info[1]);
  const spkiNode = info[2];
  if (!spkiNode) fail("MALFORMED_DER", "Certificate request public key missing");
  const key = decodeSpki(nodeBytes(der, spkiNode));
  const sigOid = readOid(seqChildren(sigAlgNode, "signatureAlgorithm", 1)[0], "signature algorithm");
  const extensions: CertificateExtension[] = [];
  const subjectAltNames: SubjectAltName[] = [];
  const attributes: string[] = [];
  for (const attr of info[3]?.children ?? []) {
    const oid = readOid(attr.children[0], "attribute type");
    if (oid === EXTENSION_REQUEST) {
      const set = attr.children[1];
      for (const ext of seqChildren(set?.children[0], "Extensions")) {
        const extOid = readOid(ext.children[0], "extension id");
        const critical = ext.children.length === 3 && ext.children[1]?.content[0] !== 0;
        const value = ext.children[ext.children.length - 1]?.content ?? new Uint8Array();
        extensions.push({
          oid: extOid,
          name: oidName(extOid) ?? extOid,
          critical,
          summary: summarizeExtension(extOid, value, subjectAltNames),
        });
      }
    } else {
      attributes.push(oid === CHALLENGE_PASSWORD ? "challengePassword (present)" : (oidName(oid) ?? oid));
    }
  }
  return {
    version,
    subject: formatName(subjectAttributes),
    subjectAttributes,
    signatureAlgorithm: oidName(sigOid) ?? sigOid,
    publicKey: publicKeySummary(key),
    subjectAltNames,
    extensions,
    attributes,
  };
}

/** Whether a certificate is in its validity period at `now` (ISO times as `parseCertificate` gives them). */
export function validityStatus(
  cert: Pick<CertificateInfo, "notBefore" | "notAfter">,
  now: Date,
): "valid" | "expired" | "not yet valid" | "unknown" {
  const from = Date.parse(cert.notBefore);
  const until = Date.parse(cert.notAfter);
  if (Number.isNaN(from) || Number.isNaN(until)) return "unknown";
  const t = now.getTime();
  if (t < from) return "not yet valid";
  if (t > until) return "expired";
  return "valid";
}
