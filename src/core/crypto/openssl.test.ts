import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import {
  bytesToHex,
  decrypt,
  deriveSharedSecret,
  EC_CURVES,
  type EcCurve,
  encrypt,
  exportPrivateKeyPem,
  exportPublicKeyPem,
  generateKeyPair,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  hash,
  hexToBytes,
  hmac,
  inspect,
  isCryptoInputError,
  loadPrivateKey,
  loadPublicKey,
  parseCertificate,
  parsePem,
  pbkdf2,
  randomBytes,
  sign,
  utf8ToBytes,
  verify,
} from "./index";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

const MESSAGE = utf8ToBytes("Abacus ✓ interop message\n");
const msgFile = () => o.write("msg.bin", MESSAGE);

const OPENSSL_DIGEST: Record<HashAlgorithm, string> = {
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
};

const CURVE_NAME: Record<EcCurve, string> = {
  "P-256": "P-256",
  "P-384": "P-384",
  "P-521": "P-521",
  secp256k1: "secp256k1",
};

describe("hashes, HMAC and PBKDF2 agree with openssl", () => {
  const data = randomBytes(100_003);
  const key = randomBytes(37);
  for (const alg of HASH_ALGORITHMS) {
    it(`${alg} digest and HMAC`, async () => {
      const file = o.write(`h-${alg.replace("/", "_")}.bin`, data);
      const name = OPENSSL_DIGEST[alg];
      let args = [`-${name}`];
      if (!o.ok(["dgst", ...args, file])) args = ["-provider", "legacy", "-provider", "default", `-${name}`];
      // every algorithm here is in OpenSSL 3.0 (RIPEMD-160 in the default provider since 3.0.7); fail loudly if not
      const dgst = o
        .run(["dgst", ...args, "-r", file])
        .toString()
        .split(" ")[0];
      expect(bytesToHex(await hash(alg, data))).toBe(dgst);
      const mac = o
        .run(["dgst", ...args, "-mac", "HMAC", "-macopt", `hexkey:${bytesToHex(key)}`, "-r", file])
        .toString()
        .split(" ")[0];
      expect(bytesToHex(await hmac(alg, key, data))).toBe(mac);
    });
  }

  for (const alg of ["SHA-1", "SHA-256", "SHA-512", "SHA3-256", "SHA-224"] as const) {
    it(`PBKDF2-HMAC-${alg}`, async () => {
      const out = o
        .run([
          "kdf",
          "-keylen",
          "40",
          "-kdfopt",
          `digest:${OPENSSL_DIGEST[alg].toUpperCase()}`,
          "-kdfopt",
          "pass:correct horse",
          "-kdfopt",
          "hexsalt:0011223344556677",
          "-kdfopt",
          "iter:1500",
          "PBKDF2",
        ])
        .toString()
        .trim()
        .replace(/:/g, "")
        .toLowerCase();
      const ours = await pbkdf2({
        password: "correct horse",
        salt: hexToBytes("0011223344556677"),
        iterations: 1500,
        length: 40,
        hash: alg,
      });
      expect(bytesToHex(ours)).toBe(out);
    });
  }
});

describe("keys made by openssl parse with the right parameters", () => {
  it("RSA: PKCS#8, PKCS#1 private, SPKI and PKCS#1 public", async () => {
    o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.pem"]);
    o.run(["pkey", "-in", "rsa.pem", "-traditional", "-out", "rsa1.pem"]);
    o.run(["pkey", "-in", "rsa.pem", "-pubout", "-out", "rsapub.pem"]);
    o.run(["rsa", "-in", "rsa.pem", "-RSAPublicKey_out", "-out", "rsapub1.pem"]);
    expect(o.readText("rsa1.pem")).toContain("BEGIN RSA PRIVATE KEY");
    const [pkcs8] = await inspect(o.readText("rsa.pem"));
    expect(pkcs8?.format).toBe("PKCS#8");
    expect(pkcs8?.key?.rsa).toEqual({ modulusBits: 2048, publicExponent: "65537", pss: false });
    expect((await inspect(o.readText("rsa1.pem")))[0]?.format).toBe("PKCS#1 private");
    expect((await inspect(o.readText("rsapub.pem")))[0]?.format).toBe("SPKI");
    const [p1pub] = await inspect(o.readText("rsapub1.pem"));
    expect(p1pub?.format).toBe("PKCS#1 public");
    expect(p1pub?.key?.bits).toBe(2048);
    // unlabeled DER (base64 and hex) is recognised by shape
    const der = parsePem(o.readText("rsa.pem")).der;
    expect((await inspect(bytesToHex(der)))[0]?.format).toBe("PKCS#8");
    // our re-encodings are byte-identical to OpenSSL's
    const k = await loadPrivateKey(o.readText("rsa.pem"));
    expect(await exportPrivateKeyPem(k)).toBe(o.readText("rsa.pem"));
    expect(await exportPrivateKeyPem(k, { format: "pkcs1" })).toBe(o.readText("rsa1.pem"));
    expect(exportPublicKeyPem(await loadPublicKey(o.readText("rsa.pem")))).toBe(o.readText("rsapub.pem"));
  });

  for (const curve of EC_CURVES) {
    it(`EC ${curve}: PKCS#8, SEC1, SPKI (compressed too)`, async () => {
      const f = `ec-${curve}`;
      o.run([
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        `ec_paramgen_curve:${CURVE_NAME[curve]}`,
        "-out",
        `${f}.pem`,
      ]);
      o.run(["ec", "-in", `${f}.pem`, "-out", `${f}-sec1.pem`]);
      o.run(["ec", "-in", `${f}.pem`, "-pubout", "-conv_form", "compressed", "-out", `${f}-cpub.pem`]);
      const [p8] = await inspect(o.readText(`${f}.pem`));
      expect(p8?.key?.ec?.curve).toBe(curve);
      const [sec1] = await inspect(o.readText(`${f}-sec1.pem`));
      expect(sec1?.format).toBe("SEC1");
      expect(sec1?.key?.ec?.curve).toBe(curve);
      const k = await loadPrivateKey(o.readText(`${f}-sec1.pem`));
      expect(await exportPrivateKeyPem(k, { format: "sec1" })).toBe(o.readText(`${f}-sec1.pem`));
      const pub = await loadPublicKey(o.readText(`${f}-cpub.pem`));
      expect(pub).toEqual(await loadPublicKey(o.readText(`${f}.pem`)));
    });
  }

  it("Ed25519, X25519, DSA 2048/256 and DH ffdhe2048", async () => {
    o.run(["genpkey", "-algorithm", "ED25519", "-out", "ed.pem"]);
    o.run(["genpkey", "-algorithm", "X25519", "-out", "x.pem"]);
    o.run([
      "genpkey",
      "-genparam",
      "-algorithm",
      "DSA",
      "-pkeyopt",
      "dsa_paramgen_bits:2048",
      "-pkeyopt",
      "dsa_paramgen_q_bits:256",
      "-out",
      "dsap.pem",
    ]);
    o.run(["genpkey", "-paramfile", "dsap.pem", "-out", "dsa.pem"]);
    o.run(["genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048", "-out", "dh.pem"]);
    expect((await inspect(o.readText("ed.pem")))[0]?.key?.type).toBe("Ed25519");
    expect((await inspect(o.readText("x.pem")))[0]?.key?.type).toBe("X25519");
    const [dsa] = await inspect(o.readText("dsa.pem"));
    expect(dsa?.key?.dsa).toEqual({ pBits: 2048, qBits: 256 });
    const [dh] = await inspect(o.readText("dh.pem"));
    expect(dh?.key?.dh).toMatchObject({ pBits: 2048, group: "ffdhe2048", encoding: "PKCS#3" });
    for (const f of ["ed.pem", "x.pem", "dsa.pem", "dh.pem"]) {
      expect(await exportPrivateKeyPem(await loadPrivateKey(o.readText(f)))).toBe(o.readText(f));
    }
  });

  it("a self-signed certificate with SANs", async () => {
    o.run([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-384",
      "-nodes",
      "-keyout",
      "ck.pem",
      "-out",
      "cert.pem",
      "-days",
      "30",
      "-subj",
      "/C=GB/O=Abacus Ltd/CN=abacus.test",
      "-addext",
      "subjectAltName=DNS:abacus.test,DNS:*.abacus.test,IP:127.0.0.1,IP:::1,email:ops@abacus.test,URI:https://abacus.test/",
      "-addext",
      "extendedKeyUsage=serverAuth,clientAuth",
    ]); // prettier-ignore
    const cert = await parseCertificate(parsePem(o.readText("cert.pem")).der);
    expect(cert.subject).toBe("C=GB, O=Abacus Ltd, CN=abacus.test");
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.version).toBe(3);
    expect(cert.subjectAltNames).toEqual([
      { type: "dns", value: "abacus.test" },
      { type: "dns", value: "*.abacus.test" },
      { type: "ip", value: "127.0.0.1" },
      { type: "ip", value: "::1" },
      { type: "email", value: "ops@abacus.test" },
      { type: "uri", value: "https://abacus.test/" },
    ]);
    expect(cert.publicKey).toMatchObject({ type: "EC", bits: 384, curve: "P-384" });
    const serial = o.run(["x509", "-in", "cert.pem", "-noout", "-serial"]).toString().trim().split("=")[1];
    expect(cert.serial.replace(/:/g, "")).toBe(serial);
    const fp256 = o.run(["x509", "-in", "cert.pem", "-noout", "-fingerprint", "-sha256"]).toString();
    const fp1 = o.run(["x509", "-in", "cert.pem", "-noout", "-fingerprint", "-sha1"]).toString();
    expect(fp256.trim().split("=")[1]).toBe(cert.fingerprints.sha256);
    expect(fp1.trim().split("=")[1]).toBe(cert.fingerprints.sha1);
    const end = o.run(["x509", "-in", "cert.pem", "-noout", "-enddate", "-dateopt", "iso_8601"]).toString();
    expect(end.trim().split("=")[1]?.replace(" ", "T")).toBe(cert.notAfter);
    const names = cert.extensions.map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(["subjectKeyIdentifier", "basicConstraints", "subjectAltName"]),
    );
    expect(cert.extensions.find((e) => e.name === "extKeyUsage")?.summary).toBe("serverAuth, clientAuth");
    expect(cert.extensions.find((e) => e.name === "basicConstraints")?.critical).toBe(true);
    const [insp] = await inspect(o.readText("cert.pem"));
    expect(insp?.format).toBe("X.509 certificate");
    expect(insp?.asn1?.root.name).toBe("SEQUENCE");
    // the certificate's key verifies signatures made by its private key
    const sig = await sign(o.readText("ck.pem"), MESSAGE, { alg: "ECDSA" });
    expect(await verify(o.readText("cert.pem"), MESSAGE, sig, { alg: "ECDSA" })).toBe(true);
  });
});

describe("encrypted PKCS#8 both ways", () => {
  beforeAll(() => {
    o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "plain.pem"]);
  });

  it("openssl pkcs8 -topk8 -v2 aes-256-cbc decrypts here; a wrong passphrase is WRONG_PASSPHRASE", async () => {
    o.run([
      "pkcs8",
      "-topk8",
      "-v2",
      "aes-256-cbc",
      "-in",
      "plain.pem",
      "-passout",
      "pass:s3cret ü",
      "-out",
      "enc.pem",
    ]);
    const [info] = await inspect(o.readText("enc.pem"));
    expect(info?.format).toBe("Encrypted PKCS#8");
    expect(info?.encryption).toMatchObject({ kdf: "PBKDF2", prf: "hmacWithSHA256", cipher: "aes256-CBC" });
    const k = await loadPrivateKey(o.readText("enc.pem"), { passphrase: "s3cret ü" });
    expect(k).toEqual(await loadPrivateKey(o.readText("plain.pem")));
    await expect(loadPrivateKey(o.readText("enc.pem"), { passphrase: "wrong" })).rejects.toMatchObject({
      code: "WRONG_PASSPHRASE",
    });
    await expect(loadPrivateKey(o.readText("enc.pem"))).rejects.toMatchObject({
      code: "PASSPHRASE_REQUIRED",
    });
  });

  it("OpenSSL 3's defaults (genpkey -aes256, pkcs8 -topk8), -v2 aes-128-cbc with hmacWithSHA512 and scrypt", async () => {
    o.run(["genpkey", "-algorithm", "ED25519", "-aes256", "-pass", "pass:pw", "-out", "e1.pem"]);
    o.run(["pkcs8", "-topk8", "-in", "plain.pem", "-passout", "pass:pw", "-out", "e2.pem"]);
    o.run([
      "pkcs8",
      "-topk8",
      "-v2",
      "aes-128-cbc",
      "-v2prf",
      "hmacWithSHA512",
      "-in",
      "plain.pem",
      "-passout",
      "pass:pw",
      "-out",
      "e3.pem",
    ]);
    o.run(["pkcs8", "-topk8", "-scrypt", "-in", "plain.pem", "-passout", "pass:pw", "-out", "e4.pem"]);
    expect((await loadPrivateKey(o.readText("e1.pem"), { passphrase: "pw" })).kind).toBe("ed25519");
    const plain = await loadPrivateKey(o.readText("plain.pem"));
    for (const f of ["e2.pem", "e3.pem", "e4.pem"]) {
      expect(await loadPrivateKey(o.readText(f), { passphrase: "pw" })).toEqual(plain);
    }
  });

  it("ours decrypts with openssl", async () => {
    const k = await loadPrivateKey(o.readText("plain.pem"));
    o.write("ours-enc.pem", await exportPrivateKeyPem(k, { passphrase: "pässword", iterations: 10_000 }));
    const out = o.run(["pkey", "-in", "ours-enc.pem", "-passin", "pass:pässword"]).toString();
    expect(out).toBe(o.readText("plain.pem"));
    expect(o.ok(["pkey", "-in", "ours-enc.pem", "-passin", "pass:nope"])).toBe(false);
  });
});

describe("signatures both ways", () => {
  it("RSA PKCS#1 v1.5 and PSS", async () => {
    msgFile();
    const pair = await generateKeyPair({ type: "RSA", bits: 2048 });
    o.write("our-rsa.pem", pair.privatePem);
    o.write("our-rsa.pub", pair.publicPem);
    o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "their-rsa.pem"]);
    o.run(["pkey", "-in", "their-rsa.pem", "-pubout", "-out", "their-rsa.pub"]);
    for (const hashAlg of ["SHA-256", "SHA-1", "SHA-512"] as const) {
      const md = OPENSSL_DIGEST[hashAlg];
      // ours → openssl
      o.write("s1.sig", await sign(pair.privatePem, MESSAGE, { alg: "RSASSA-PKCS1-v1_5", hash: hashAlg }));
      expect(o.ok(["dgst", `-${md}`, "-verify", "our-rsa.pub", "-signature", "s1.sig", "msg.bin"])).toBe(
        true,
      );
      o.write("s2.sig", await sign(pair.privatePem, MESSAGE, { alg: "RSA-PSS", hash: hashAlg }));
      const pssOpts = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:auto"];
      expect(
        o.ok(["dgst", `-${md}`, ...pssOpts, "-verify", "our-rsa.pub", "-signature", "s2.sig", "msg.bin"]),
      ).toBe(true);
      // openssl → ours (PSS with its default salt length and with saltlen:digest)
      o.run(["dgst", `-${md}`, "-sign", "their-rsa.pem", "-out", "t1.sig", "msg.bin"]);
      expect(
        await verify(o.readText("their-rsa.pub"), MESSAGE, o.read("t1.sig"), {
          alg: "RSASSA-PKCS1-v1_5",
          hash: hashAlg,
        }),
      ).toBe(true);
      for (const salt of [[], ["-sigopt", "rsa_pss_saltlen:digest"], ["-sigopt", "rsa_pss_saltlen:max"]]) {
        o.run([
          "dgst",
          `-${md}`,
          "-sigopt",
          "rsa_padding_mode:pss",
          ...salt,
          "-sign",
          "their-rsa.pem",
          "-out",
          "t2.sig",
          "msg.bin",
        ]);
        expect(
          await verify(o.readText("their-rsa.pub"), MESSAGE, o.read("t2.sig"), {
            alg: "RSA-PSS",
            hash: hashAlg,
          }),
        ).toBe(true);
      }
      expect(
        await verify(o.readText("their-rsa.pub"), utf8ToBytes("other"), o.read("t1.sig"), {
          alg: "RSASSA-PKCS1-v1_5",
          hash: hashAlg,
        }),
      ).toBe(false);
    }
  });

  for (const curve of EC_CURVES) {
    it(`ECDSA ${curve}, DER both ways, high-S from openssl accepted`, async () => {
      msgFile();
      const pair = await generateKeyPair({ type: "EC", curve });
      o.write(`our-${curve}.pem`, pair.privatePem);
      o.write(`our-${curve}.pub`, pair.publicPem);
      o.run([
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        `ec_paramgen_curve:${CURVE_NAME[curve]}`,
        "-out",
        `their-${curve}.pem`,
      ]);
      const theirPub = o.run(["pkey", "-in", `their-${curve}.pem`, "-pubout"]).toString();
      const md = { "P-256": "sha256", "P-384": "sha384", "P-521": "sha512", secp256k1: "sha256" }[curve];
      for (let i = 0; i < 3; i++) {
        o.write("e.sig", await sign(pair.privatePem, MESSAGE, { alg: "ECDSA" }));
        expect(
          o.ok(["dgst", `-${md}`, "-verify", `our-${curve}.pub`, "-signature", "e.sig", "msg.bin"]),
        ).toBe(true);
      }
      let highS = 0;
      const order = (await import("./curves")).CURVES[curve].noble.Point.Fn.ORDER;
      for (let i = 0; i < 8; i++) {
        o.run(["dgst", `-${md}`, "-sign", `their-${curve}.pem`, "-out", "t.sig", "msg.bin"]);
        const sig = o.read("t.sig");
        const { decodeDerSignature } = await import("./ec");
        if (decodeDerSignature(sig).s > order / 2n) highS++;
        expect(await verify(theirPub, MESSAGE, sig, { alg: "ECDSA" })).toBe(true);
      }
      // 8 signatures are all low-S with probability 1/256; the count is informative, not asserted
      expect(highS).toBeGreaterThanOrEqual(0);
      // raw r||s round-trips to OpenSSL's DER
      const raw = await sign(pair.privatePem, MESSAGE, { alg: "ECDSA", format: "raw" });
      expect(await verify(pair.publicPem, MESSAGE, raw, { alg: "ECDSA", format: "raw" })).toBe(true);
    });
  }

  it("secp256k1: a high-S signature (as OpenSSL may make) verifies", async () => {
    const { CURVES } = await import("./curves");
    const { decodeDerSignature, encodeDerSignature } = await import("./ec");
    const pair = await generateKeyPair({ type: "EC", curve: "secp256k1" });
    const { r, s } = decodeDerSignature(await sign(pair.privatePem, MESSAGE, { alg: "ECDSA" }));
    const n = CURVES.secp256k1.noble.Point.Fn.ORDER;
    expect(s <= n / 2n).toBe(true); // we sign low-S
    const high = encodeDerSignature(r, n - s);
    expect(await verify(pair.publicPem, MESSAGE, high, { alg: "ECDSA" })).toBe(true);
    o.write("k1.pub", pair.publicPem);
    o.write("k1hi.sig", high);
    msgFile();
    expect(o.ok(["dgst", "-sha256", "-verify", "k1.pub", "-signature", "k1hi.sig", "msg.bin"])).toBe(true);
  });

  it("Ed25519", async () => {
    msgFile();
    const pair = await generateKeyPair({ type: "Ed25519" });
    o.write("our-ed.pem", pair.privatePem);
    o.write("our-ed.pub", pair.publicPem);
    o.write("ed.sig", await sign(pair.privatePem, MESSAGE, { alg: "Ed25519" }));
    expect(
      o.ok([
        "pkeyutl",
        "-verify",
        "-pubin",
        "-inkey",
        "our-ed.pub",
        "-rawin",
        "-in",
        "msg.bin",
        "-sigfile",
        "ed.sig",
      ]),
    ).toBe(true);
    o.run(["genpkey", "-algorithm", "ED25519", "-out", "their-ed.pem"]);
    const sig = o.run(["pkeyutl", "-sign", "-inkey", "their-ed.pem", "-rawin", "-in", "msg.bin"]);
    const theirPub = o.run(["pkey", "-in", "their-ed.pem", "-pubout"]).toString();
    expect(await verify(theirPub, MESSAGE, new Uint8Array(sig), { alg: "Ed25519" })).toBe(true);
    // Ed25519 is deterministic: our signature with their key equals theirs
    expect(bytesToHex(await sign(o.readText("their-ed.pem"), MESSAGE, { alg: "Ed25519" }))).toBe(
      bytesToHex(sig),
    );
  });

  it("DSA 2048/256 (our key generation once)", async () => {
    msgFile();
    const pair = await generateKeyPair({ type: "DSA" });
    expect(pair.summary.dsa).toEqual({ pBits: 2048, qBits: 256 });
    o.write("our-dsa.pem", pair.privatePem);
    o.write("our-dsa.pub", pair.publicPem);
    expect(o.run(["pkey", "-in", "our-dsa.pem", "-noout", "-check"]).toString()).toContain("valid");
    o.write("d.sig", await sign(pair.privatePem, MESSAGE, { alg: "DSA" }));
    expect(o.ok(["dgst", "-sha256", "-verify", "our-dsa.pub", "-signature", "d.sig", "msg.bin"])).toBe(true);
    if (!o.ok(["pkey", "-in", "dsa.pem", "-noout"])) {
      o.run([
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:2048",
        "-pkeyopt",
        "dsa_paramgen_q_bits:256",
        "-out",
        "dsap.pem",
      ]);
      o.run(["genpkey", "-paramfile", "dsap.pem", "-out", "dsa.pem"]);
    }
    const theirPub = o.run(["pkey", "-in", "dsa.pem", "-pubout"]).toString();
    for (const md of ["sha256", "sha1", "sha512"] as const) {
      o.run(["dgst", `-${md}`, "-sign", "dsa.pem", "-out", "td.sig", "msg.bin"]);
      const hashAlg = { sha256: "SHA-256", sha1: "SHA-1", sha512: "SHA-512" }[md] as HashAlgorithm;
      expect(await verify(theirPub, MESSAGE, o.read("td.sig"), { alg: "DSA", hash: hashAlg })).toBe(true);
    }
  });
});

describe("RSA ciphertexts both ways", () => {
  it("OAEP SHA-1, OAEP SHA-256 and PKCS#1 v1.5", async () => {
    const pair = await generateKeyPair({ type: "RSA", bits: 3072 });
    o.write("enc-ours.pem", pair.privatePem);
    o.write("enc-ours.pub", pair.publicPem);
    o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "enc-theirs.pem"]);
    const theirPub = o.run(["pkey", "-in", "enc-theirs.pem", "-pubout"]).toString();
    const secret = randomBytes(48);
    o.write("pt.bin", secret);
    const schemes = [
      { scheme: { padding: "OAEP", hash: "SHA-1" } as const, opts: ["-pkeyopt", "rsa_padding_mode:oaep"] },
      {
        scheme: { padding: "OAEP", hash: "SHA-256" } as const,
        opts: [
          "-pkeyopt",
          "rsa_padding_mode:oaep",
          "-pkeyopt",
          "rsa_oaep_md:sha256",
          "-pkeyopt",
          "rsa_mgf1_md:sha256",
        ],
      },
      { scheme: { padding: "PKCS1v1.5" } as const, opts: ["-pkeyopt", "rsa_padding_mode:pkcs1"] },
    ];
    for (const { scheme, opts } of schemes) {
      o.write("ct.bin", await encrypt(pair.publicPem, secret, scheme));
      const pt = o.run(["pkeyutl", "-decrypt", "-inkey", "enc-ours.pem", ...opts, "-in", "ct.bin"]);
      expect(bytesToHex(new Uint8Array(pt))).toBe(bytesToHex(secret));
    }
    o.write("enc-theirs.pub", theirPub);
    for (const { scheme, opts } of schemes) {
      o.run([
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        "enc-theirs.pub",
        ...opts,
        "-in",
        "pt.bin",
        "-out",
        "ct2.bin",
      ]);
      expect(bytesToHex(await decrypt(o.readText("enc-theirs.pem"), o.read("ct2.bin"), scheme))).toBe(
        bytesToHex(secret),
      );
    }
    await expect(
      decrypt(o.readText("enc-theirs.pem"), o.read("ct2.bin"), { padding: "OAEP", hash: "SHA-256" }),
    ).rejects.toMatchObject({
      code: "DECRYPTION_FAILED",
    });
  });

  it("RSA 4096 generation (the one slow key) works with openssl", async () => {
    const pair = await generateKeyPair({ type: "RSA", bits: 4096 }, { passphrase: "four", iterations: 2048 });
    o.write("r4.pem", pair.privatePem);
    const text = o.run(["pkey", "-in", "r4.pem", "-passin", "pass:four", "-noout", "-text"]).toString();
    expect(text).toContain("Private-Key: (4096 bit, 2 primes)");
    expect(o.run(["pkey", "-in", "r4.pem", "-passin", "pass:four", "-noout", "-check"]).toString()).toContain(
      "valid",
    );
  });
});

describe("key agreement agrees with openssl pkeyutl -derive", () => {
  async function both(
    ourSpec: Parameters<typeof generateKeyPair>[0],
    genArgs: string[],
    deriveOpts: string[] = [],
  ) {
    const ours = await generateKeyPair(ourSpec);
    o.write("ka-ours.pem", ours.privatePem);
    o.write("ka-ours.pub", ours.publicPem);
    o.run(["genpkey", ...genArgs, "-out", "ka-theirs.pem"]);
    o.run(["pkey", "-in", "ka-theirs.pem", "-pubout", "-out", "ka-theirs.pub"]);
    const theirs = new Uint8Array(
      o.run(["pkeyutl", "-derive", "-inkey", "ka-theirs.pem", "-peerkey", "ka-ours.pub", ...deriveOpts]),
    );
    const mine = await deriveSharedSecret(ours.privatePem, o.readText("ka-theirs.pub"));
    expect(bytesToHex(mine)).toBe(bytesToHex(theirs));
    // and the other way round: openssl with our private key
    const again = new Uint8Array(
      o.run(["pkeyutl", "-derive", "-inkey", "ka-ours.pem", "-peerkey", "ka-theirs.pub", ...deriveOpts]),
    );
    expect(bytesToHex(again)).toBe(bytesToHex(theirs));
  }

  it("X25519", () => both({ type: "X25519" }, ["-algorithm", "X25519"]));
  it("ECDH P-256", () =>
    both({ type: "EC", curve: "P-256" }, ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]));
  it("DH ffdhe2048", () =>
    both(
      { type: "DH", group: "ffdhe2048" },
      ["-algorithm", "DH", "-pkeyopt", "group:ffdhe2048"],
      ["-pkeyopt", "dh_pad:1"],
    ));
  it("DH modp_2048 (RFC 3526)", () =>
    both(
      { type: "DH", group: "modp2048" },
      ["-algorithm", "DH", "-pkeyopt", "group:modp_2048"],
      ["-pkeyopt", "dh_pad:1"],
    ));

  it("a DH peer value outside (1, p-1) is refused", async () => {
    const a = await generateKeyPair({ type: "DH", group: "ffdhe2048" });
    const bad = { ...a.publicKey, y: 1n } as typeof a.publicKey;
    await expect(deriveSharedSecret(a.privatePem, bad)).rejects.toSatisfy((e) =>
      isCryptoInputError(e, "INVALID_PUBLIC_VALUE"),
    );
    const pMinus1 = {
      ...a.publicKey,
      y: (a.publicKey as { params: { p: bigint } }).params.p - 1n,
    } as typeof a.publicKey;
    await expect(deriveSharedSecret(a.privatePem, pMinus1)).rejects.toMatchObject({
      code: "INVALID_PUBLIC_VALUE",
    });
  });
});
