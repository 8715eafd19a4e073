/**
 * The OpenSSH key tool's operation: reads a key in any form (OpenSSH private key, plain or encrypted;
 * `authorized_keys` or `.pub` lines; PEM, DER or JWK as the rest of the workbench reads them), prints
 * its fingerprints as `ssh-keygen -l` does, and writes it in the form asked for.
 */
import * as c from "@/core/crypto";
import { keyBits, publicFromPrivate } from "@/core/crypto/keys";
import {
  isOpenSshPrivateKey,
  parseAuthorizedKeys,
  readOpenSshPrivateKey,
  SSH_MAX_ROUNDS,
  sshFingerprint,
  sshKeygenLine,
  sshPublicBlob,
  sshPublicLine,
  writeOpenSshPrivateKey,
} from "@/core/crypto/openssh";
import { at, FieldError, privateKeyFields } from "../../op-base";

export type SshTarget = "none" | "openssh" | "authorized" | "pkcs8" | "spki";

/** authorized_keys files can be long; this many keys are listed at the most. */
const SSH_MAX_KEYS = 200;
const SSH_MAX_CHARS = 1024 * 1024;

export interface SshKeyInfo {
  type: string;
  bits: number;
  comment: string;
  options: string;
  sha256: string;
  md5: string;
  /** What `ssh-keygen -l -E sha256 -f` prints for it. */
  keygen: string;
  publicLine: string;
}

export interface SshResult {
  keys: SshKeyInfo[];
  private: boolean;
  /** How the private key was stored: "none", or the cipher (aes256-ctr) and bcrypt rounds. */
  protection?: string;
  output?: { text: string; filename: string; label: string };
}

const isPrivate = (k: c.PrivateKeyData | c.PublicKeyData): k is c.PrivateKeyData =>
  "d" in k || "seed" in k || "secret" in k || "x" in k;

function info(k: c.PublicKeyData, comment: string, options = ""): SshKeyInfo {
  const blob = sshPublicBlob(k);
  return {
    type: sshPublicLine(k).split(" ")[0] ?? "",
    bits: keyBits(k),
    comment,
    options,
    sha256: sshFingerprint(blob, "sha256"),
    md5: sshFingerprint(blob, "md5"),
    keygen: sshKeygenLine(k, comment, "sha256"),
    publicLine: sshPublicLine(k, comment),
  };
}

async function sshKey(a: {
  input: string;
  passphrase: string;
  target: SshTarget;
  newPassphrase: string;
  comment: string;
  rounds: number;
}): Promise<SshResult> {
  if (a.input.length > SSH_MAX_CHARS) {
    throw new FieldError("INPUT_TOO_LARGE", "Keys up to 1 MiB of text are read here", "key");
  }
  const text = a.input.trim();
  if (!text) throw new FieldError("INVALID_PARAMETER", "Paste a key or open a key file", "key");
  const fields = privateKeyFields("key");
  let key: c.PrivateKeyData | c.PublicKeyData;
  let comment = a.comment.trim();
  let protection: string | undefined;
  const lines =
    /^(\S+=\S*\s+|[\w-]+(,[\w-]+)*\s+)?(ssh-|ecdsa-sha2-)/m.test(text) && !text.startsWith("-----");
  if (lines) {
    const parsed = await at("key", () => parseAuthorizedKeys(text));
    if (parsed.length > SSH_MAX_KEYS) {
      throw new FieldError(
        "INPUT_TOO_LARGE",
        `${parsed.length} keys; up to ${SSH_MAX_KEYS} are listed`,
        "key",
      );
    }
    const first = parsed[0];
    if (!first) throw new FieldError("INVALID_PARAMETER", "No key line found", "key");
    if (parsed.length > 1 || a.target === "none") {
      if (a.target !== "none" && parsed.length > 1) {
        throw new FieldError("INVALID_PARAMETER", "Convert one key at a time; several were pasted", "target");
      }
      return { keys: parsed.map((p) => info(p.key, p.comment, p.options)), private: false };
    }
    key = first.key;
    comment ||= first.comment;
  } else if (isOpenSshPrivateKey(text)) {
    const r = await at(fields, () => readOpenSshPrivateKey(text, a.passphrase));
    key = r.key;
    comment ||= r.comment;
    protection = r.cipher === "none" ? "not encrypted" : `${r.cipher}, bcrypt_pbkdf with ${r.rounds} rounds`;
  } else {
    key = await at(fields, () => c.loadAnyKey(text, a.passphrase ? { passphrase: a.passphrase } : {}));
  }
  const priv = isPrivate(key);
  const pub = isPrivate(key) ? publicFromPrivate(key) : key;
  const out: SshResult = { keys: [await at("key", () => info(pub, comment))], private: priv };
  if (protection) out.protection = protection;
  const needPrivate = (what: string) => {
    if (!priv)
      throw new FieldError("WRONG_KEY_TYPE", `${what} needs a private key; this is a public key`, "target");
    return key as c.PrivateKeyData;
  };
  if (!Number.isSafeInteger(a.rounds) || a.rounds < 1 || a.rounds > SSH_MAX_ROUNDS) {
    throw new FieldError(
      "INVALID_PARAMETER",
      `Rounds must be a whole number from 1 to ${SSH_MAX_ROUNDS}`,
      "rounds",
    );
  }
  switch (a.target) {
    case "none":
      break;
    case "openssh":
      out.output = {
        text: await at({ default: "newPassphrase" }, () =>
          writeOpenSshPrivateKey(needPrivate("An OpenSSH private key"), {
            comment,
            ...(a.newPassphrase ? { passphrase: a.newPassphrase, rounds: a.rounds } : {}),
          }),
        ),
        filename: "id_key",
        label: a.newPassphrase ? "OpenSSH private key (encrypted)" : "OpenSSH private key",
      };
      break;
    case "authorized":
      out.output = {
        text: `${sshPublicLine(pub, comment)}\n`,
        filename: "id_key.pub",
        label: "Public key line",
      };
      break;
    case "pkcs8":
      out.output = {
        text: await at({ default: "newPassphrase" }, () =>
          c.exportPrivateKeyPem(
            needPrivate("A PKCS#8 key"),
            a.newPassphrase ? { passphrase: a.newPassphrase } : {},
          ),
        ),
        filename: "key.pem",
        label: a.newPassphrase ? "Encrypted PKCS#8 private key (PEM)" : "PKCS#8 private key (PEM)",
      };
      break;
    case "spki":
      out.output = {
        text: c.exportPublicKeyPem(pub),
        filename: "key.pub.pem",
        label: "Public key (PEM, SPKI)",
      };
      break;
    default:
      throw new FieldError("INVALID_PARAMETER", `Unknown target ${String(a.target)}`, "target");
  }
  return out;
}

export const ops = { sshKey };
