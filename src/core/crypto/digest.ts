/**
 * The hash tool's digests: the 12 hashes of `hash.ts` plus BLAKE2b-512, BLAKE2s-256, BLAKE3, SM3 and
 * the SHAKE extendable-output functions. Kept apart from `HashAlgorithm` (which HMAC, PBKDF2 and the
 * signatures take) so that no signature or KDF silently offers a hash OpenSSL does not pair with it.
 *
 * Speed for big files (measured by `bench/crypto-page.mjs`): SHA-1/256/384/512 of a Blob up to
 * {@link ONE_SHOT_MAX} are read in chunks into one buffer (progress, Cancel between chunks) and digested once
 * by WebCrypto, which is native (Chromium's BoringSSL uses the CPU's SHA instructions: several times faster
 * than any WebAssembly). Bigger Blobs, and the algorithms WebCrypto lacks, stream through `hash-wasm`
 * (WebAssembly), which hashes each chunk as the browser reads the file; @noble/hashes does what hash-wasm
 * lacks (SHA-512/256, SHAKE) and everything where WebAssembly cannot be compiled.
 */
import { blake2b, blake2s } from "@noble/hashes/blake2.js";
import { blake3 } from "@noble/hashes/blake3.js";
import { shake128, shake256 } from "@noble/hashes/sha3.js";
import type { IHasher } from "hash-wasm";
import {
  createBLAKE2b,
  createBLAKE2s,
  createBLAKE3,
  createMD5,
  createRIPEMD160,
  createSHA1,
  createSHA3,
  createSHA224,
  createSHA256,
  createSHA384,
  createSHA512,
  createSM3,
} from "hash-wasm";
import { toBufferSource } from "./encoding";
import { CryptoInputError, fail, unsupported } from "./errors";
import { type ByteSource, chunksOf, HASH_ALGORITHMS, type HashAlgorithm, hash, nobleHash } from "./hash";

export const EXTRA_DIGESTS = ["BLAKE2b-512", "BLAKE2s-256", "BLAKE3", "SM3", "SHAKE128", "SHAKE256"] as const;

/**
 * Digests only hash-wasm (WebAssembly) computes: @noble/hashes has no SM3, and a hash is not written
 * here by hand. Where WebAssembly cannot run they are refused with a message that says why.
 */
export const WASM_ONLY_DIGESTS: ReadonlySet<DigestAlgorithm> = new Set(["SM3"]);
export const DIGEST_ALGORITHMS = [...HASH_ALGORITHMS, ...EXTRA_DIGESTS] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

/** Extendable-output functions: the caller picks the output length. */
export const XOF_ALGORITHMS = ["BLAKE3", "SHAKE128", "SHAKE256"] as const;
export type XofAlgorithm = (typeof XOF_ALGORITHMS)[number];

/** Default output length of each XOF, in bytes: BLAKE3's 32; SHAKE as OpenSSL 3.0's `dgst` (16, 32). */
export const XOF_DEFAULT_LENGTH: Record<XofAlgorithm, number> = { BLAKE3: 32, SHAKE128: 16, SHAKE256: 32 };
export const XOF_MAX_LENGTH = 1024;

/**
 * Blobs up to this size are digested in one WebCrypto call after a chunked read. The bound is memory: the
 * buffer holds the whole file, and WebCrypto copies its input ("get a copy of the bytes held by the data
 * parameter"), so a run holds about twice the file for the length of the digest: 256 MiB peaks near 512 MiB
 * in the worker, which a phone or a laptop with many tabs still gives. Above it, hash-wasm streams in 8 MiB
 * or so at ~200 MB/s (a 1 GiB file in ~5 s); if the buffer cannot be had (RangeError) it streams too.
 */
export const ONE_SHOT_MAX = 256 * 1024 * 1024;

export function isDigestAlgorithm(name: string): name is DigestAlgorithm {
  return (DIGEST_ALGORITHMS as readonly string[]).includes(name);
}

export function isXof(alg: DigestAlgorithm): alg is XofAlgorithm {
  return (XOF_ALGORITHMS as readonly string[]).includes(alg);
}

function outputLength(alg: DigestAlgorithm, length: number | undefined): number | undefined {
  if (!isXof(alg)) {
    if (length !== undefined) fail("INVALID_PARAMETER", `${alg} has a fixed output length`);
    return undefined;
  }
  const n = length ?? XOF_DEFAULT_LENGTH[alg];
  if (!Number.isSafeInteger(n) || n < 1 || n > XOF_MAX_LENGTH) {
    fail("INVALID_PARAMETER", `Output length must be a whole number of bytes from 1 to ${XOF_MAX_LENGTH}`);
  }
  return n;
}

interface Incremental {
  update(chunk: Uint8Array): void;
  digest(): Uint8Array;
}

function nobleIncremental(alg: DigestAlgorithm, length: number | undefined): Incremental {
  switch (alg) {
    case "BLAKE2b-512":
      return blake2b.create({});
    case "BLAKE2s-256":
      return blake2s.create({});
    case "BLAKE3":
      return blake3.create({ dkLen: length ?? 32 });
    case "SHAKE128":
      return shake128.create({ dkLen: length ?? 16 });
    case "SHAKE256":
      return shake256.create({ dkLen: length ?? 32 });
    case "SM3":
      return fail("UNSUPPORTED_ALGORITHM", "SM3 needs WebAssembly, which this browser does not allow here");
    default:
      return nobleHash(alg).create() as Incremental;
  }
}

const WASM: Partial<Record<DigestAlgorithm, (length: number | undefined) => Promise<IHasher>>> = {
  MD5: () => createMD5(),
  "SHA-1": () => createSHA1(),
  "SHA-224": () => createSHA224(),
  "SHA-256": () => createSHA256(),
  "SHA-384": () => createSHA384(),
  "SHA-512": () => createSHA512(),
  "SHA3-224": () => createSHA3(224),
  "SHA3-256": () => createSHA3(256),
  "SHA3-384": () => createSHA3(384),
  "SHA3-512": () => createSHA3(512),
  "RIPEMD-160": () => createRIPEMD160(),
  "BLAKE2b-512": () => createBLAKE2b(512),
  "BLAKE2s-256": () => createBLAKE2s(256),
  BLAKE3: (length) => createBLAKE3((length ?? 32) * 8),
  SM3: () => createSM3(),
};

/** hash-wasm's incremental hasher, or undefined where it lacks the algorithm or WebAssembly cannot run. */
async function wasmIncremental(
  alg: DigestAlgorithm,
  length: number | undefined,
): Promise<Incremental | undefined> {
  const make = WASM[alg];
  if (!make) return undefined;
  try {
    const h = await make(length);
    h.init();
    return {
      update: (chunk) => void h.update(chunk),
      digest: () => h.digest("binary"),
    };
  } catch {
    // No WebAssembly here (a CSP without 'wasm-unsafe-eval', an old runtime): the other paths.
    return undefined;
  }
}

export interface DigestOptions {
  /** Output length in bytes for an XOF (BLAKE3, SHAKE); an error for the others. */
  length?: number;
}

/** One-shot digest of bytes. */
export async function digest(
  alg: DigestAlgorithm,
  data: Uint8Array,
  opts: DigestOptions = {},
): Promise<Uint8Array> {
  if (!isDigestAlgorithm(alg)) unsupported(`hash "${String(alg)}"`);
  const length = outputLength(alg, opts.length);
  if ((HASH_ALGORITHMS as readonly string[]).includes(alg)) return hash(alg as HashAlgorithm, data);
  const h =
    (WASM_ONLY_DIGESTS.has(alg) ? await wasmIncremental(alg, length) : undefined) ??
    nobleIncremental(alg, length);
  h.update(data);
  return h.digest();
}

export interface DigestStreamOptions extends DigestOptions {
  onProgress?: (processed: number, total: number | undefined) => void;
  signal?: AbortSignal;
  chunkSize?: number;
  /** Skip hash-wasm (tests of the WebCrypto and noble paths). */
  noWasm?: boolean;
  /**
   * Largest input read whole and digested once by WebCrypto (default {@link ONE_SHOT_MAX}); 0 streams
   * every size (tests of the streaming path).
   */
  oneShotMax?: number;
}

const WEBCRYPTO_ONE_SHOT: ReadonlySet<DigestAlgorithm> = new Set(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CryptoInputError("ABORTED", "The operation was cancelled");
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const CHANGED_WHILE_READ = "The file changed while it was being read: choose it again";
const UNREADABLE =
  "The file could not be read (changed, moved or deleted since it was chosen): choose it again";

/**
 * A read of a Blob's stream that fails as the input error it is. A Blob in memory does not fail to
 * read, so a failure means the file behind it changed or went away since it was chosen; browsers say
 * so differently (Chromium: TypeError "network error" from a stream, NotReadableError from
 * FileReader; others NotFoundError). Only a cancel passes through as itself.
 */
async function reading<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof Error && e.name === "AbortError") throw e;
    fail("INPUT_CHANGED", UNREADABLE, e);
  }
}

/** Scratch size of a BYOB read: one buffer refilled in place. */
const READ_BUFFER = 4 * 1024 * 1024;

/**
 * A Blob's bytes through its stream, read into one reused scratch buffer where the stream is a byte
 * stream (Chromium, Firefox, Node): in Chromium's worker 100 MB in ~175 ms, against ~250 ms through the
 * default reader (a fresh 64 KiB chunk per read) and ~510 ms for 4 MiB slices (bench/crypto-page.mjs).
 * Each chunk yielded is a view of the scratch buffer, valid only until the next one is asked for: every
 * caller copies or hashes it at once.
 */
async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader | undefined;
  const stream = blob.stream();
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream in this runtime: the default reader below.
  }
  if (byob) {
    let buffer = new ArrayBuffer(Math.max(1, Math.min(READ_BUFFER, blob.size)));
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reading(() => byob.read(new Uint8Array(buffer)));
        if (done || !value) {
          finished = true;
          return;
        }
        yield value;
        buffer = value.buffer as ArrayBuffer;
      }
    } finally {
      // Left early (a cancel, a failure elsewhere): the browser stops reading the file.
      if (!finished) void byob.cancel().catch(() => {});
      byob.releaseLock();
    }
  }
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reading(() => reader.read());
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A buffer for the whole input, or undefined where the runtime refuses one that big. */
function allocate(size: number): Uint8Array | undefined {
  try {
    return new Uint8Array(size);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Blobs this big or bigger are read by {@link READ_LANES} readers at once. */
const LANE_MIN = 2 * READ_BUFFER;
/**
 * Readers of one Blob at once, each on its own slice: Chromium's file reads then overlap, 100 MB in
 * ~130 ms against ~165 ms for one reader (four measured no faster than two).
 */
const READ_LANES = 2;

/**
 * Reads the whole input into `all` (exactly its length: a file that grows or shrinks meanwhile is
 * refused), with progress and a cancel check between chunks.
 */
async function readWhole(
  blob: Blob | undefined,
  chunks: () => AsyncGenerator<Uint8Array>,
  all: Uint8Array,
  opts: DigestStreamOptions,
): Promise<void> {
  let processed = 0;
  let failed = false;
  const lane = async (from: number, to: number, source: AsyncGenerator<Uint8Array>) => {
    let at = from;
    for await (const chunk of source) {
      // Another lane failed: stop reading (leaving the loop cancels this lane's stream).
      if (failed) return;
      throwIfAborted(opts.signal);
      if (chunk.length > to - at) fail("INPUT_CHANGED", CHANGED_WHILE_READ);
      all.set(chunk, at);
      at += chunk.length;
      processed += chunk.length;
      opts.onProgress?.(processed, all.length);
      if (!blob) await tick();
    }
    if (at !== to) fail("INPUT_CHANGED", CHANGED_WHILE_READ);
  };
  if (blob && all.length >= LANE_MIN && typeof blob.slice === "function") {
    const step = Math.ceil(all.length / READ_LANES);
    const lanes = [];
    for (let from = 0; from < all.length; from += step) {
      const to = Math.min(all.length, from + step);
      lanes.push(lane(from, to, blobChunks(blob.slice(from, to))));
    }
    await Promise.all(
      lanes.map((run) =>
        run.catch((e: unknown) => {
          failed = true;
          throw e;
        }),
      ),
    );
  } else {
    await lane(0, all.length, chunks());
  }
  throwIfAborted(opts.signal);
}

/**
 * Digests a file/blob (or chunks) with progress and cancellation (`ABORTED`). Order of preference:
 * for SHA-1/256/384/512 up to `oneShotMax` bytes, a chunked read into one buffer and one native WebCrypto
 * digest (a cancel during the digest itself is the caller's to enforce: client.ts terminates the worker);
 * then hash-wasm streaming; then @noble/hashes streaming.
 */
export async function digestStream(
  alg: DigestAlgorithm,
  source: ByteSource,
  opts: DigestStreamOptions = {},
): Promise<Uint8Array> {
  if (!isDigestAlgorithm(alg)) unsupported(`hash "${String(alg)}"`);
  const length = outputLength(alg, opts.length);
  const isBlob = typeof Blob !== "undefined" && source instanceof Blob;
  const total = isBlob ? source.size : source instanceof Uint8Array ? source.length : undefined;
  const chunks = () => (isBlob ? blobChunks(source) : chunksOf(source, opts.chunkSize));
  throwIfAborted(opts.signal);
  const subtle = globalThis.crypto?.subtle;
  const oneShotMax = opts.oneShotMax ?? ONE_SHOT_MAX;
  const all =
    subtle && WEBCRYPTO_ONE_SHOT.has(alg) && total !== undefined && total <= oneShotMax
      ? allocate(total)
      : undefined;
  if (subtle && all) {
    await readWhole(isBlob ? source : undefined, chunks, all, opts);
    return new Uint8Array(await subtle.digest(alg, toBufferSource(all)));
  }
  const h = (opts.noWasm ? undefined : await wasmIncremental(alg, length)) ?? nobleIncremental(alg, length);
  let processed = 0;
  for await (const chunk of chunks()) {
    throwIfAborted(opts.signal);
    h.update(chunk);
    processed += chunk.length;
    opts.onProgress?.(processed, total);
    // Reading a Blob already yields to the event loop (a cancel message gets its turn); other sources get a turn here.
    if (!isBlob) await tick();
  }
  throwIfAborted(opts.signal);
  return h.digest();
}
