import { createPrivateKey, createPublicKey } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { type ConvertResult, convertKey, type KeyTarget } from "./convert";
import { base64ToBytes, bytesToBigint, bytesToHex } from "./encoding";
import { loadPrivateKey } from "./keyio";
import { rsaKeyFromExponents, rsaPrimes } from "./rsa-crt";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

const text = (r: ConvertResult) => (r.kind === "der" ? "" : r.text);
const bytes = (r: ConvertResult) => (r.kind === "der" ? r.bytes : new Uint8Array());

const keys = {
  rsa: o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).toString(),
  ec: o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]).toString(),
  ed25519: o.run(["genpkey", "-algorithm", "ED25519"]).toString(),
};
for (const [k, pem] of Object.entries(keys)) o.write(`${k}.pem`, pem);

describe("key conversion matches what openssl writes, byte for byte", () => {
  it("RSA: PKCS#8, PKCS#1, SPKI, PKCS#1 public, as PEM and DER", async () => {
    const cases: [KeyTarget, string[]][] = [
      // (openssl pkey -outform DER writes RSA keys as PKCS#1; pkcs8 -topk8 writes PKCS#8.)
      ["pkcs8", ["pkcs8", "-topk8", "-nocrypt", "-in", "rsa.pem"]],
      ["pkcs1", ["rsa", "-in", "rsa.pem", "-traditional"]],
      ["spki", ["pkey", "-in", "rsa.pem", "-pubout"]],
      ["pkcs1-public", ["rsa", "-in", "rsa.pem", "-RSAPublicKey_out"]],
    ];
    for (const [target, args] of cases) {
      expect(text(await convertKey(keys.rsa, target)), target).toBe(o.run(args).toString());
      const der = bytes(await convertKey(keys.rsa, target, { encoding: "der" }));
      expect(bytesToHex(der), `${target} DER`).toBe(bytesToHex(o.run([...args, "-outform", "DER"])));
    }
    // and back: a PKCS#1 DER file openssl wrote converts to its PKCS#8.
    const pkcs1Der = new Uint8Array(o.run(["rsa", "-in", "rsa.pem", "-traditional", "-outform", "DER"]));
    expect(text(await convertKey(pkcs1Der, "pkcs8"))).toBe(keys.rsa);
  });

  it("EC: SEC1 and PKCS#8, and the public key of either", async () => {
    expect(text(await convertKey(keys.ec, "sec1"))).toBe(o.run(["ec", "-in", "ec.pem"]).toString());
    const sec1 = o.run(["ec", "-in", "ec.pem"]).toString();
    expect(text(await convertKey(sec1, "pkcs8"))).toBe(keys.ec);
    expect(text(await convertKey(sec1, "spki"))).toBe(o.run(["pkey", "-in", "ec.pem", "-pubout"]).toString());
  });

  it("DH and DSA private keys: PKCS#8 and the public key as openssl pkey writes them, both ways", async () => {
    // A DH or DSA private key carries x, as no public key does: it must not be taken for a public key.
    o.run(["genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048", "-out", "dh.pem"]);
    o.run([
      "genpkey",
      "-genparam",
      "-algorithm",
      "DSA",
      "-pkeyopt",
      "dsa_paramgen_bits:1024",
      "-out",
      "dsap.pem",
    ]);
    o.run(["genpkey", "-paramfile", "dsap.pem", "-out", "dsa.pem"]);
    for (const name of ["dh", "dsa"]) {
      const pem = o.run(["pkey", "-in", `${name}.pem`]).toString();
      expect(text(await convertKey(pem, "pkcs8")), name).toBe(pem);
      const pub = o.run(["pkey", "-in", `${name}.pem`, "-pubout"]).toString();
      expect(text(await convertKey(pem, "spki")), name).toBe(pub);
      expect(bytesToHex(bytes(await convertKey(pem, "pkcs8", { encoding: "der" }))), name).toBe(
        bytesToHex(o.run(["pkcs8", "-topk8", "-nocrypt", "-in", `${name}.pem`, "-outform", "DER"])),
      );
      // and what is written here opens in openssl as the same key
      o.write(`${name}-mine.pem`, text(await convertKey(pem, "pkcs8")));
      expect(o.run(["pkey", "-in", `${name}-mine.pem`, "-pubout"]).toString(), name).toBe(pub);
      await expect(convertKey(pem, "jwk")).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
      await expect(convertKey(pub, "pkcs8")).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
    }
  });

  it("refuses formats that do not fit the key", async () => {
    await expect(convertKey(keys.ed25519, "pkcs1")).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
    await expect(convertKey(keys.rsa, "sec1")).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
    const pub = o.run(["pkey", "-in", "rsa.pem", "-pubout"]).toString();
    await expect(convertKey(pub, "pkcs8")).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
  });

  it("encrypted PKCS#8 opens in openssl, and openssl's opens here", async () => {
    const enc = text(
      await convertKey(keys.ed25519, "pkcs8-encrypted", { newPassphrase: "pw ✓", iterations: 2048 }),
    );
    o.write("enc.pem", enc);
    expect(o.run(["pkey", "-in", "enc.pem", "-passin", "pass:pw ✓"]).toString()).toBe(keys.ed25519);
    const theirs = o
      .run(["pkcs8", "-topk8", "-in", "ec.pem", "-v2", "aes-256-cbc", "-passout", "pass:x"])
      .toString();
    expect(text(await convertKey(theirs, "pkcs8", { passphrase: "x" }))).toBe(keys.ec);
  });
});

describe("JWK (OpenSSL 3.0 has none: checked against OpenSSL's library through node:crypto)", () => {
  for (const kind of ["rsa", "ec", "ed25519"] as const) {
    it(`${kind}: private and public JWK equal node's, and a JWK converts back to openssl's PEM`, async () => {
      const mine = JSON.parse(text(await convertKey(keys[kind], "jwk")));
      const node = createPrivateKey(keys[kind]).export({ format: "jwk" });
      expect(mine).toEqual(node);
      const minePub = JSON.parse(text(await convertKey(keys[kind], "jwk-public")));
      expect(minePub).toEqual(createPublicKey(keys[kind]).export({ format: "jwk" }));
      expect(text(await convertKey(JSON.stringify(node), "pkcs8"))).toBe(keys[kind]);
      expect(text(await convertKey(JSON.stringify(minePub), "spki"))).toBe(
        o.run(["pkey", "-in", `${kind}.pem`, "-pubout"]).toString(),
      );
    });
  }

  it("an RSA JWK with only n, e and d (RFC 7518 §6.3.2) converts to openssl's PKCS#8, primes recovered", async () => {
    const withoutCrt = (jwk: Record<string, unknown>) => {
      const { p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
      return JSON.stringify(rest);
    };
    const cases: [string, string[]][] = [
      ["rsa.pem", []],
      ["rsa-1024.pem", ["-pkeyopt", "rsa_keygen_bits:1024"]],
      ["rsa-3072-e3.pem", ["-pkeyopt", "rsa_keygen_bits:3072", "-pkeyopt", "rsa_keygen_pubexp:3"]],
      ["rsa-2048-e65539.pem", ["-pkeyopt", "rsa_keygen_bits:2048", "-pkeyopt", "rsa_keygen_pubexp:65539"]],
    ];
    for (const [file, args] of cases) {
      if (args.length) o.run(["genpkey", "-algorithm", "RSA", ...args, "-out", file]);
      const pem = o.readText(file);
      const jwk = createPrivateKey(pem).export({ format: "jwk" }) as Record<string, unknown>;
      expect(jwk.p, file).toBeTypeOf("string");
      const nOnly = withoutCrt(jwk);
      expect(text(await convertKey(nOnly, "pkcs8")), file).toBe(o.run(["pkey", "-in", file]).toString());
      expect(bytesToHex(bytes(await convertKey(nOnly, "pkcs8", { encoding: "der" }))), file).toBe(
        bytesToHex(o.run(["pkcs8", "-topk8", "-nocrypt", "-in", file, "-outform", "DER"])),
      );
      expect(text(await convertKey(nOnly, "pkcs1")), file).toBe(
        o.run(["rsa", "-in", file, "-traditional"]).toString(),
      );
    }
    // Any d with e·d ≡ 1 mod λ(n) is the key's (OpenSSL 3 writes the least; others add λ(n) or take
    // it modulo φ(n)): d + λ(n) gives the same primes, and the CRT values of the same key.
    const key = await loadPrivateKey(keys.rsa);
    if (key.kind !== "rsa") throw new Error("not RSA");
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
    const lambda = ((key.p - 1n) * (key.q - 1n)) / gcd(key.p - 1n, key.q - 1n);
    expect(rsaPrimes(key.n, key.e, key.d + lambda)).toEqual({ p: key.p, q: key.q });
    expect(rsaKeyFromExponents(key.n, key.e, key.d + lambda)).toMatchObject({
      p: key.p,
      q: key.q,
      dp: key.dp,
      dq: key.dq,
      qi: key.qi,
    });
    // A modulus past OpenSSL's 16384 bits is refused before any arithmetic.
    const huge = (1n << 16400n) + 1n;
    expect(() => rsaPrimes(huge, 65537n, 12345n)).toThrow(/over 16384 bits/);
    // The textbook example: n = 61 × 53, e = 17, d = 2753.
    expect(rsaPrimes(3233n, 17n, 2753n)).toEqual({ p: 61n, q: 53n });
    expect(rsaKeyFromExponents(3233n, 17n, 2753n)).toMatchObject({ dp: 53n, dq: 49n, qi: 38n });
  });

  it("an RSA JWK with a wrong d, or only some of the CRT values, is refused by name", async () => {
    const jwk = createPrivateKey(keys.rsa).export({ format: "jwk" }) as Record<string, string>;
    const { p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...nOnly } = jwk;
    const d = bytesToBigint(base64ToBytes(jwk.d ?? ""));
    const wrongD = Buffer.from((d + 2n).toString(16).padStart(512, "0"), "hex").toString("base64url");
    await expect(convertKey(JSON.stringify({ ...nOnly, d: wrongD }), "pkcs8")).rejects.toMatchObject({
      code: "MALFORMED_KEY",
      message: "Malformed RSA private key: d does not match n and e",
    });
    const { dp: _, qi: __, ...partial } = jwk;
    await expect(convertKey(JSON.stringify(partial), "pkcs8")).rejects.toMatchObject({
      code: "MALFORMED_KEY",
      message: expect.stringMatching(/^Malformed JWK: "dp", "qi" missing; RFC 7518 §6\.3\.2/),
    });
  });

  it("a JWK whose d does not match x is refused", async () => {
    const jwk = createPrivateKey(keys.ed25519).export({ format: "jwk" });
    const other = createPrivateKey(o.run(["genpkey", "-algorithm", "ED25519"]).toString()).export({
      format: "jwk",
    });
    await expect(convertKey(JSON.stringify({ ...jwk, d: other.d }), "pkcs8")).rejects.toMatchObject({
      code: "MALFORMED_KEY",
    });
  });

  it("a JWK is checked as a PEM key is: lengths, curve points, p × q = n, and d against its public part", async () => {
    const b = (n: number, fill = 1) => Buffer.alloc(n, fill).toString("base64url");
    const refused: [string, object, KeyTarget, string][] = [
      ["Ed25519 d of 31 bytes", { kty: "OKP", crv: "Ed25519", x: b(32), d: b(31) }, "pkcs8", "MALFORMED_KEY"],
      ["Ed25519 x of 31 bytes", { kty: "OKP", crv: "Ed25519", x: b(31) }, "spki", "MALFORMED_KEY"],
      ["X25519 d of 30 bytes", { kty: "OKP", crv: "X25519", x: b(32), d: b(30) }, "pkcs8", "MALFORMED_KEY"],
      ["X25519 x not d's", { kty: "OKP", crv: "X25519", x: b(32, 7), d: b(32) }, "pkcs8", "MALFORMED_KEY"],
      [
        "P-256 point off the curve",
        { kty: "EC", crv: "P-256", x: b(32, 1), y: b(32, 2) },
        "spki",
        "INVALID_PUBLIC_VALUE",
      ],
      [
        "RSA with p × q ≠ n",
        {
          kty: "RSA",
          n: b(256, 0xff),
          e: "AQAB",
          d: b(256, 3),
          p: b(128, 5),
          q: b(128, 7),
          dp: b(128),
          dq: b(128),
          qi: b(128),
        },
        "pkcs8",
        "MALFORMED_KEY",
      ],
    ];
    for (const [what, jwk, target, code] of refused) {
      await expect(convertKey(JSON.stringify(jwk), target), what).rejects.toMatchObject({ code });
    }
    // A well-formed X25519 JWK (as OpenSSL's library writes it) still converts to openssl's PEM.
    o.run(["genpkey", "-algorithm", "X25519", "-out", "x25519.pem"]);
    const x = createPrivateKey(o.readText("x25519.pem")).export({ format: "jwk" });
    expect(text(await convertKey(JSON.stringify(x), "pkcs8"))).toBe(o.readText("x25519.pem"));
  });
});
