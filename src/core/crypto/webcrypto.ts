import { CryptoInputError, unsupported } from "./errors";

/** WebCrypto's SubtleCrypto (browsers and Node 20 alike), or an UNSUPPORTED_ALGORITHM error without it. */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s)
    unsupported("WebCrypto (crypto.subtle) is not available in this context (it needs HTTPS or localhost)");
  return s;
}

const support = new Map<string, boolean>();
let forceNoble = false;

/** Test hook: run the @noble fallbacks even where WebCrypto has the algorithm. */
export function setForceNoble(value: boolean): void {
  forceNoble = value;
}

/**
 * Runs `native` (WebCrypto) when the runtime supports `algorithm`, otherwise `fallback` (@noble). Support is
 * probed once per algorithm: Ed25519 and X25519 reached WebCrypto in browsers only recently.
 */
export async function preferWebCrypto<T>(
  algorithm: "Ed25519" | "X25519" | "P-521",
  native: (s: SubtleCrypto) => Promise<T>,
  fallback: () => T | Promise<T>,
): Promise<T> {
  if (forceNoble || !globalThis.crypto?.subtle || support.get(algorithm) === false) return fallback();
  try {
    const out = await native(globalThis.crypto.subtle);
    support.set(algorithm, true);
    return out;
  } catch (e) {
    if (e instanceof CryptoInputError) throw e;
    const name = (e as { name?: string } | null)?.name;
    if (name === "NotSupportedError" || (support.get(algorithm) === undefined && name !== "OperationError")) {
      support.set(algorithm, false);
      return fallback();
    }
    throw e;
  }
}

const keyCache = new WeakMap<object, Map<string, Promise<CryptoKey>>>();

/**
 * Imports a key into WebCrypto once per (key object, algorithm, usage) and reuses the CryptoKey: encoding
 * PKCS#8 and importing it costs more than an ECDSA or Ed25519 operation itself.
 */
export function cachedImport(
  key: object,
  id: string,
  importer: () => Promise<CryptoKey>,
): Promise<CryptoKey> {
  let perKey = keyCache.get(key);
  if (!perKey) {
    perKey = new Map();
    keyCache.set(key, perKey);
  }
  let p = perKey.get(id);
  if (!p) {
    p = importer();
    perKey.set(id, p);
    p.catch(() => perKey?.delete(id));
  }
  return p;
}
