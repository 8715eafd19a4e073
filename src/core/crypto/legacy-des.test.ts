import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { encode, int, octets, oid, seq } from "./asn1";
import { desCbcDecrypt, desCbcEncrypt } from "./des";
import { bytesToHex, hexToBytes, utf8ToBytes } from "./encoding";
import { exportPrivateKeyPem, inspect, loadPrivateKey } from "./index";
import { pbkdf1, pkcs12Kdf, pkcs12Password } from "./legacy-kdf";
import { OID } from "./oids";
import { toPem } from "./pem";

// DES/3DES-protected keys, both ways against OpenSSL 3.0 (single DES lives in its legacy provider).
const o = new OpenSslDir();
afterAll(() => o.cleanup());
const LEGACY = ["-provider", "legacy", "-provider", "default"];

const rsaPem = o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"]).toString();
const ecPem = o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]).toString();
o.write("rsa.pem", rsaPem);
o.write("ec.pem", ecPem);
const pkcs8Der = new Uint8Array(o.run(["pkcs8", "-topk8", "-nocrypt", "-in", "ec.pem", "-outform", "DER"]));
const PASS = "correct horse ✓";
const ecPlain = loadPrivateKey(ecPem).then(exportPrivateKeyPem);

/** OpenSSL re-encodes what it decrypts (adds the curve to SEC1): compare keys, not bytes. */
async function sameKey(der: Uint8Array) {
  expect(await exportPrivateKeyPem(await loadPrivateKey(der))).toBe(await ecPlain);
}

async function samePem(a: string, b: string) {
  expect(await exportPrivateKeyPem(await loadPrivateKey(a, { passphrase: PASS }))).toBe(
    await exportPrivateKeyPem(await loadPrivateKey(b)),
  );
}

describe("the DES block cipher (node-forge) against openssl enc", () => {
  const data = utf8ToBytes("twenty-three bytes long"); // pads to 24 bytes
  for (const [cipher, name, keyHex, extra] of [
    ["DES-CBC", "des-cbc", "133457799bbcdff1", LEGACY],
    ["DES-EDE3-CBC", "des-ede3-cbc", "0123456789abcdeff1e0d3c2b5a49786fedcba987654321013345779", []],
  ] as const) {
    const key = hexToBytes(keyHex.slice(0, cipher === "DES-CBC" ? 16 : 48));
    const iv = hexToBytes("fedcba9876543210");
    const args = ["enc", `-${name}`, "-K", bytesToHex(key), "-iv", bytesToHex(iv), ...extra];
    it(`${cipher}: what this encrypts openssl decrypts, and the reverse`, async () => {
      const mine = await desCbcEncrypt(cipher, key, iv, data);
      expect(mine.length).toBe(24);
      expect(new Uint8Array(o.run([...args, "-d"], mine))).toEqual(data);
      const theirs = new Uint8Array(o.run([...args, "-e"], data));
      expect(bytesToHex(theirs)).toBe(bytesToHex(mine));
      expect(await desCbcDecrypt(cipher, key, iv, theirs)).toEqual(data);
    });
  }

  it("refuses a wrong padding and a ragged length", async () => {
    const key = hexToBytes("133457799bbcdff1");
    const iv = new Uint8Array(8);
    const c = await desCbcEncrypt("DES-CBC", key, iv, utf8ToBytes("x"));
    const wrongKey = hexToBytes("133457799bbcdff3");
    // A wrong key gives random padding; over a few keys at least one check must refuse.
    let refused = 0;
    for (let i = 0; i < 8; i++) {
      const k = wrongKey.slice();
      k[0] = (k[0] ?? 0) ^ (i << 1);
      if (i === 0) k[7] = (k[7] ?? 0) ^ 2;
      await desCbcDecrypt("DES-CBC", k, iv, c).catch((e) => {
        expect(e).toMatchObject({ code: "DECRYPTION_FAILED" });
        refused++;
      });
    }
    expect(refused).toBeGreaterThan(0);
    await expect(desCbcDecrypt("DES-CBC", key, iv, c.subarray(0, 7))).rejects.toMatchObject({
      code: "DECRYPTION_FAILED",
    });
  });
});

describe("PKCS#8 PBES1 and PKCS#12 PBE keys openssl writes open here", () => {
  for (const [v1, scheme, kdf] of [
    ["PBE-MD5-DES", "PBES1 pbeWithMD5AndDES-CBC", "PBKDF1"],
    ["PBE-SHA1-DES", "PBES1 pbeWithSHA1AndDES-CBC", "PBKDF1"],
    ["PBE-SHA1-3DES", "PKCS#12 pbeWithSHAAnd3-KeyTripleDES-CBC", "PKCS#12 KDF"],
  ] as const) {
    it(`openssl pkcs8 -topk8 -v1 ${v1} (RSA and EC)`, async () => {
      for (const [file, plain] of [
        ["rsa.pem", rsaPem],
        ["ec.pem", ecPem],
      ] as const) {
        const enc = o
          .run(["pkcs8", "-topk8", "-v1", v1, "-in", file, "-passout", `pass:${PASS}`, ...LEGACY])
          .toString();
        expect(enc).toContain("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        await samePem(enc, plain);
        await expect(loadPrivateKey(enc, { passphrase: "wrong" })).rejects.toMatchObject({
          code: "WRONG_PASSPHRASE",
        });
        await expect(loadPrivateKey(enc)).rejects.toMatchObject({ code: "PASSPHRASE_REQUIRED" });
        const [b] = await inspect(enc);
        expect(b?.error).toBeUndefined();
        expect(b?.encryption).toMatchObject({ scheme, kdf, iterations: 2048 });
        const [open] = await inspect(enc, { passphrase: PASS });
        expect(open?.key?.type).toBe(file === "rsa.pem" ? "RSA" : "EC");
      }
    });
  }

  for (const v2 of ["des3", "des"] as const) {
    it(`openssl pkcs8 -topk8 -v2 ${v2} (PBES2 with DES)`, async () => {
      const enc = o
        .run(["pkcs8", "-topk8", "-v2", v2, "-in", "ec.pem", "-passout", `pass:${PASS}`, ...LEGACY])
        .toString();
      await samePem(enc, ecPem);
      const [b] = await inspect(enc);
      expect(b?.encryption?.cipher).toBe(v2 === "des3" ? "des-ede3-cbc" : "des-cbc");
    });
  }
});

describe("PBES1 and PKCS#12 PBE keys made here open in openssl (the KDFs and the cipher, the other way)", () => {
  // Test-only writers: the product reads these formats but writes PBES2/AES.
  const salt = hexToBytes("0011223344556677");
  const iterations = 1500;
  const params = seq(octets(salt), int(iterations));

  it("PBES1 pbeWithMD5AndDES-CBC and pbeWithSHA1AndDES-CBC", async () => {
    for (const [schemeOid, hash] of [
      [OID.pbeWithMD5AndDesCbc, "MD5"],
      [OID.pbeWithSHA1AndDesCbc, "SHA-1"],
    ] as const) {
      const dk = pbkdf1(hash, utf8ToBytes(PASS), salt, iterations, 16);
      const body = await desCbcEncrypt("DES-CBC", dk.subarray(0, 8), dk.subarray(8), pkcs8Der);
      const der = encode(seq(seq(oid(schemeOid), params), octets(body)));
      const f = o.write(`p1-${hash}.der`, der);
      const out = o
        .run(["pkcs8", "-inform", "DER", "-in", f, "-passin", `pass:${PASS}`, "-outform", "DER", ...LEGACY])
        .subarray(0);
      await sameKey(new Uint8Array(out));
      // And it reads back here.
      expect(await exportPrivateKeyPem(await loadPrivateKey(der, { passphrase: PASS }))).toBe(
        await exportPrivateKeyPem(await loadPrivateKey(ecPem)),
      );
    }
  });

  it("PKCS#12 pbeWithSHAAnd3-KeyTripleDES-CBC with a non-ASCII passphrase", async () => {
    const pass = pkcs12Password(PASS);
    const key = pkcs12Kdf(pass, salt, 1, iterations, 24);
    const iv = pkcs12Kdf(pass, salt, 2, iterations, 8);
    const body = await desCbcEncrypt("DES-EDE3-CBC", key, iv, pkcs8Der);
    const der = encode(seq(seq(oid(OID.pbeWithSHAAnd3KeyTripleDesCbc), params), octets(body)));
    const f = o.write("p12.der", der);
    const out = o.run(["pkcs8", "-inform", "DER", "-in", f, "-passin", `pass:${PASS}`, "-outform", "DER"]);
    await sameKey(new Uint8Array(out));
  });

  it("the PKCS#12 KDF gives more than one hash block as OpenSSL does (RFC 7292 B.2 chaining)", async () => {
    // 3DES needs 24 bytes of key material: the second SHA-1 block comes from the I_j + B + 1 update above.
    expect(pkcs12Kdf(pkcs12Password("x"), salt, 1, 1, 40).length).toBe(40);
    expect(bytesToHex(pkcs12Kdf(pkcs12Password("x"), salt, 1, 1, 24)).slice(0, 40)).toBe(
      bytesToHex(pkcs12Kdf(pkcs12Password("x"), salt, 1, 1, 20)),
    );
  });
});

describe("legacy encrypted PEM with DES (Proc-Type: 4,ENCRYPTED)", () => {
  for (const [flag, cipher, cmd, file, plain] of [
    ["-des3", "DES-EDE3-CBC", "rsa", "rsa.pem", rsaPem],
    ["-des", "DES-CBC", "ec", "ec.pem", ecPem],
  ] as const) {
    it(`opens openssl ${cmd} ${flag} and names a wrong passphrase`, async () => {
      const enc = o
        .run([
          cmd,
          "-in",
          file,
          flag,
          ...(cmd === "rsa" ? ["-traditional"] : []),
          "-passout",
          `pass:${PASS}`,
          ...LEGACY,
        ])
        .toString();
      expect(enc).toContain(`DEK-Info: ${cipher},`);
      await samePem(enc, plain);
      await expect(loadPrivateKey(enc, { passphrase: "wrong" })).rejects.toMatchObject({
        code: "WRONG_PASSPHRASE",
      });
      const [b] = await inspect(enc, { passphrase: PASS });
      expect(b?.encryption?.cipher).toBe(cipher);
      expect(b?.key?.type).toBe(cmd === "rsa" ? "RSA" : "EC");
    });
  }

  it("a DES legacy PEM made here opens in openssl", async () => {
    const { bytesToKey } = await import("./legacy-kdf");
    const iv = hexToBytes("0102030405060708");
    const sec1 = new Uint8Array(o.run(["ec", "-in", "ec.pem", "-outform", "DER"]));
    const body = await desCbcEncrypt("DES-EDE3-CBC", bytesToKey(utf8ToBytes(PASS), iv, 24), iv, sec1);
    const pem = toPem("EC PRIVATE KEY", body).replace(
      "-----\n",
      `-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: DES-EDE3-CBC,${bytesToHex(iv).toUpperCase()}\n\n`,
    );
    const f = o.write("made.pem", pem);
    const out = o.run(["ec", "-in", f, "-passin", `pass:${PASS}`, "-outform", "DER"]);
    expect(new Uint8Array(out)).toEqual(sec1);
  });
});
