import { hmac as nobleHmac } from "@noble/hashes/hmac.js";
import { md5, ripemd160, sha1 } from "@noble/hashes/legacy.js";
import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { sha224, sha256, sha384, sha512, sha512_256 } from "@noble/hashes/sha2.js";
import { sha3_224, sha3_256, sha3_384, sha3_512 } from "@noble/hashes/sha3.js";
import { toBufferSource } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";

export const HASH_ALGORITHMS = [
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
] as const;

export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** The hashes WebCrypto implements (natively, so faster than JavaScript for one-shot work). */
const WEBCRYPTO_HASHES: ReadonlySet<HashAlgorithm> = new Set(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);

/** A @noble/hashes hash function (v2 `CHash`), narrowed to what we use. */
export interface NobleHash {
  (msg: Uint8Array): Uint8Array;
  outputLen: number;
  blockLen: number;
  create(): { update(buf: Uint8Array): unknown; digest(): Uint8Array };
}

const NOBLE: Record<HashAlgorithm, NobleHash> = {
  MD5: md5 as NobleHash,
  "SHA-1": sha1 as NobleHash,
  "SHA-224": sha224 as NobleHash,
  "SHA-256": sha256 as NobleHash,
  "SHA-384": sha384 as NobleHash,
  "SHA-512": sha512 as NobleHash,
  "SHA-512/256": sha512_256 as NobleHash,
  "SHA3-224": sha3_224 as NobleHash,
  "SHA3-256": sha3_256 as NobleHash,
  "SHA3-384": sha3_384 as NobleHash,
  "SHA3-512": sha3_512 as NobleHash,
  "RIPEMD-160": ripemd160 as NobleHash,
};

export function isHashAlgorithm(name: string): name is HashAlgorithm {
  return (HASH_ALGORITHMS as readonly string[]).includes(name);
}

export function assertHashAlgorithm(name: string): HashAlgorithm {
  if (!isHashAlgorithm(name)) unsupported(`hash "${name}" (supported: ${HASH_ALGORITHMS.join(", ")})`);
  return name;
}

export function nobleHash(alg: HashAlgorithm): NobleHash {
  return NOBLE[assertHashAlgorithm(alg)];
}

export function hashInfo(alg: HashAlgorithm): { outputLength: number; blockLength: number } {
  const h = nobleHash(alg);
  return { outputLength: h.outputLen, blockLength: h.blockLen };
}

function subtle(): SubtleCrypto | undefined {
  return globalThis.crypto?.subtle;
}

/** One-shot digest: WebCrypto where it has the hash, @noble/hashes otherwise. */
export async function hash(alg: HashAlgorithm, data: Uint8Array): Promise<Uint8Array> {
  const h = nobleHash(alg);
  const s = subtle();
  if (s && WEBCRYPTO_HASHES.has(alg)) {
    return new Uint8Array(await s.digest(alg, toBufferSource(data)));
  }
  return h(data);
}

/** Synchronous one-shot digest (always @noble/hashes). */
export function hashSync(alg: HashAlgorithm, data: Uint8Array): Uint8Array {
  return nobleHash(alg)(data);
}

export interface IncrementalHash {
  readonly algorithm: HashAlgorithm;
  readonly outputLength: number;
  /** Feeds a chunk; returns `this` so calls chain. */
  update(chunk: Uint8Array): IncrementalHash;
  /** Finishes; the object cannot be updated afterwards. */
  digest(): Uint8Array;
}

/**
 * Streaming hash (WebCrypto has none, so this is @noble/hashes for every algorithm). Feed a file in chunks
 * and report progress between them; see {@link hashStream}.
 */
export function createHash(alg: HashAlgorithm): IncrementalHash {
  const h = nobleHash(alg);
  return wrapIncremental(alg, h.outputLen, h.create());
}

/** Streaming HMAC over any of the hashes. */
export function createHmac(alg: HashAlgorithm, key: Uint8Array): IncrementalHash {
  const h = nobleHash(alg);
  return wrapIncremental(alg, h.outputLen, nobleHmac.create(h as never, key));
}

function wrapIncremental(
  algorithm: HashAlgorithm,
  outputLength: number,
  inner: { update(buf: Uint8Array): unknown; digest(): Uint8Array },
): IncrementalHash {
  let done = false;
  const self: IncrementalHash = {
    algorithm,
    outputLength,
    update(chunk) {
      if (done) throw new Error("digest() was already called");
      inner.update(chunk);
      return self;
    },
    digest() {
      if (done) throw new Error("digest() was already called");
      done = true;
      return inner.digest();
    },
  };
  return self;
}

export interface StreamOptions {
  /** Called after each chunk with bytes processed so far and the total (when known). */
  onProgress?: (processed: number, total: number | undefined) => void;
  signal?: AbortSignal;
  /** Chunk size for Blob input; default 4 MiB. */
  chunkSize?: number;
}

export type ByteSource = Blob | Uint8Array | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CryptoInputError("ABORTED", "The operation was cancelled");
}

/** Yields chunks of a Blob (a File), a byte array or an (async) iterable of chunks. */
export async function* chunksOf(source: ByteSource, chunkSize = 4 * 1024 * 1024): AsyncGenerator<Uint8Array> {
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    for (let off = 0; off < source.size; off += chunkSize) {
      yield new Uint8Array(await source.slice(off, off + chunkSize).arrayBuffer());
    }
    return;
  }
  if (source instanceof Uint8Array) {
    for (let off = 0; off < source.length; off += chunkSize) yield source.subarray(off, off + chunkSize);
    if (source.length === 0) yield source;
    return;
  }
  yield* source as AsyncIterable<Uint8Array>;
}

async function feed(target: IncrementalHash, source: ByteSource, opts: StreamOptions): Promise<Uint8Array> {
  const total =
    typeof Blob !== "undefined" && source instanceof Blob
      ? source.size
      : source instanceof Uint8Array
        ? source.length
        : undefined;
  let processed = 0;
  throwIfAborted(opts.signal);
  for await (const chunk of chunksOf(source, opts.chunkSize)) {
    throwIfAborted(opts.signal);
    target.update(chunk);
    processed += chunk.length;
    opts.onProgress?.(processed, total);
    // Give the event loop (a UI or a worker's message handler) a turn between chunks.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
  throwIfAborted(opts.signal);
  return target.digest();
}

/** Hashes a file/blob or a stream of chunks with progress and cancellation (`ABORTED`). */
export function hashStream(
  alg: HashAlgorithm,
  source: ByteSource,
  opts: StreamOptions = {},
): Promise<Uint8Array> {
  return feed(createHash(alg), source, opts);
}

export function hmacStream(
  alg: HashAlgorithm,
  key: Uint8Array,
  source: ByteSource,
  opts: StreamOptions = {},
): Promise<Uint8Array> {
  return feed(createHmac(alg, key), source, opts);
}

/** HMAC: WebCrypto where it has the hash, @noble/hashes otherwise. */
export async function hmac(alg: HashAlgorithm, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const h = nobleHash(alg);
  const s = subtle();
  // WebCrypto rejects a zero-length HMAC key; RFC 2104 allows it, so those go to noble.
  if (s && WEBCRYPTO_HASHES.has(alg) && key.length > 0) {
    const k = await s.importKey("raw", toBufferSource(key), { name: "HMAC", hash: alg }, false, ["sign"]);
    return new Uint8Array(await s.sign("HMAC", k, toBufferSource(data)));
  }
  return nobleHmac(h as never, key, data);
}

export interface Pbkdf2Params {
  password: Uint8Array | string;
  salt: Uint8Array | string;
  iterations: number;
  /** Derived key length in bytes. */
  length: number;
  hash: HashAlgorithm;
}

export const PBKDF2_MAX_ITERATIONS = 10_000_000;
export const PBKDF2_MAX_LENGTH = 1024;

const te = new TextEncoder();

/** PBKDF2 (RFC 8018): WebCrypto for SHA-1/256/384/512, @noble/hashes (async, yielding) for the others. */
export async function pbkdf2(params: Pbkdf2Params): Promise<Uint8Array> {
  const { iterations, length } = params;
  const alg = assertHashAlgorithm(params.hash);
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    fail("INVALID_PARAMETER", `PBKDF2 iterations must be a whole number from 1 to ${PBKDF2_MAX_ITERATIONS}`);
  }
  if (!Number.isSafeInteger(length) || length < 1 || length > PBKDF2_MAX_LENGTH) {
    fail("INVALID_PARAMETER", `PBKDF2 length must be from 1 to ${PBKDF2_MAX_LENGTH} bytes`);
  }
  const password = typeof params.password === "string" ? te.encode(params.password) : params.password;
  const salt = typeof params.salt === "string" ? te.encode(params.salt) : params.salt;
  const s = subtle();
  if (s && WEBCRYPTO_HASHES.has(alg)) {
    const k = await s.importKey("raw", toBufferSource(password), "PBKDF2", false, ["deriveBits"]);
    const bits = await s.deriveBits(
      { name: "PBKDF2", hash: alg, salt: toBufferSource(salt), iterations },
      k,
      length * 8,
    );
    return new Uint8Array(bits);
  }
  return pbkdf2Async(nobleHash(alg) as never, password, salt, {
    c: iterations,
    dkLen: length,
    asyncTick: 10,
  });
}

export const RANDOM_MAX_LENGTH = 1024 * 1024;

/** Cryptographically secure random bytes (`crypto.getRandomValues`, 64 KiB per call as the API requires). */
export function randomBytes(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0 || length > RANDOM_MAX_LENGTH) {
    fail("INVALID_PARAMETER", `Random length must be from 0 to ${RANDOM_MAX_LENGTH} bytes`);
  }
  const out = new Uint8Array(length);
  for (let off = 0; off < length; off += 65536) {
    globalThis.crypto.getRandomValues(out.subarray(off, Math.min(length, off + 65536)));
  }
  return out;
}
