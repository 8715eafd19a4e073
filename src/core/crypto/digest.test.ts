import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { DIGEST_ALGORITHMS, type DigestAlgorithm, digest, digestStream, WASM_ONLY_DIGESTS } from "./digest";
import { bytesToHex, utf8ToBytes } from "./encoding";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

/** `openssl dgst` names; BLAKE3 is not in OpenSSL 3.0 (checked against its official vectors below). */
const OPENSSL: Partial<Record<DigestAlgorithm, string>> = {
  MD5: "md5",
  "SHA-1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA-512/256": "sha512-256",
  "SHA3-224": "sha3-224",
  "SHA3-256": "sha3-256",
  "SHA3-384": "sha3-384",
  "SHA3-512": "sha3-512",
  "RIPEMD-160": "ripemd160",
  "BLAKE2b-512": "blake2b512",
  "BLAKE2s-256": "blake2s256",
  SM3: "sm3",
  SHAKE128: "shake128",
  SHAKE256: "shake256",
};

function opensslDigest(name: string, file: string, xoflen?: number): string {
  const args = ["dgst", `-${name}`, "-r", ...(xoflen ? ["-xoflen", String(xoflen)] : []), file];
  return o.run(args).toString("utf8").split(" ")[0] ?? "";
}

// A pattern that crosses chunk boundaries unevenly (3 MiB + 12345 bytes; chunks of 1 MiB below).
const BIG = new Uint8Array(3 * 1024 * 1024 + 12345).map((_, i) => (i * 31 + (i >> 8)) & 255);
const SMALL = utf8ToBytes("Abacus ✓ digest interop\n");

describe("digests agree with openssl dgst", () => {
  const big = o.write("big.bin", BIG);
  const small = o.write("small.bin", SMALL);
  for (const alg of DIGEST_ALGORITHMS) {
    const name = OPENSSL[alg];
    if (!name) continue;
    it(`${alg}: one-shot, read-then-WebCrypto, streamed through hash-wasm and @noble/hashes`, async () => {
      expect(bytesToHex(await digest(alg, SMALL))).toBe(opensslDigest(name, small));
      const expected = opensslDigest(name, big);
      const chunkSize = 1024 * 1024;
      // The default: SHA-1/256/384/512 read whole then one WebCrypto digest; the rest stream.
      expect(bytesToHex(await digestStream(alg, new Blob([BIG]), { chunkSize }))).toBe(expected);
      expect(bytesToHex(await digestStream(alg, BIG, { chunkSize }))).toBe(expected);
      // Above the one-shot bound (here: every size), hash-wasm streams.
      const stream = { chunkSize, oneShotMax: 0 };
      expect(bytesToHex(await digestStream(alg, new Blob([BIG]), stream))).toBe(expected);
      expect(bytesToHex(await digestStream(alg, BIG, stream))).toBe(expected);
      expect(bytesToHex(await digest(alg, BIG))).toBe(expected);
      // Without WebAssembly: @noble/hashes streams, or the digest only hash-wasm has is refused.
      const withoutWasm = digestStream(alg, new Blob([BIG]), { ...stream, noWasm: true });
      if (WASM_ONLY_DIGESTS.has(alg)) await expect(withoutWasm).rejects.toThrow(/needs WebAssembly/);
      else expect(bytesToHex(await withoutWasm)).toBe(expected);
    });
  }

  it("SHAKE with a chosen output length matches -xoflen", async () => {
    expect(bytesToHex(await digest("SHAKE128", SMALL, { length: 64 }))).toBe(
      opensslDigest("shake128", small, 64),
    );
    expect(
      bytesToHex(await digestStream("SHAKE256", new Blob([new Uint8Array(SMALL)]), { length: 100 })),
    ).toBe(opensslDigest("shake256", small, 100));
  });
});

describe("which path a file takes", () => {
  afterEach(() => vi.restoreAllMocks());
  const blob = new Blob([BIG]);

  it("SHA-1/256/384/512 up to the bound: one WebCrypto digest of the whole file, progress while reading", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    const seen: number[] = [];
    await digestStream("SHA-256", blob, { onProgress: (done) => seen.push(done) });
    expect(spy).toHaveBeenCalledTimes(1);
    const [call] = spy.mock.calls;
    expect((call?.[1] as Uint8Array | undefined)?.byteLength).toBe(BIG.length);
    expect(seen.at(-1)).toBe(BIG.length);
    // Exactly at the bound still one-shot; one byte over streams.
    await digestStream("SHA-512", blob, { oneShotMax: BIG.length });
    expect(spy).toHaveBeenCalledTimes(2);
    await digestStream("SHA-512", blob, { oneShotMax: BIG.length - 1 });
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("a file of 8 MiB or more is read by two readers at once into place: same digests as openssl, progress rises to the size", async () => {
    const LARGE = new Uint8Array(9 * 1024 * 1024 + 777).map((_, i) => (i * 131 + (i >> 12)) & 255);
    const file = o.write("large.bin", LARGE);
    const sliced = vi.spyOn(Blob.prototype, "slice");
    for (const [alg, name] of [
      ["SHA-256", "sha256"],
      ["SHA-1", "sha1"],
      ["SHA-512", "sha512"],
    ] as const) {
      const seen: number[] = [];
      const got = await digestStream(alg, new Blob([LARGE]), { onProgress: (done) => seen.push(done) });
      expect(bytesToHex(got)).toBe(opensslDigest(name, file));
      expect(seen.every((n, i) => i === 0 || n > (seen[i - 1] ?? 0))).toBe(true);
      expect(seen.at(-1)).toBe(LARGE.length);
    }
    expect(sliced).toHaveBeenCalledTimes(6);
  });

  it("a cancel while two readers run stops both with ABORTED, before any digest", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    const controller = new AbortController();
    const run = digestStream("SHA-256", new Blob([new Uint8Array(20 * 1024 * 1024)]), {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    expect(spy).not.toHaveBeenCalled();
  });

  it("algorithms WebCrypto lacks always stream", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    await digestStream("SHA3-256", blob);
    await digestStream("SHA-224", blob);
    await digestStream("BLAKE3", blob);
    expect(spy).not.toHaveBeenCalled();
  });

  it("a buffer the runtime refuses (RangeError) falls back to streaming, same digest", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    const expected = bytesToHex(await digestStream("SHA-256", blob, { oneShotMax: 0 }));
    const huge = { size: 2 ** 53, stream: () => blob.stream() };
    Object.setPrototypeOf(huge, Blob.prototype);
    // A Blob-like whose stated size no buffer can hold: the stream gives the real bytes.
    expect(bytesToHex(await digestStream("SHA-256", huge as unknown as Blob))).toBe(expected);
    expect(spy).not.toHaveBeenCalled();
  });

  /** A Blob-like with the stated size whose stream is `stream` (a file as the browser would hand it over). */
  function blobLike(size: number, stream: () => ReadableStream<Uint8Array>): Blob {
    const b = { size, stream };
    Object.setPrototypeOf(b, Blob.prototype);
    return b as unknown as Blob;
  }
  /** A stream of BIG in 100 KB pieces that is not a byte stream (no BYOB reader). */
  const plainStream = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < BIG.length; i += 100_000) c.enqueue(BIG.slice(i, i + 100_000));
        c.close();
      },
    });

  it("a stream without a BYOB reader is read through the default reader, same digests", async () => {
    expect(() => plainStream().getReader({ mode: "byob" })).toThrow();
    const expected = opensslDigest("sha256", o.write("plain.bin", BIG));
    expect(bytesToHex(await digestStream("SHA-256", blobLike(BIG.length, plainStream)))).toBe(expected);
    expect(
      bytesToHex(await digestStream("SHA-256", blobLike(BIG.length, plainStream), { oneShotMax: 0 })),
    ).toBe(expected);
  });

  it("a file that grows or shrinks while it is read whole is refused, not digested short or overrun", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    for (const size of [BIG.length - 1, BIG.length + 1]) {
      await expect(digestStream("SHA-256", blobLike(size, plainStream))).rejects.toMatchObject({
        code: "INPUT_CHANGED",
        message: expect.stringContaining("changed while it was being read"),
      });
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it("a file the browser can no longer read is an input error that says so, however the browser says it", async () => {
    // Chromium's stream of a file changed on disk errors with TypeError "network error".
    for (const error of [
      new TypeError("network error"),
      new DOMException("The file changed", "NotReadableError"),
      new DOMException("The file is gone", "NotFoundError"),
    ]) {
      const failing = () =>
        new ReadableStream<Uint8Array>({
          pull(c) {
            c.error(error);
          },
        });
      for (const oneShotMax of [undefined, 0]) {
        await expect(
          digestStream("SHA-256", blobLike(BIG.length, failing), oneShotMax === 0 ? { oneShotMax } : {}),
        ).rejects.toMatchObject({
          code: "INPUT_CHANGED",
          message: expect.stringContaining("choose it again"),
        });
      }
    }
  });

  it("a cancel while the file is read whole stops with ABORTED before the digest", async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, "digest");
    const controller = new AbortController();
    const run = digestStream("SHA-256", BIG, {
      chunkSize: 65536,
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 65536 * 2) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("BLAKE3 (official test vectors, BLAKE3-team/BLAKE3 test_vectors.json and the README)", () => {
  it("hashes the empty input and 'abc'", async () => {
    expect(bytesToHex(await digest("BLAKE3", new Uint8Array(0)))).toBe(
      "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    );
    expect(bytesToHex(await digestStream("BLAKE3", new Blob([new Uint8Array(utf8ToBytes("abc"))])))).toBe(
      "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85",
    );
  });

  it("inputs across chunk and tree boundaries (1025 to 102400 bytes of 0, 1, …, 250, 0, …), default and extended output", async () => {
    const cases: [number, string][] = [
      [
        1025,
        "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444f4c4a22b4b399155358a994e52bf255de60035742ec71bd08ac275a1b51cc6bfe332b0ef84b409108cda080e6269ed4b3e2c3f7d722aa4cdc98d16deb554e5627be8f955c98e1d5f9565a9194cad0c4285f93700062d9595adb992ae68ff12800ab67a",
      ],
      [
        4097,
        "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb99505f91b0b5600a11251652eacfa9497b31cd3c409ce2e45cfe6c0a016967316c426bd26f619eab5d70af9a418b845c608840390f361630bd497b1ab44019316357c61dbe091ce72fc16dc340ac3d6e009e050b3adac4b5b2c92e722cffdc46501531956",
      ],
      [
        8193,
        "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3bb2282aa69be089359ea1154b9a9286c4a56af4de975a9aa4a5c497654914d279bea60bb6d2cf7225a2fa0ff5ef56bbe4b149f3ed15860f78b4e2ad04e158e375c1e0c0b551cd7dfc82f1b155c11b6b3ed51ec9edb30d133653bb5709d1dbd55f4e1ff6",
      ],
      [
        102400,
        "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085e01c59dab908c04c3342b816941a26d69c2605ebee5ec5291cc55e15b76146e6745f0601156c3596cb75065a9c57f35585a52e1ac70f69131c23d611ce11ee4ab1ec2c009012d236648e77be9295dd0426f29b764d65de58eb7d01dd42248204f45f8e",
      ],
    ];
    for (const [n, hash] of cases) {
      const input = new Uint8Array(n).map((_, i) => i % 251);
      const short = hash.slice(0, 64);
      expect(bytesToHex(await digest("BLAKE3", input)), `${n}`).toBe(short);
      expect(bytesToHex(await digest("BLAKE3", input, { length: 131 })), `${n}`).toBe(hash);
      // Streamed in odd chunks through hash-wasm, and without WebAssembly through @noble/hashes.
      const stream = { chunkSize: 1000, oneShotMax: 0 };
      expect(bytesToHex(await digestStream("BLAKE3", new Blob([input]), stream)), `${n}`).toBe(short);
      expect(
        bytesToHex(await digestStream("BLAKE3", new Blob([input]), { ...stream, length: 131, noWasm: true })),
        `${n}`,
      ).toBe(hash);
    }
  });

  it("the WebAssembly stream and the JavaScript one-shot agree over many chunks and output lengths", async () => {
    for (const length of [1, 32, 64, 131]) {
      const a = await digest("BLAKE3", BIG, { length });
      const b = await digestStream("BLAKE3", new Blob([BIG]), { length, chunkSize: 1000003 });
      expect(bytesToHex(b)).toBe(bytesToHex(a));
      expect(a.length).toBe(length);
    }
  });
});

describe("digest input checks", () => {
  it("refuses an output length for fixed-length hashes and out-of-range XOF lengths", async () => {
    await expect(digest("SHA-256", SMALL, { length: 16 })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    await expect(digest("SHAKE256", SMALL, { length: 0 })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    await expect(digestStream("BLAKE3", SMALL, { length: 5000 })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
  });

  it("stops with ABORTED when cancelled", async () => {
    const controller = new AbortController();
    const run = digestStream("SHA3-256", new Blob([BIG]), {
      chunkSize: 65536,
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 65536 * 2) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
  });
});
