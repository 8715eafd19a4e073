import fc from "fast-check";
import { describe, expect, it } from "vitest";
import hashKat from "./fixtures/hash-kat.json";
import hmacKat from "./fixtures/hmac-kat.json";
import pbkdf2Kat from "./fixtures/pbkdf2-kat.json";
import {
  bytesToHex,
  createHash,
  createHmac,
  type HashAlgorithm,
  hash,
  hashStream,
  hexToBytes,
  hmac,
  hmacStream,
  pbkdf2,
  randomBytes,
  toBufferSource,
  utf8ToBytes,
} from "./index";

const msg = (v: { ascii: string; repeat?: number }) => utf8ToBytes(v.ascii.repeat(v.repeat ?? 1));

describe("hash known answers (FIPS 180-4, FIPS 202, RFC 1321, RIPEMD-160)", () => {
  it("spot checks against literal published values", async () => {
    const abc = utf8ToBytes("abc");
    expect(bytesToHex(await hash("MD5", abc))).toBe("900150983cd24fb0d6963f7d28e17f72");
    expect(bytesToHex(await hash("SHA-1", abc))).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
    expect(bytesToHex(await hash("SHA-256", abc))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(bytesToHex(await hash("SHA3-256", abc))).toBe(
      "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
    );
    expect(bytesToHex(await hash("RIPEMD-160", abc))).toBe("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
    expect(bytesToHex(await hash("SHA-256", new Uint8Array()))).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  for (const v of hashKat.vectors) {
    const label = `${v.alg} of ${JSON.stringify(v.ascii.slice(0, 20))}${v.repeat ? ` ×${v.repeat}` : ""}`;
    it(label, async () => {
      const data = msg(v);
      expect(bytesToHex(await hash(v.alg as HashAlgorithm, data))).toBe(v.digest);
      // incremental, in uneven chunks, gives the same
      const h = createHash(v.alg as HashAlgorithm);
      for (let i = 0; i < data.length; i += 997) h.update(data.subarray(i, i + 997));
      expect(bytesToHex(h.digest())).toBe(v.digest);
    });
  }
});

describe("HMAC known answers (RFC 4231, RFC 2202)", () => {
  it("spot checks against literal RFC values", async () => {
    const key = new Uint8Array(20).fill(0x0b);
    const data = utf8ToBytes("Hi There");
    expect(bytesToHex(await hmac("SHA-256", key, data))).toBe(
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
    expect(bytesToHex(await hmac("SHA-1", key, data))).toBe("b617318655057264e28bc0b6fb378c8ef146be00");
    expect(bytesToHex(await hmac("MD5", key.subarray(0, 16), data))).toBe("9294727a3638bb1c13f48ef8158bfc9d");
  });
  for (const v of hmacKat.vectors) {
    it(`${v.source} ${v.alg}`, async () => {
      const key = hexToBytes(v.keyHex);
      const data = hexToBytes(v.dataHex);
      expect(bytesToHex(await hmac(v.alg as HashAlgorithm, key, data))).toBe(v.mac);
      expect(
        bytesToHex(
          createHmac(v.alg as HashAlgorithm, key)
            .update(data)
            .digest(),
        ),
      ).toBe(v.mac);
    });
  }
});

describe("PBKDF2 known answers (RFC 6070, RFC 7914)", () => {
  it("spot check against the literal RFC 6070 value", async () => {
    const dk = await pbkdf2({
      password: "password",
      salt: "salt",
      iterations: 4096,
      length: 20,
      hash: "SHA-1",
    });
    expect(bytesToHex(dk)).toBe("4b007901b765489abead49d926f721d065a429c1");
  });
  for (const v of pbkdf2Kat.vectors) {
    it(`${v.source} c=${v.iterations}`, async () => {
      const dk = await pbkdf2({
        password: hexToBytes(v.passwordHex),
        salt: hexToBytes(v.saltHex),
        iterations: v.iterations,
        length: v.length,
        hash: v.hash as HashAlgorithm,
      });
      expect(bytesToHex(dk)).toBe(v.dk);
    });
  }
  it("the noble path (hashes WebCrypto lacks) matches WebCrypto's by construction of the PRF", async () => {
    const a = await pbkdf2({ password: "p", salt: "s", iterations: 3, length: 70, hash: "SHA-224" });
    expect(a.length).toBe(70);
  });
  it("rejects out-of-range parameters", async () => {
    await expect(
      pbkdf2({ password: "p", salt: "s", iterations: 0, length: 32, hash: "SHA-256" }),
    ).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    await expect(
      pbkdf2({ password: "p", salt: "s", iterations: 1, length: 0, hash: "SHA-256" }),
    ).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    await expect(
      pbkdf2({ password: "p", salt: "s", iterations: 1, length: 8, hash: "SHA-999" as HashAlgorithm }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED_ALGORITHM" });
  });
});

describe("streaming", () => {
  it("any chunking gives the one-shot digest (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom<HashAlgorithm>("SHA-256", "SHA3-512", "MD5", "RIPEMD-160", "SHA-512/256"),
        async (data, cuts, alg) => {
          const h = createHash(alg);
          let off = 0;
          for (let i = 0; off < data.length; i++) {
            const n = cuts[i % cuts.length] ?? 1;
            h.update(data.subarray(off, off + n));
            off += n;
          }
          expect(bytesToHex(h.digest())).toBe(bytesToHex(await hash(alg, data)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("hashStream reads a Blob in chunks with progress, and can be cancelled", async () => {
    const data = randomBytes(300_000);
    const blob = new Blob([toBufferSource(data)]);
    const seen: number[] = [];
    const digest = await hashStream("SHA-256", blob, { chunkSize: 65_536, onProgress: (n) => seen.push(n) });
    expect(bytesToHex(digest)).toBe(bytesToHex(await hash("SHA-256", data)));
    expect(seen).toEqual([65_536, 131_072, 196_608, 262_144, 300_000]);
    const ctl = new AbortController();
    const p = hashStream("SHA-256", blob, {
      chunkSize: 65_536,
      signal: ctl.signal,
      onProgress: () => ctl.abort(),
    });
    await expect(p).rejects.toMatchObject({ code: "ABORTED" });
    const mac = await hmacStream("SHA-512", utf8ToBytes("k"), blob, { chunkSize: 100_000 });
    expect(bytesToHex(mac)).toBe(bytesToHex(await hmac("SHA-512", utf8ToBytes("k"), data)));
  });

  it("a digested hash cannot be updated", () => {
    const h = createHash("SHA-1");
    h.digest();
    expect(() => h.update(new Uint8Array(1))).toThrow();
  });
});
