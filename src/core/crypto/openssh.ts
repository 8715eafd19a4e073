/**
 * OpenSSH key formats (PROTOCOL.key, RFC 4253 §6.6, RFC 5656, RFC 8709): public key lines as in
 * `authorized_keys` and `.pub` files, the `openssh-key-v1` private key format, plain or encrypted with
 * bcrypt_pbkdf and AES-CTR as `ssh-keygen` writes it, and fingerprints as `ssh-keygen -l` prints them.
 * Ed25519, ECDSA (P-256, P-384, P-521) and RSA keys.
 */
import { cbc, ctr } from "@noble/ciphers/aes.js";
import { md5 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { pbkdf as bcryptPbkdf } from "bcrypt-pbkdf";
import type { EcCurve } from "./curves";
import {
  base64ToBytes,
  bigintToBytes,
  bytesToBase64,
  bytesToBigint,
  bytesToUtf8,
  concatBytes,
  utf8ToBytes,
} from "./encoding";
import { fail } from "./errors";
import { keyBits, type PrivateKeyData, type PublicKeyData } from "./keys";

export type SshKeyType =
  | "ssh-ed25519"
  | "ecdsa-sha2-nistp256"
  | "ecdsa-sha2-nistp384"
  | "ecdsa-sha2-nistp521"
  | "ssh-rsa";

const CURVE_OF: Record<string, EcCurve> = { nistp256: "P-256", nistp384: "P-384", nistp521: "P-521" };
const NAME_OF: Partial<Record<EcCurve, string>> = {
  "P-256": "nistp256",
  "P-384": "nistp384",
  "P-521": "nistp521",
};

/** ssh-keygen's own limit on bcrypt rounds is far above what a person waits for; this is the cap here. */
export const SSH_MAX_ROUNDS = 1000;
/** ssh-keygen's default number of bcrypt_pbkdf rounds. */
export const SSH_DEFAULT_ROUNDS = 16;

// ---- the wire encoding (RFC 4251 §5) ----

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get done() {
    return this.at >= this.bytes.length;
  }
  get rest() {
    return this.bytes.subarray(this.at);
  }
  uint32(): number {
    if (this.at + 4 > this.bytes.length) fail("MALFORMED_DER", "Malformed OpenSSH key: it ends early");
    const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, 4).getUint32(0);
    this.at += 4;
    return v;
  }
  string(): Uint8Array {
    const n = this.uint32();
    if (this.at + n > this.bytes.length)
      fail("MALFORMED_DER", "Malformed OpenSSH key: a field runs past its end");
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  text(): string {
    return bytesToUtf8(this.string(), false);
  }
  mpint(): bigint {
    return bytesToBigint(this.string());
  }
}

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const str = (b: Uint8Array | string) => {
  const bytes = typeof b === "string" ? utf8ToBytes(b) : b;
  return concatBytes(u32(bytes.length), bytes);
};
function mpint(v: bigint): Uint8Array {
  if (v === 0n) return str(new Uint8Array(0));
  const b = bigintToBytes(v);
  return str((b[0] ?? 0) & 0x80 ? concatBytes(new Uint8Array([0]), b) : b);
}

// ---- public keys ----

export function sshKeyType(k: PublicKeyData): SshKeyType {
  if (k.kind === "ed25519") return "ssh-ed25519";
  if (k.kind === "rsa") return "ssh-rsa";
  if (k.kind === "ec") {
    const name = NAME_OF[k.curve];
    if (name) return `ecdsa-sha2-${name}` as SshKeyType;
    return fail("UNSUPPORTED_ALGORITHM", `OpenSSH has no ${k.curve} keys (it has P-256, P-384 and P-521)`);
  }
  return fail(
    "UNSUPPORTED_ALGORITHM",
    `OpenSSH keys here are Ed25519, ECDSA or RSA, not ${k.kind.toUpperCase()}`,
  );
}

export function sshPublicBlob(k: PublicKeyData): Uint8Array {
  const type = sshKeyType(k);
  if (k.kind === "ed25519") return concatBytes(str(type), str(k.publicKey));
  if (k.kind === "rsa") return concatBytes(str(type), mpint(k.e), mpint(k.n));
  if (k.kind === "ec") return concatBytes(str(type), str(NAME_OF[k.curve] ?? ""), str(k.point));
  return fail("UNSUPPORTED_ALGORITHM", "Unsupported key");
}

function readPublic(r: Reader, type: string): PublicKeyData {
  if (type === "ssh-ed25519") {
    const publicKey = r.string();
    if (publicKey.length !== 32)
      fail("MALFORMED_DER", "Malformed Ed25519 key: the public key is not 32 bytes");
    return { kind: "ed25519", publicKey: publicKey.slice() };
  }
  if (type === "ssh-rsa") {
    const e = r.mpint();
    const n = r.mpint();
    return { kind: "rsa", n, e };
  }
  if (type.startsWith("ecdsa-sha2-")) {
    const name = r.text();
    const curve = CURVE_OF[name];
    if (!curve || type !== `ecdsa-sha2-${name}`)
      fail("UNSUPPORTED_ALGORITHM", `Unsupported ECDSA curve: ${name}`);
    return { kind: "ec", curve: curve as EcCurve, point: r.string().slice() };
  }
  return fail(
    "UNSUPPORTED_ALGORITHM",
    `Unsupported SSH key type: ${type} (Ed25519, ECDSA and RSA are read here)`,
  );
}

export function decodeSshPublicBlob(blob: Uint8Array): PublicKeyData {
  const r = new Reader(blob);
  return readPublic(r, r.text());
}

export interface SshPublicLine {
  key: PublicKeyData;
  type: SshKeyType;
  blob: Uint8Array;
  comment: string;
  /** authorized_keys options before the type (from="…",no-pty), as written. */
  options: string;
}

const TYPE_RE =
  /(?:^|\s)(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521))\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*))?$/;

/** One `authorized_keys` or `.pub` line: [options] type base64 [comment]. */
export function parseSshPublicLine(line: string): SshPublicLine {
  const m = TYPE_RE.exec(line.trim());
  if (!m) {
    return fail(
      "MALFORMED_PEM",
      "Not an OpenSSH public key line (ssh-ed25519, ecdsa-sha2-nistp…, ssh-rsa AAAA… comment)",
    );
  }
  const [whole, type, b64, comment] = m;
  const blob = base64ToBytes(b64 ?? "");
  const key = decodeSshPublicBlob(blob);
  if (sshKeyType(key) !== type)
    fail("MALFORMED_DER", `The line says ${type} but the key inside is ${sshKeyType(key)}`);
  const options = line
    .trim()
    .slice(0, line.trim().length - (whole ?? "").trimStart().length)
    .trim();
  return { key, type: type as SshKeyType, blob, comment: (comment ?? "").trim(), options };
}

/** Every key line of an authorized_keys file (blank lines and # comments skipped). */
export function parseAuthorizedKeys(text: string): SshPublicLine[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map(parseSshPublicLine);
}

export function sshPublicLine(k: PublicKeyData, comment = ""): string {
  return `${sshKeyType(k)} ${bytesToBase64(sshPublicBlob(k))}${comment ? ` ${comment}` : ""}`;
}

export function sshFingerprint(blob: Uint8Array, hash: "sha256" | "md5"): string {
  if (hash === "sha256") return `SHA256:${bytesToBase64(sha256(blob)).replace(/=+$/, "")}`;
  return `MD5:${Array.from(md5(blob), (b) => b.toString(16).padStart(2, "0")).join(":")}`;
}

const KEYGEN_TYPE: Record<SshKeyType, string> = {
  "ssh-ed25519": "ED25519",
  "ecdsa-sha2-nistp256": "ECDSA",
  "ecdsa-sha2-nistp384": "ECDSA",
  "ecdsa-sha2-nistp521": "ECDSA",
  "ssh-rsa": "RSA",
};

/** The line `ssh-keygen -l -E <hash> -f key` prints. */
export function sshKeygenLine(k: PublicKeyData, comment: string, hash: "sha256" | "md5"): string {
  const type = sshKeyType(k);
  return `${keyBits(k)} ${sshFingerprint(sshPublicBlob(k), hash)} ${comment || "no comment"} (${KEYGEN_TYPE[type]})`;
}

// ---- private keys (openssh-key-v1) ----

const MAGIC = utf8ToBytes("openssh-key-v1\0");
const LABEL = "OPENSSH PRIVATE KEY";

const CIPHERS: Record<string, { keyLen: number; ivLen: number; block: number }> = {
  none: { keyLen: 0, ivLen: 0, block: 8 },
  "aes256-ctr": { keyLen: 32, ivLen: 16, block: 16 },
  "aes192-ctr": { keyLen: 24, ivLen: 16, block: 16 },
  "aes128-ctr": { keyLen: 16, ivLen: 16, block: 16 },
  "aes256-cbc": { keyLen: 32, ivLen: 16, block: 16 },
  "aes128-cbc": { keyLen: 16, ivLen: 16, block: 16 },
};

export function isOpenSshPrivateKey(text: string): boolean {
  return text.includes(`-----BEGIN ${LABEL}-----`);
}

function armoredBody(text: string): Uint8Array {
  const m = new RegExp(`-----BEGIN ${LABEL}-----([\\s\\S]*?)-----END ${LABEL}-----`).exec(text);
  if (!m) return fail("MALFORMED_PEM", `Malformed PEM: no "-----END ${LABEL}-----" line`);
  return base64ToBytes((m[1] ?? "").replace(/\s+/g, ""));
}

function kdf(passphrase: string, salt: Uint8Array, rounds: number, length: number): Uint8Array {
  if (rounds < 1 || rounds > SSH_MAX_ROUNDS) {
    fail(
      "INVALID_PARAMETER",
      `bcrypt rounds must be from 1 to ${SSH_MAX_ROUNDS} (ssh-keygen -a; its default is 16)`,
    );
  }
  const pass = utf8ToBytes(passphrase);
  const out = new Uint8Array(length);
  if (bcryptPbkdf(pass, pass.length, salt, salt.length, out, length, rounds) !== 0) {
    fail("INVALID_PARAMETER", "bcrypt_pbkdf refused its parameters");
  }
  return out;
}

function crypt(
  cipher: string,
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
  decrypt: boolean,
): Uint8Array {
  if (cipher.endsWith("-ctr")) return ctr(key, iv).encrypt(data);
  const c = cbc(key, iv, { disablePadding: true });
  return decrypt ? c.decrypt(data) : c.encrypt(data);
}

export interface OpenSshPrivate {
  key: PrivateKeyData;
  comment: string;
  /** The cipher and KDF it was written with ("none" when plain). */
  cipher: string;
  rounds?: number;
}

export function readOpenSshPrivateKey(text: string, passphrase = ""): OpenSshPrivate {
  const bytes = armoredBody(text);
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) {
    fail("MALFORMED_DER", "Not an openssh-key-v1 key");
  }
  const r = new Reader(bytes.subarray(MAGIC.length));
  const cipher = r.text();
  const kdfName = r.text();
  const kdfOptions = new Reader(r.string());
  const count = r.uint32();
  if (count !== 1) fail("UNSUPPORTED_ALGORITHM", `The file holds ${count} keys; one is read here`);
  const publicBlob = r.string();
  let section = r.string();
  const spec = CIPHERS[cipher];
  if (!spec) return fail("UNSUPPORTED_ALGORITHM", `Unsupported OpenSSH key cipher: ${cipher}`);
  let rounds: number | undefined;
  if (cipher !== "none") {
    if (kdfName !== "bcrypt") fail("UNSUPPORTED_ALGORITHM", `Unsupported OpenSSH key KDF: ${kdfName}`);
    if (!passphrase) fail("PASSPHRASE_REQUIRED", "Passphrase required: this OpenSSH key is encrypted");
    const salt = kdfOptions.string();
    rounds = kdfOptions.uint32();
    const derived = kdf(passphrase, salt, rounds, spec.keyLen + spec.ivLen);
    if (section.length % spec.block !== 0)
      fail("MALFORMED_DER", "Malformed OpenSSH key: the encrypted part is not whole blocks");
    section = crypt(cipher, derived.subarray(0, spec.keyLen), derived.subarray(spec.keyLen), section, true);
  }
  const p = new Reader(section);
  const check1 = p.uint32();
  const check2 = p.uint32();
  if (check1 !== check2) {
    if (cipher !== "none") fail("WRONG_PASSPHRASE", "Wrong passphrase: the key does not decrypt");
    fail("MALFORMED_DER", "Malformed OpenSSH key: its check numbers differ");
  }
  const type = p.text();
  let key: PrivateKeyData;
  if (type === "ssh-ed25519") {
    const publicKey = p.string();
    const secret = p.string();
    if (publicKey.length !== 32 || secret.length !== 64)
      fail("MALFORMED_DER", "Malformed Ed25519 private key");
    key = { kind: "ed25519", seed: secret.slice(0, 32), publicKey: publicKey.slice() };
  } else if (type === "ssh-rsa") {
    const n = p.mpint();
    const e = p.mpint();
    const d = p.mpint();
    const qi = p.mpint();
    const pp = p.mpint();
    const q = p.mpint();
    key = { kind: "rsa", n, e, d, p: pp, q, dp: d % (pp - 1n), dq: d % (q - 1n), qi };
  } else if (type.startsWith("ecdsa-sha2-")) {
    const pub = readPublic(p, type);
    const d = p.string();
    if (pub.kind !== "ec") return fail("MALFORMED_DER", "Malformed ECDSA key");
    const size = pub.curve === "P-521" ? 66 : pub.curve === "P-384" ? 48 : 32;
    const scalar = bigintToBytes(bytesToBigint(d), size);
    key = { kind: "ec", curve: pub.curve, point: pub.point, d: scalar };
  } else {
    return fail("UNSUPPORTED_ALGORITHM", `Unsupported SSH key type: ${type}`);
  }
  const comment = p.text();
  const rest = p.rest;
  if (rest.some((b, i) => b !== i + 1)) fail("MALFORMED_DER", "Malformed OpenSSH key: bad padding");
  if (!publicBlob.every((b, i) => b === sshPublicBlob(publicOf(key))[i])) {
    fail("MALFORMED_DER", "Malformed OpenSSH key: the public and private parts do not match");
  }
  return { key, comment, cipher, ...(rounds !== undefined ? { rounds } : {}) };
}

function publicOf(k: PrivateKeyData): PublicKeyData {
  if (k.kind === "ed25519") return { kind: "ed25519", publicKey: k.publicKey };
  if (k.kind === "rsa") return { kind: "rsa", n: k.n, e: k.e };
  if (k.kind === "ec") return { kind: "ec", curve: k.curve, point: k.point };
  return fail(
    "UNSUPPORTED_ALGORITHM",
    `OpenSSH keys here are Ed25519, ECDSA or RSA, not ${k.kind.toUpperCase()}`,
  );
}

export interface WriteOptions {
  comment?: string;
  /** Encrypts with aes256-ctr and bcrypt_pbkdf, as ssh-keygen does. */
  passphrase?: string;
  rounds?: number;
  /** For tests: the check number and salt (random otherwise). */
  random?: (n: number) => Uint8Array;
}

export function writeOpenSshPrivateKey(k: PrivateKeyData, opts: WriteOptions = {}): string {
  const random = opts.random ?? ((n: number) => crypto.getRandomValues(new Uint8Array(n)));
  const pub = publicOf(k);
  const type = sshKeyType(pub);
  let fields: Uint8Array;
  if (k.kind === "ed25519") fields = concatBytes(str(k.publicKey), str(concatBytes(k.seed, k.publicKey)));
  else if (k.kind === "rsa")
    fields = concatBytes(mpint(k.n), mpint(k.e), mpint(k.d), mpint(k.qi), mpint(k.p), mpint(k.q));
  else if (k.kind === "ec")
    fields = concatBytes(str(NAME_OF[k.curve] ?? ""), str(k.point), mpint(bytesToBigint(k.d)));
  else return fail("UNSUPPORTED_ALGORITHM", "Unsupported key");
  const encrypted = Boolean(opts.passphrase);
  const cipher = encrypted ? "aes256-ctr" : "none";
  const spec = CIPHERS[cipher] as { keyLen: number; ivLen: number; block: number };
  const check = random(4);
  let section = concatBytes(check, check, str(type), fields, str(opts.comment ?? ""));
  const pad = (spec.block - (section.length % spec.block)) % spec.block;
  section = concatBytes(
    section,
    Uint8Array.from({ length: pad }, (_, i) => i + 1),
  );
  let kdfOptions: Uint8Array = new Uint8Array(0);
  if (encrypted) {
    const salt = random(16);
    const rounds = opts.rounds ?? SSH_DEFAULT_ROUNDS;
    const derived = kdf(opts.passphrase ?? "", salt, rounds, spec.keyLen + spec.ivLen);
    section = crypt(cipher, derived.subarray(0, spec.keyLen), derived.subarray(spec.keyLen), section, false);
    kdfOptions = concatBytes(str(salt), u32(rounds));
  }
  const body = concatBytes(
    MAGIC,
    str(cipher),
    str(encrypted ? "bcrypt" : "none"),
    str(kdfOptions),
    u32(1),
    str(sshPublicBlob(pub)),
    str(section),
  );
  const b64 = bytesToBase64(body)
    .replace(/(.{70})/g, "$1\n")
    .replace(/\n$/, "");
  return `-----BEGIN ${LABEL}-----\n${b64}\n-----END ${LABEL}-----\n`;
}
