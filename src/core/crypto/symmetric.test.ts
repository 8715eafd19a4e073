import { createCipheriv, createDecipheriv } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { bytesToHex, hexToBytes, utf8ToBytes } from "./encoding";
import { cipherInfo, SYMMETRIC_CIPHERS, symmetricDecrypt, symmetricEncrypt } from "./symmetric";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

// 1000 bytes: not a multiple of the block size, so CBC padding and a partial CTR block are exercised.
const PLAIN = utf8ToBytes(`Abacus ✓ openssl enc interop\n${"0123456789".repeat(97)}`);
const PASSWORD = "tr0ub4dor & 3 ✓";
o.write("plain.bin", PLAIN);

const OPENSSL_CIPHERS = SYMMETRIC_CIPHERS.filter((c) => cipherInfo(c).openssl);

describe("openssl enc, both ways", () => {
  for (const cipher of OPENSSL_CIPHERS) {
    const name = cipherInfo(cipher).openssl ?? "";
    it(`${cipher}: -pbkdf2 (defaults, and -iter 1000 -md sha512), legacy EVP_BytesToKey, and -K/-iv`, async () => {
      // Ours → openssl.
      const mine = await symmetricEncrypt(cipher, PLAIN, {
        kind: "password",
        password: PASSWORD,
        kdf: "pbkdf2",
      });
      o.write("mine.enc", mine.output);
      const back = o.run([
        "enc",
        "-d",
        `-${name}`,
        "-pbkdf2",
        "-pass",
        `pass:${PASSWORD}`,
        "-in",
        "mine.enc",
      ]);
      expect(bytesToHex(back)).toBe(bytesToHex(PLAIN));
      // openssl → ours.
      const theirs = o.run(["enc", `-${name}`, "-pbkdf2", "-pass", `pass:${PASSWORD}`, "-in", "plain.bin"]);
      const opened = await symmetricDecrypt(cipher, new Uint8Array(theirs), {
        kind: "password",
        password: PASSWORD,
        kdf: "pbkdf2",
      });
      expect(bytesToHex(opened)).toBe(bytesToHex(PLAIN));

      // A fixed salt gives openssl's bytes exactly, with other -iter and -md.
      const salt = hexToBytes("0102030405060708");
      const fixed = await symmetricEncrypt(cipher, PLAIN, {
        kind: "password",
        password: PASSWORD,
        kdf: "pbkdf2",
        iterations: 1000,
        hash: "SHA-512",
        salt,
      });
      const args = [
        "-pbkdf2",
        "-iter",
        "1000",
        "-md",
        "sha512",
        "-S",
        "0102030405060708",
        "-pass",
        `pass:${PASSWORD}`,
      ];
      // OpenSSL 3 leaves out the "Salted__" header when the salt is given with -S; the rest is the same.
      expect(bytesToHex(fixed.output.subarray(0, 16))).toBe(
        `${bytesToHex(utf8ToBytes("Salted__"))}0102030405060708`,
      );
      expect(bytesToHex(fixed.output.subarray(16))).toBe(
        bytesToHex(o.run(["enc", `-${name}`, ...args, "-in", "plain.bin"])),
      );
      const printed = o.run(["enc", `-${name}`, ...args, "-P"]).toString();
      expect(printed).toContain(`key=${bytesToHex(fixed.key).toUpperCase()}`);
      expect(printed).toContain(`iv =${bytesToHex(fixed.iv).toUpperCase()}`);

      // Legacy key derivation (no -pbkdf2; OpenSSL 3 warns but still writes and reads it).
      const legacy = await symmetricEncrypt(cipher, PLAIN, {
        kind: "password",
        password: PASSWORD,
        kdf: "legacy",
        salt,
      });
      const legacyFixed = o.run([
        "enc",
        `-${name}`,
        "-md",
        "sha256",
        "-S",
        "0102030405060708",
        "-pass",
        `pass:${PASSWORD}`,
        "-in",
        "plain.bin",
      ]);
      expect(bytesToHex(legacy.output.subarray(16))).toBe(bytesToHex(legacyFixed));
      o.write("legacy.enc", legacy.output);
      const legacyBack = o.run([
        "enc",
        "-d",
        `-${name}`,
        "-md",
        "sha256",
        "-pass",
        `pass:${PASSWORD}`,
        "-in",
        "legacy.enc",
      ]);
      expect(bytesToHex(legacyBack)).toBe(bytesToHex(PLAIN));
      const legacyTheirs = o.run([
        "enc",
        `-${name}`,
        "-md",
        "sha256",
        "-pass",
        `pass:${PASSWORD}`,
        "-in",
        "plain.bin",
      ]);
      expect(
        bytesToHex(
          await symmetricDecrypt(cipher, new Uint8Array(legacyTheirs), {
            kind: "password",
            password: PASSWORD,
            kdf: "legacy",
          }),
        ),
      ).toBe(bytesToHex(PLAIN));

      // Raw key and IV.
      const { keyLength, ivLength } = cipherInfo(cipher);
      const key = new Uint8Array(keyLength).map((_, i) => i * 7 + 1);
      const iv = new Uint8Array(ivLength).map((_, i) => 255 - i);
      const raw = await symmetricEncrypt(cipher, PLAIN, { kind: "raw", key, iv });
      const rawTheirs = o.run([
        "enc",
        `-${name}`,
        "-K",
        bytesToHex(key),
        "-iv",
        bytesToHex(iv),
        "-in",
        "plain.bin",
      ]);
      expect(bytesToHex(raw.output)).toBe(bytesToHex(rawTheirs));
      expect(
        bytesToHex(await symmetricDecrypt(cipher, new Uint8Array(rawTheirs), { kind: "raw", key, iv })),
      ).toBe(bytesToHex(PLAIN));
    });
  }

  it("CBC with the wrong password is 'bad decrypt', not garbage", async () => {
    const salt = hexToBytes("a1a2a3a4a5a6a7a8");
    const { output } = await symmetricEncrypt("AES-256-CBC", PLAIN, {
      kind: "password",
      password: "right",
      kdf: "pbkdf2",
      salt,
    });
    // Deterministic: this salt and password give a last block with invalid padding.
    await expect(
      symmetricDecrypt("AES-256-CBC", output, { kind: "password", password: "wrong", kdf: "pbkdf2" }),
    ).rejects.toMatchObject({ code: "DECRYPTION_FAILED" });
    await expect(
      symmetricDecrypt("AES-256-CBC", PLAIN, { kind: "password", password: "right", kdf: "pbkdf2" }),
    ).rejects.toMatchObject({ code: "DECRYPTION_FAILED", message: expect.stringContaining("Salted__") });
  });

  it("checks key and IV lengths", async () => {
    await expect(
      symmetricEncrypt("AES-256-CBC", PLAIN, {
        kind: "raw",
        key: new Uint8Array(16),
        iv: new Uint8Array(16),
      }),
    ).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
      message: expect.stringMatching(/key must be 32 bytes/),
    });
  });
});

describe("AES-GCM (openssl enc refuses AEAD: checked against OpenSSL's library via node:crypto and NIST vectors)", () => {
  it("GCM spec test cases 1 and 2 (McGrew and Viega, AES-128, zero key and IV)", async () => {
    const key = new Uint8Array(16);
    const iv = new Uint8Array(12);
    const empty = await symmetricEncrypt("AES-128-GCM", new Uint8Array(0), { kind: "raw", key, iv });
    expect(bytesToHex(empty.output)).toBe("58e2fccefa7e3061367f1d57a4e7455a");
    const one = await symmetricEncrypt("AES-128-GCM", new Uint8Array(16), { kind: "raw", key, iv });
    expect(bytesToHex(one.output)).toBe("0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf");
  });

  for (const cipher of ["AES-128-GCM", "AES-192-GCM", "AES-256-GCM"] as const) {
    it(`${cipher} with associated data, both ways; a changed byte fails`, async () => {
      const { keyLength } = cipherInfo(cipher);
      const key = new Uint8Array(keyLength).map((_, i) => i + 3);
      const iv = hexToBytes("cafebabefacedbaddecaf888");
      const aad = utf8ToBytes("header v1");
      const nodeName = cipher.toLowerCase() as "aes-256-gcm";
      const mine = await symmetricEncrypt(cipher, PLAIN, { kind: "raw", key, iv }, { aad });
      const d = createDecipheriv(nodeName, key, iv);
      d.setAAD(aad);
      d.setAuthTag(mine.output.subarray(-16));
      const back = Buffer.concat([d.update(mine.output.subarray(0, -16)), d.final()]);
      expect(bytesToHex(back)).toBe(bytesToHex(PLAIN));

      const e = createCipheriv(nodeName, key, iv);
      e.setAAD(aad);
      const theirs = Buffer.concat([e.update(PLAIN), e.final(), e.getAuthTag()]);
      expect(bytesToHex(theirs)).toBe(bytesToHex(mine.output));
      expect(
        bytesToHex(await symmetricDecrypt(cipher, new Uint8Array(theirs), { kind: "raw", key, iv }, { aad })),
      ).toBe(bytesToHex(PLAIN));
      const bad = new Uint8Array(theirs);
      bad[5] = (bad[5] ?? 0) ^ 1;
      await expect(symmetricDecrypt(cipher, bad, { kind: "raw", key, iv }, { aad })).rejects.toMatchObject({
        code: "DECRYPTION_FAILED",
      });
    });
  }
});
