/**
 * The choices the workbench's forms offer. Kept here (checked against the library's types) so the UI
 * chunk does not import `@/core/crypto` itself: the library loads in the worker only.
 */
import type {
  DhGroupName,
  DigestAlgorithm,
  EcCurve,
  HashAlgorithm,
  RsaHash,
  XofAlgorithm,
} from "@/core/crypto";

/** One choice of a select. */
export interface Option {
  value: string;
  label: string;
}

export const HASHES = [
  "MD5",
  "SHA-1",
  "SHA-224",
  "SHA-256",
  "SHA-384",
  "SHA-512",
  "SHA-512/256",
  "SHA3-224",
  "SHA3-256",
  "SHA3-384",
  "SHA3-512",
  "RIPEMD-160",
] as const satisfies readonly HashAlgorithm[];

// Fails to compile if the library gains a hash this list lacks.
const _allHashes: readonly (typeof HASHES)[number][] = [] as HashAlgorithm[];
void _allHashes;

export const HASH_OPTIONS: Option[] = HASHES.map((h) => ({
  value: h,
  label: h === "MD5" || h === "SHA-1" ? `${h} (legacy)` : h,
}));

/** The hash tool's list: the 12 hashes plus BLAKE2, BLAKE3, SM3 and SHAKE. */
export const DIGESTS = [
  ...HASHES,
  "BLAKE2b-512",
  "BLAKE2s-256",
  "BLAKE3",
  "SM3",
  "SHAKE128",
  "SHAKE256",
] as const satisfies readonly DigestAlgorithm[];
const _allDigests: readonly (typeof DIGESTS)[number][] = [] as DigestAlgorithm[];
void _allDigests;

export const DIGEST_OPTIONS: Option[] = DIGESTS.map((h) => ({
  value: h,
  label: h === "MD5" || h === "SHA-1" ? `${h} (legacy)` : h,
}));

/** Extendable-output functions and their default lengths (BLAKE3's 32; OpenSSL 3.0's for SHAKE). */
export const XOF_DEFAULTS: Record<XofAlgorithm, number> = { BLAKE3: 32, SHAKE128: 16, SHAKE256: 32 };

export const RSA_HASH_OPTIONS: Option[] = (
  ["SHA-256", "SHA-384", "SHA-512", "SHA-1"] as const satisfies RsaHash[]
).map((h) => ({ value: h, label: h }));

export const OUTPUT_OPTIONS: Option[] = [
  { value: "hex", label: "Hex" },
  { value: "base64", label: "Base64" },
];

const CURVES = ["P-256", "P-384", "P-521", "secp256k1"] as const satisfies readonly EcCurve[];
const DH_MODP = ["modp2048", "modp3072", "modp4096", "modp6144", "modp8192"] as const satisfies DhGroupName[];
const DH_FFDHE = [
  "ffdhe2048",
  "ffdhe3072",
  "ffdhe4096",
  "ffdhe6144",
  "ffdhe8192",
] as const satisfies DhGroupName[];

export const KEY_ALGORITHM_GROUPS: { label: string; options: Option[] }[] = [
  {
    label: "RSA",
    options: [
      { value: "RSA-2048", label: "RSA 2048" },
      { value: "RSA-3072", label: "RSA 3072" },
      { value: "RSA-4096", label: "RSA 4096 (slow)" },
    ],
  },
  { label: "ECDSA / ECDH", options: CURVES.map((c) => ({ value: `EC-${c}`, label: `EC ${c}` })) },
  {
    label: "Edwards and Montgomery",
    options: [
      { value: "Ed25519", label: "Ed25519 (signatures)" },
      { value: "X25519", label: "X25519 (key agreement)" },
      { value: "Ed448", label: "Ed448 (signatures)" },
      { value: "X448", label: "X448 (key agreement)" },
    ],
  },
  { label: "DSA", options: [{ value: "DSA-2048", label: "DSA 2048/256 (slow: new parameters)" }] },
  {
    label: "Diffie-Hellman, RFC 7919",
    options: DH_FFDHE.map((g) => ({ value: `DH-${g}`, label: `DH ${g}` })),
  },
  {
    label: "Diffie-Hellman, RFC 3526",
    options: DH_MODP.map((g) => ({ value: `DH-${g}`, label: `DH ${g} (MODP ${g.slice(4)})` })),
  },
];

/** Signature schemes with no hash choice (EdDSA hashes inside the scheme): the Hash select is disabled. */
export const SCHEMES_WITHOUT_HASH: readonly string[] = ["Ed25519", "Ed448"];

/**
 * The signature options with a new scheme. A scheme without a hash choice resets the hash to "default":
 * the Hash select is disabled then, so an earlier choice (MD5, say) must not stay in it and fail the run.
 */
export function withScheme<O extends { scheme: string; hash: string }>(options: O, scheme: O["scheme"]): O {
  return SCHEMES_WITHOUT_HASH.includes(scheme)
    ? { ...options, scheme, hash: "default" as O["hash"] }
    : { ...options, scheme };
}
