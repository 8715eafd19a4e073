import { type Asn1Tree, asn1Tree, type DerNode, parseDer } from "./asn1";
import { findDhGroup } from "./dh-groups";
import { bitLength, bytesToBase64, bytesToHex } from "./encoding";
import { type CryptoErrorCode, CryptoInputError } from "./errors";
import {
  type DerFormat,
  detectFormat,
  isKnownLabel,
  type KeyInput,
  loadPrivateKey,
  readInput,
} from "./keyio";
import {
  decodeDsaTraditional,
  decodePkcs8,
  decodeRsaPrivatePkcs1,
  decodeRsaPublicPkcs1,
  decodeSec1,
  decodeSpki,
  KEY_KIND_NAMES,
  type KeyKind,
  keyBits,
  type PrivateKeyData,
  type PublicKeyData,
} from "./keys";
import { describeLegacyPem, isLegacyEncrypted } from "./legacy-pem";
import { oidName } from "./oids";
import { decryptPkcs8, describeEncryptedPkcs8, type EncryptionInfo } from "./pkcs8-encryption";
import { type CertificateInfo, type CsrInfo, parseCertificate, parseCsr } from "./x509";
import { verifyCsrSignature } from "./x509-create";

export interface KeySummary {
  kind: KeyKind;
  /** "RSA", "EC", "Ed25519", "X25519", "DSA", "DH". */
  type: string;
  isPrivate: boolean;
  bits: number;
  rsa?: { modulusBits: number; publicExponent: string; pss: boolean };
  ec?: { curve: string };
  dsa?: { pBits: number; qBits: number };
  dh?: { pBits: number; qBits?: number; group?: string; encoding: "PKCS#3" | "X9.42" };
}

export interface Inspection {
  label?: string;
  format: DerFormat;
  byteLength: number;
  key?: KeySummary;
  encryption?: EncryptionInfo;
  certificate?: CertificateInfo;
  csr?: CsrInfo;
  /**
   * Whether a request's self-signature verifies with the key it carries (`openssl req -verify`);
   * undefined when its signature algorithm is not one this library verifies.
   */
  csrSignatureValid?: boolean;
  /** DSA domain parameters. */
  dsaParameters?: { pBits: number; qBits: number };
  asn1?: Asn1Tree;
  /** Set when this block could be read as ASN.1 but not as the format its label names. */
  error?: { code: CryptoErrorCode; message: string };
}

export function summarizeKey(k: PrivateKeyData | PublicKeyData): KeySummary {
  const isPrivate = "d" in k || "x" in k || "seed" in k || "secret" in k;
  const base = { kind: k.kind, type: KEY_KIND_NAMES[k.kind], isPrivate, bits: keyBits(k) };
  switch (k.kind) {
    case "rsa":
      return {
        ...base,
        rsa: { modulusBits: bitLength(k.n), publicExponent: k.e.toString(), pss: k.pss === true },
      };
    case "ec":
      return { ...base, ec: { curve: k.curve } };
    case "dsa":
      return { ...base, dsa: { pBits: bitLength(k.params.p), qBits: bitLength(k.params.q) } };
    case "dh": {
      const group = findDhGroup(k.params.p, k.params.g);
      const dh: NonNullable<KeySummary["dh"]> = {
        pBits: bitLength(k.params.p),
        encoding: k.params.encoding === "x942" ? "X9.42" : "PKCS#3",
      };
      if (k.params.q !== undefined) dh.qBits = bitLength(k.params.q);
      if (group) dh.group = group;
      return { ...base, dh };
    }
    default:
      return base;
  }
}

function keyFromFormat(
  format: DerFormat,
  root: DerNode,
  der: Uint8Array,
): PrivateKeyData | PublicKeyData | undefined {
  switch (format) {
    case "PKCS#8":
      return decodePkcs8(root);
    case "SPKI":
      return decodeSpki(root);
    case "PKCS#1 private":
      return decodeRsaPrivatePkcs1(root);
    case "PKCS#1 public":
      return decodeRsaPublicPkcs1(der);
    case "SEC1":
      return decodeSec1(der);
    case "DSA private (OpenSSL traditional)":
      return decodeDsaTraditional(der);
    default:
      return undefined;
  }
}

export interface InspectOptions {
  /** Decrypts encrypted PKCS#8 to show its key. */
  passphrase?: string;
  /** Include the ASN.1 tree (default true). */
  tree?: boolean;
  maxNodes?: number;
  maxDepth?: number;
}

/** Maximum input accepted by the inspector (DER bytes per block). */
export const INSPECT_MAX_BYTES = 1024 * 1024;

/**
 * Inspects PEM text (every block), or DER given as bytes, base64 or hex: the format, key parameters,
 * certificate fields, and an ASN.1 tree. Errors in one block are reported in that block's `error`.
 */
export async function inspect(input: KeyInput, opts: InspectOptions = {}): Promise<Inspection[]> {
  const out: Inspection[] = [];
  for (const block of readInput(input)) {
    if (block.der.length > INSPECT_MAX_BYTES) {
      throw new CryptoInputError(
        "INPUT_TOO_LARGE",
        `Input too large: more than ${INSPECT_MAX_BYTES / 1024 / 1024} MiB of DER`,
      );
    }
    const result: Inspection = { format: "unknown", byteLength: block.der.length };
    if (block.label) result.label = block.label;
    if (isLegacyEncrypted(block.headers)) {
      // The body is ciphertext, not DER: describe the encryption and, given the passphrase, the key.
      result.format = "Legacy encrypted PEM";
      try {
        const { cipher } = describeLegacyPem(block.headers ?? {});
        result.encryption = {
          scheme: "OpenSSL legacy PEM encryption (Proc-Type: 4,ENCRYPTED)",
          kdf: "EVP_BytesToKey",
          prf: "MD5, 1 iteration",
          cipher,
        };
        if (opts.passphrase) {
          const text = `-----BEGIN ${block.label}-----\nProc-Type: ${block.headers?.["Proc-Type"]}\nDEK-Info: ${block.headers?.["DEK-Info"]}\n\n${bytesToBase64(block.der)}\n-----END ${block.label}-----\n`;
          result.key = summarizeKey(await loadPrivateKey(text, { passphrase: opts.passphrase }));
        }
      } catch (e) {
        if (!(e instanceof CryptoInputError)) throw e;
        result.error = { code: e.code, message: e.message };
      }
      out.push(result);
      continue;
    }
    let root: DerNode;
    try {
      root = parseDer(block.der, { allowTrailing: true });
    } catch (e) {
      if (!(e instanceof CryptoInputError)) throw e;
      // Text that is not PEM but happens to be valid base64 (a word such as "test") or hex: say that it is
      // not PEM first, and only then what its bytes are not, rather than show it as unrecognised DER.
      if (block.textEncoding) {
        throw new CryptoInputError(
          "MALFORMED_PEM",
          `Not PEM, and as ${block.textEncoding} it is not DER (${e.message.replace(/^Malformed DER: /, "")}): paste a block that starts with "-----BEGIN …-----", or DER as base64 or hex`,
          { cause: e },
        );
      }
      result.error = { code: e.code, message: e.message };
      out.push(result);
      continue;
    }
    result.format = detectFormat(root, block.label);
    if (block.label !== undefined && !isKnownLabel(block.label)) {
      result.error = {
        code: "MALFORMED_PEM",
        message: `Unknown PEM label "${block.label}": OpenSSL and the other tools here refuse it${result.format === "unknown" ? "" : `; the contents look like ${result.format}`}`,
      };
    }
    if (opts.tree !== false) {
      result.asn1 = asn1Tree(block.der, {
        oidName,
        ...(opts.maxNodes ? { maxNodes: opts.maxNodes } : {}),
        ...(opts.maxDepth ? { maxDepth: opts.maxDepth } : {}),
      });
    }
    try {
      if (result.format === "PKCS#10 certificate request") {
        result.csr = parseCsr(block.der);
        result.key = summarizeKey(result.csr.publicKey.key);
        const valid = await verifyCsrSignature(block.der, result.csr.publicKey.key).catch(() => undefined);
        if (valid !== undefined) result.csrSignatureValid = valid;
      } else if (result.format === "DSA parameters") {
        const [p, q] = root.children.map((n) => BigInt(`0x${bytesToHex(n.content) || "0"}`));
        result.dsaParameters = { pBits: bitLength(p ?? 0n), qBits: bitLength(q ?? 0n) };
      } else if (result.format === "X.509 certificate") {
        result.certificate = await parseCertificate(block.der);
        result.key = summarizeKey(result.certificate.publicKey.key);
      } else if (result.format === "Encrypted PKCS#8") {
        result.encryption = describeEncryptedPkcs8(block.der);
        if (opts.passphrase)
          result.key = summarizeKey(decodePkcs8(await decryptPkcs8(block.der, opts.passphrase)));
      } else {
        const key = keyFromFormat(result.format, root, block.der);
        if (key) result.key = summarizeKey(key);
      }
    } catch (e) {
      if (!(e instanceof CryptoInputError)) throw e;
      result.error = { code: e.code, message: e.message };
    }
    out.push(result);
  }
  return out;
}
