import * as asn1js from "asn1js";
import { bigintToBytes, bytesToBigint, bytesToHex, bytesToUtf8 } from "./encoding";
import { fail } from "./errors";

/**
 * DER glue over asn1js: asn1js does the BER parsing and the encoding; this module turns its objects into a
 * small plain tree (`DerNode`) that the key codecs navigate and the inspector shows.
 */

export type TagClass = "universal" | "application" | "context" | "private";
const TAG_CLASSES: Record<number, TagClass> = {
  1: "universal",
  2: "application",
  3: "context",
  4: "private",
};

export interface DerNode {
  tagClass: TagClass;
  tagNumber: number;
  constructed: boolean;
  /** Offset of the tag byte within the input. */
  offset: number;
  headerLength: number;
  /** Content length (for indefinite length, the length up to the end-of-contents marker). */
  length: number;
  indefinite: boolean;
  /** The content octets (for constructed nodes, the encoded children). */
  content: Uint8Array;
  children: DerNode[];
}

type AnyBlock = asn1js.AsnType & {
  idBlock: { tagClass: number; tagNumber: number; isConstructed: boolean; blockLength: number };
  lenBlock: { length: number; blockLength: number; isIndefiniteForm: boolean };
  valueBeforeDecodeView: Uint8Array;
  valueBlock: { value?: unknown };
  blockLength: number;
};

function convert(block: AnyBlock, offset: number, depth: number, maxDepth: number): DerNode {
  if (depth > maxDepth) fail("MALFORMED_DER", `ASN.1 nesting deeper than ${maxDepth} levels`);
  const headerLength = block.idBlock.blockLength + block.lenBlock.blockLength;
  const raw = block.valueBeforeDecodeView;
  const indefinite = block.lenBlock.isIndefiniteForm;
  const length = indefinite ? block.blockLength - headerLength : block.lenBlock.length;
  const node: DerNode = {
    tagClass: TAG_CLASSES[block.idBlock.tagClass] ?? "universal",
    tagNumber: block.idBlock.tagNumber,
    constructed: block.idBlock.isConstructed,
    offset,
    headerLength,
    length,
    indefinite,
    content: raw.subarray(headerLength, headerLength + length),
    children: [],
  };
  if (node.constructed && Array.isArray(block.valueBlock.value)) {
    let childOffset = offset + headerLength;
    for (const child of block.valueBlock.value as AnyBlock[]) {
      // asn1js represents the end-of-contents marker of indefinite forms as a child; skip it
      if (child.idBlock.tagClass === 1 && child.idBlock.tagNumber === 0 && child.blockLength <= 2) {
        childOffset += child.blockLength;
        continue;
      }
      node.children.push(convert(child, childOffset, depth + 1, maxDepth));
      childOffset += child.blockLength;
    }
  }
  return node;
}

export interface ParseDerOptions {
  /** Allow bytes after the first element (default false). */
  allowTrailing?: boolean;
  maxDepth?: number;
}

/** Parses one BER/DER element; `MALFORMED_DER` if the bytes are not ASN.1. */
export function parseDer(der: Uint8Array, opts: ParseDerOptions = {}): DerNode {
  if (der.length === 0) fail("MALFORMED_DER", "Malformed DER: the input is empty");
  const { offset, result } = asn1js.fromBER(der);
  if (offset === -1 || result.error) {
    fail("MALFORMED_DER", `Malformed DER: ${result.error || "cannot decode"}`);
  }
  if (!opts.allowTrailing && offset !== der.length) {
    fail(
      "MALFORMED_DER",
      `Malformed DER: ${der.length - offset} unexpected bytes after the end at offset ${offset}`,
    );
  }
  return convert(result as unknown as AnyBlock, 0, 0, opts.maxDepth ?? 64);
}

// ---- universal tag numbers -------------------------------------------------------------------------
export const TAG = {
  BOOLEAN: 1,
  INTEGER: 2,
  BIT_STRING: 3,
  OCTET_STRING: 4,
  NULL: 5,
  OID: 6,
  UTF8_STRING: 12,
  SEQUENCE: 16,
  SET: 17,
  PRINTABLE_STRING: 19,
  T61_STRING: 20,
  IA5_STRING: 22,
  UTC_TIME: 23,
  GENERALIZED_TIME: 24,
  BMP_STRING: 30,
} as const;

function tagDescription(n: DerNode): string {
  return n.tagClass === "universal"
    ? (UNIVERSAL_NAMES[n.tagNumber] ?? `[UNIVERSAL ${n.tagNumber}]`)
    : `[${n.tagNumber}]`;
}

export function expectTag(node: DerNode | undefined, tagNumber: number, what: string): DerNode {
  if (!node) fail("MALFORMED_KEY", `Malformed structure: ${what} is missing`);
  if (node.tagClass !== "universal" || node.tagNumber !== tagNumber) {
    fail(
      "MALFORMED_KEY",
      `Malformed structure: ${what} should be ${UNIVERSAL_NAMES[tagNumber] ?? tagNumber}, found ${tagDescription(node)}`,
    );
  }
  return node;
}

export function seqChildren(node: DerNode | undefined, what: string, min = 0): DerNode[] {
  const s = expectTag(node, TAG.SEQUENCE, what);
  if (s.children.length < min) fail("MALFORMED_KEY", `Malformed structure: ${what} has too few elements`);
  return s.children;
}

export function readInt(node: DerNode | undefined, what: string): bigint {
  const n = expectTag(node, TAG.INTEGER, what);
  if (n.content.length === 0) fail("MALFORMED_KEY", `Malformed structure: ${what} is an empty INTEGER`);
  if ((n.content[0] ?? 0) & 0x80) fail("MALFORMED_KEY", `Malformed structure: ${what} is negative`);
  return bytesToBigint(n.content);
}

export function readSmallInt(node: DerNode | undefined, what: string): number {
  return Number(readInt(node, what));
}

export function readOid(node: DerNode | undefined, what: string): string {
  return decodeOid(expectTag(node, TAG.OID, what).content);
}

export function readOctets(node: DerNode | undefined, what: string): Uint8Array {
  return expectTag(node, TAG.OCTET_STRING, what).content;
}

export function readBitString(node: DerNode | undefined, what: string): Uint8Array {
  const n = expectTag(node, TAG.BIT_STRING, what);
  if (n.content.length === 0 || n.content[0] !== 0) {
    fail("MALFORMED_KEY", `Malformed structure: ${what} is not a whole number of bytes`);
  }
  return n.content.subarray(1);
}

export function contextChild(children: DerNode[], tagNumber: number): DerNode | undefined {
  return children.find((c) => c.tagClass === "context" && c.tagNumber === tagNumber);
}

export function decodeOid(content: Uint8Array): string {
  const parts: bigint[] = [];
  let v = 0n;
  for (const b of content) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0n;
    }
  }
  if (parts.length === 0) return "";
  const first = parts[0] ?? 0n;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...parts.slice(1)].join(".");
}

// ---- building (asn1js encodes) -------------------------------------------------------------------
export type Asn1 = asn1js.AsnType;

export function encode(node: Asn1): Uint8Array {
  return new Uint8Array(node.toBER(false));
}

export function seq(...value: Asn1[]): Asn1 {
  return new asn1js.Sequence({ value });
}

export function int(value: bigint | number): Asn1 {
  const v = BigInt(value);
  let bytes = bigintToBytes(v);
  if (bytes.length === 0) bytes = new Uint8Array([0]);
  if ((bytes[0] ?? 0) & 0x80) {
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes, 1);
    bytes = padded;
  }
  return new asn1js.Integer({ valueHex: bytes });
}

export function oid(value: string): Asn1 {
  return new asn1js.ObjectIdentifier({ value });
}

export function octets(bytes: Uint8Array): Asn1 {
  return new asn1js.OctetString({ valueHex: bytes });
}

export function bitString(bytes: Uint8Array): Asn1 {
  return new asn1js.BitString({ valueHex: bytes, unusedBits: 0 });
}

export function nul(): Asn1 {
  return new asn1js.Null();
}

/** A context-specific tag: explicit wraps `inner`; implicit re-tags a primitive's content. */
export function explicit(tagNumber: number, inner: Asn1): Asn1 {
  return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber }, value: [inner] });
}

/** Inserts already-encoded DER (e.g. a parameters element kept from a parsed key). */
export function raw(der: Uint8Array): Asn1 {
  const { offset, result } = asn1js.fromBER(der);
  if (offset === -1) fail("MALFORMED_DER", "Malformed DER in an embedded element");
  return result;
}

/** The bytes of a node, header included. */
export function nodeBytes(source: Uint8Array, n: DerNode): Uint8Array {
  return source.subarray(n.offset, n.offset + n.headerLength + n.length);
}

// ---- a JSON-able tree for the inspector -----------------------------------------------------------
export const UNIVERSAL_NAMES: Record<number, string> = {
  0: "END-OF-CONTENTS",
  1: "BOOLEAN",
  2: "INTEGER",
  3: "BIT STRING",
  4: "OCTET STRING",
  5: "NULL",
  6: "OBJECT IDENTIFIER",
  7: "ObjectDescriptor",
  8: "EXTERNAL",
  9: "REAL",
  10: "ENUMERATED",
  12: "UTF8String",
  13: "RELATIVE-OID",
  16: "SEQUENCE",
  17: "SET",
  18: "NumericString",
  19: "PrintableString",
  20: "T61String",
  21: "VideotexString",
  22: "IA5String",
  23: "UTCTime",
  24: "GeneralizedTime",
  25: "GraphicString",
  26: "VisibleString",
  27: "GeneralString",
  28: "UniversalString",
  30: "BMPString",
};

export interface Asn1TreeNode {
  tagClass: TagClass;
  tagNumber: number;
  /** e.g. "SEQUENCE", "INTEGER", "[0]", "[APPLICATION 3]". */
  name: string;
  constructed: boolean;
  offset: number;
  headerLength: number;
  length: number;
  /** A short human-readable value (numbers, OIDs with names, strings, times, hex previews). */
  value?: string;
  /** True when this OCTET/BIT STRING's content parsed as DER and is shown as children. */
  encapsulates?: boolean;
  children?: Asn1TreeNode[];
}

export interface Asn1TreeOptions {
  maxDepth?: number;
  maxNodes?: number;
  /** Characters of hex preview for byte strings. */
  previewBytes?: number;
  /** Looks up a friendly name for an OID. */
  oidName?: (oid: string) => string | undefined;
}

export interface Asn1Tree {
  root: Asn1TreeNode;
  nodeCount: number;
  truncated: boolean;
  trailingBytes: number;
}

const STRING_TAGS = new Set([12, 18, 19, 20, 21, 22, 25, 26, 27]);

function preview(bytes: Uint8Array, max: number): string {
  const hex = bytesToHex(bytes.subarray(0, max), " ");
  return bytes.length > max ? `${hex} … (${bytes.length} bytes)` : hex;
}

/** A bounded, plain tree of any BER/DER, for display. Limits: depth, node count, preview size. */
export function asn1Tree(der: Uint8Array, opts: Asn1TreeOptions = {}): Asn1Tree {
  const maxDepth = opts.maxDepth ?? 32;
  const maxNodes = opts.maxNodes ?? 5000;
  const previewBytes = opts.previewBytes ?? 32;
  const { offset: consumed, result } = asn1js.fromBER(der);
  if (consumed === -1 || result.error)
    fail("MALFORMED_DER", `Malformed DER: ${result.error || "cannot decode"}`);
  const parsed = convert(result as unknown as AnyBlock, 0, 0, maxDepth + 16);
  let count = 0;
  let truncated = false;

  const walk = (n: DerNode, depth: number, base: number): Asn1TreeNode => {
    count++;
    const name =
      n.tagClass === "universal"
        ? (UNIVERSAL_NAMES[n.tagNumber] ?? `[UNIVERSAL ${n.tagNumber}]`)
        : n.tagClass === "context"
          ? `[${n.tagNumber}]`
          : `[${n.tagClass.toUpperCase()} ${n.tagNumber}]`;
    const out: Asn1TreeNode = {
      tagClass: n.tagClass,
      tagNumber: n.tagNumber,
      name,
      constructed: n.constructed,
      offset: base + n.offset,
      headerLength: n.headerLength,
      length: n.length,
    };
    const canDescend = () => {
      if (depth >= maxDepth || count >= maxNodes) {
        truncated = true;
        return false;
      }
      return true;
    };
    if (n.constructed) {
      if (canDescend()) {
        out.children = [];
        for (const c of n.children) {
          if (count >= maxNodes) {
            truncated = true;
            break;
          }
          out.children.push(walk(c, depth + 1, base));
        }
      }
      return out;
    }
    out.value = primitiveValue(n, previewBytes, opts.oidName);
    // OCTET STRING / BIT STRING that hold DER (keys in PKCS#8, extension values, SPKI keys)
    if (n.tagClass === "universal" && (n.tagNumber === TAG.OCTET_STRING || n.tagNumber === TAG.BIT_STRING)) {
      const inner = n.tagNumber === TAG.BIT_STRING ? n.content.subarray(1) : n.content;
      const innerBase = base + n.offset + n.headerLength + (n.tagNumber === TAG.BIT_STRING ? 1 : 0);
      if ((n.tagNumber === TAG.OCTET_STRING || n.content[0] === 0) && looksLikeDer(inner) && canDescend()) {
        try {
          const child = parseDer(inner, { maxDepth: maxDepth + 16 });
          out.encapsulates = true;
          out.children = [walk(child, depth + 1, innerBase)];
        } catch {
          // not DER after all: keep the hex preview
        }
      }
    }
    return out;
  };

  const root = walk(parsed, 0, 0);
  return { root, nodeCount: count, truncated, trailingBytes: der.length - consumed };
}

function looksLikeDer(b: Uint8Array): boolean {
  // a constructed SEQUENCE/SET of plausible size: cheap filter so random bytes are not shown as ASN.1
  if (b.length < 2) return false;
  const t = b[0] ?? 0;
  return t === 0x30 || t === 0x31;
}

function primitiveValue(
  n: DerNode,
  previewBytes: number,
  oidName?: (oid: string) => string | undefined,
): string {
  const c = n.content;
  if (n.tagClass !== "universal") return preview(c, previewBytes);
  switch (n.tagNumber) {
    case TAG.BOOLEAN:
      return c[0] ? "TRUE" : "FALSE";
    case TAG.INTEGER:
    case 10: {
      if (c.length === 0) return "(empty)";
      const neg = ((c[0] ?? 0) & 0x80) !== 0;
      let v = bytesToBigint(c);
      if (neg) v -= 1n << BigInt(c.length * 8);
      if (c.length <= 16) return v.toString();
      return `${c.length * 8 - (c[0] === 0 ? 8 : 0)}-bit: ${preview(c, previewBytes)}`;
    }
    case TAG.BIT_STRING:
      return `${(c.length - 1) * 8 - (c[0] ?? 0)} bits: ${preview(c.subarray(1), previewBytes)}`;
    case TAG.OCTET_STRING:
      return preview(c, previewBytes);
    case TAG.NULL:
      return "";
    case TAG.OID: {
      const o = decodeOid(c);
      const nm = oidName?.(o);
      return nm ? `${o} (${nm})` : o;
    }
    case TAG.UTC_TIME:
    case TAG.GENERALIZED_TIME:
      return bytesToUtf8(c, false);
    case TAG.BMP_STRING: {
      let s = "";
      for (let i = 0; i + 1 < c.length; i += 2)
        s += String.fromCharCode(((c[i] ?? 0) << 8) | (c[i + 1] ?? 0));
      return s;
    }
    default:
      if (STRING_TAGS.has(n.tagNumber)) return bytesToUtf8(c, false);
      return preview(c, previewBytes);
  }
}
