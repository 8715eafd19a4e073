/**
 * DES and three-key 3DES (EDE) in CBC mode with PKCS#7 padding, for reading keys that older OpenSSL and Java
 * tools encrypted with them (legacy PEM `DES-CBC` / `DES-EDE3-CBC`, PKCS#8 PBES1 and PKCS#12 3DES, PBES2
 * with des-ede3-cbc). Nothing here writes DES: new keys are written with PBES2 and AES.
 *
 * The block cipher is node-forge's (Digital Bazaar, maintained; @noble/ciphers leaves DES out on purpose).
 * Only its DES module and the byte buffer it needs are loaded (~12 KB gzip), and only on first use: the
 * import is dynamic, so the bundler puts it in a chunk of its own that the worker fetches when a DES key
 * is met, never in the first load of a page or a tool.
 */
import { CryptoInputError } from "./errors";

export type DesCipher = "DES-CBC" | "DES-EDE3-CBC";
export const DES_KEY_LENGTH: Record<DesCipher, number> = { "DES-CBC": 8, "DES-EDE3-CBC": 24 };
export const DES_BLOCK = 8;

const toBinary = (bytes: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return s;
};
const fromBinary = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

async function forge() {
  const [{ default: des }, { default: util }] = await Promise.all([
    import("node-forge/lib/des.js"),
    import("node-forge/lib/util.js"),
  ]);
  return { des, buffer: (bytes: Uint8Array) => util.createBuffer(toBinary(bytes), "raw") };
}

function check(cipher: DesCipher, key: Uint8Array, iv: Uint8Array): void {
  if (key.length !== DES_KEY_LENGTH[cipher] || iv.length !== DES_BLOCK) {
    throw new CryptoInputError(
      "INVALID_PARAMETER",
      `${cipher} needs a ${DES_KEY_LENGTH[cipher]}-byte key and an 8-byte IV`,
    );
  }
}

/** CBC encryption with PKCS#7 padding (used by the tests to check OpenSSL reads what this cipher makes). */
export async function desCbcEncrypt(
  cipher: DesCipher,
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
): Promise<Uint8Array> {
  check(cipher, key, iv);
  const { des, buffer } = await forge();
  const c = des.startEncrypting(buffer(key), buffer(iv), null, "CBC");
  c.update(buffer(data));
  c.finish();
  return fromBinary(c.output.getBytes());
}

/**
 * CBC decryption; throws `DECRYPTION_FAILED` when the PKCS#7 padding is wrong (checked here in full:
 * node-forge's own check reads only the last byte).
 */
export async function desCbcDecrypt(
  cipher: DesCipher,
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
): Promise<Uint8Array> {
  check(cipher, key, iv);
  if (data.length === 0 || data.length % DES_BLOCK !== 0) {
    throw new CryptoInputError("DECRYPTION_FAILED", "The ciphertext is not a whole number of 8-byte blocks");
  }
  const { des, buffer } = await forge();
  const c = des.startDecrypting(buffer(key), buffer(iv), null, "CBC");
  c.update(buffer(data));
  c.finish(() => true); // no unpadding: done below
  const plain = fromBinary(c.output.getBytes());
  const pad = plain[plain.length - 1] ?? 0;
  const ok = pad >= 1 && pad <= DES_BLOCK && plain.subarray(plain.length - pad).every((b) => b === pad);
  if (!ok) throw new CryptoInputError("DECRYPTION_FAILED", "Bad padding: wrong key or damaged data");
  return plain.subarray(0, plain.length - pad);
}
