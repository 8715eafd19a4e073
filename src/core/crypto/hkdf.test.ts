import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { bytesToHex, hexToBytes } from "./encoding";
import type { HashAlgorithm } from "./hash";
import { hkdf } from "./hkdf";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

describe("HKDF", () => {
  it("RFC 5869 A.1 and A.3 (SHA-256), PRK and OKM", () => {
    const ikm = hexToBytes("0b".repeat(22));
    const salt = hexToBytes("000102030405060708090a0b0c");
    const info = hexToBytes("f0f1f2f3f4f5f6f7f8f9");
    expect(bytesToHex(hkdf({ hash: "SHA-256", key: ikm, salt, length: 0, mode: "extract" }))).toBe(
      "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
    );
    expect(bytesToHex(hkdf({ hash: "SHA-256", key: ikm, salt, info, length: 42 }))).toBe(
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    );
    // A.3: no salt, no info.
    expect(bytesToHex(hkdf({ hash: "SHA-256", key: ikm, length: 42 }))).toBe(
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
    );
  });

  it("RFC 5869 A.4 (SHA-1)", () => {
    expect(
      bytesToHex(
        hkdf({
          hash: "SHA-1",
          key: hexToBytes("0b".repeat(11)),
          salt: hexToBytes("000102030405060708090a0b0c"),
          info: hexToBytes("f0f1f2f3f4f5f6f7f8f9"),
          length: 42,
        }),
      ),
    ).toBe("085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896");
  });

  const OPENSSL: Partial<Record<HashAlgorithm, string>> = {
    "SHA-256": "SHA256",
    "SHA-512": "SHA512",
    "SHA3-256": "SHA3-256",
    "SHA-384": "SHA384",
  };
  for (const [hash, name] of Object.entries(OPENSSL) as [HashAlgorithm, string][]) {
    it(`${hash}: every mode matches openssl kdf HKDF`, () => {
      const key = hexToBytes("4c6f72656d20697073756d20646f6c6f722073697420616d6574");
      const salt = hexToBytes("73616c74");
      const info = hexToBytes("6162616375732068646b66");
      const run = (mode: string, len: number, k = key) =>
        bytesToHex(
          o.run([
            "kdf",
            "-binary",
            "-kdfopt",
            `digest:${name}`,
            "-kdfopt",
            `hexkey:${bytesToHex(k)}`,
            "-keylen",
            String(len),
            "-kdfopt",
            `hexsalt:${bytesToHex(salt)}`,
            "-kdfopt",
            `hexinfo:${bytesToHex(info)}`,
            "-kdfopt",
            `mode:${mode}`,
            "HKDF",
          ]),
        );
      expect(bytesToHex(hkdf({ hash, key, salt, info, length: 100 }))).toBe(run("EXTRACT_AND_EXPAND", 100));
      const prk = hkdf({ hash, key, salt, length: 0, mode: "extract" });
      expect(bytesToHex(prk)).toBe(run("EXTRACT_ONLY", prk.length));
      // Expand takes the PRK (RFC 5869: at least the hash length).
      expect(bytesToHex(hkdf({ hash, key: prk, info, length: 33, mode: "expand" }))).toBe(
        run("EXPAND_ONLY", 33, prk),
      );
    });
  }

  it("limits the length to 255 × the hash length", () => {
    expect(() => hkdf({ hash: "SHA-256", key: new Uint8Array(32), length: 255 * 32 + 1 })).toThrow(
      /from 1 to 8160/,
    );
    expect(hkdf({ hash: "SHA-256", key: new Uint8Array(32), length: 255 * 32 })).toHaveLength(8160);
  });
});
