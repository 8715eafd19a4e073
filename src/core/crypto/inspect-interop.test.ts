import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { OPENSSL, OpenSslDir } from "../../../tests/support/openssl";
import {
  exportPrivateKeyPem,
  inspect,
  loadPrivateKey,
  loadPublicKey,
  sign,
  utf8ToBytes,
  verify,
} from "./index";
import { validityStatus } from "./x509";

// What the inspector and the key loaders make of files OpenSSL writes that they used to misread.
const o = new OpenSslDir();
afterAll(() => o.cleanup());

const rsaPem = o.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).toString();
const ecPem = o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]).toString();
o.write("rsa.pem", rsaPem);
o.write("ec.pem", ecPem);

describe("PKCS#10 certificate requests", () => {
  it("shows a CSR made by openssl req as a request, with subject, key and requested SANs", async () => {
    const csr = o
      .run([
        "req",
        "-new",
        "-key",
        "ec.pem",
        "-subj",
        "/CN=csr.example/O=Abacus",
        "-addext",
        "subjectAltName=DNS:csr.example,IP:192.0.2.7",
      ])
      .toString();
    const [b] = await inspect(csr);
    expect(b?.error).toBeUndefined();
    expect(b?.format).toBe("PKCS#10 certificate request");
    expect(b?.csr?.subject).toBe("CN=csr.example, O=Abacus");
    expect(b?.csr?.subjectAltNames).toEqual([
      { type: "dns", value: "csr.example" },
      { type: "ip", value: "192.0.2.7" },
    ]);
    expect(b?.csr?.signatureAlgorithm).toBe("ecdsa-with-SHA256");
    expect(b?.key?.ec?.curve).toBe("P-256");
    // Its key is a public key input too (e.g. to verify with).
    const pub = await loadPublicKey(csr);
    expect(pub.kind).toBe("ec");
    // DER without a label is recognised by shape.
    const der = o.run(["req", "-in", o.write("r.csr", csr), "-outform", "DER"]);
    const [d] = await inspect(new Uint8Array(der));
    expect(d?.format).toBe("PKCS#10 certificate request");
  });

  it("checks a request's self-signature as openssl req -verify does", async () => {
    for (const key of ["ec.pem", "rsa.pem"]) {
      const csr = o.run(["req", "-new", "-key", key, "-subj", "/CN=signed.example"]);
      const der = new Uint8Array(o.run(["req", "-outform", "DER"], csr));
      // A request whose subject was changed after signing: the signature no longer covers it.
      const forged = der.slice();
      const at = Buffer.from(forged).indexOf("signed.example");
      forged[at] = "S".charCodeAt(0);
      for (const [bytes, expected] of [
        [der, true],
        [forged, false],
      ] as const) {
        // openssl req -verify exits 0 either way: its verdict is what it prints (on stderr).
        const r = spawnSync(
          OPENSSL,
          ["req", "-inform", "DER", "-in", o.write("v.der", bytes), "-verify", "-noout"],
          {
            encoding: "utf8",
          },
        );
        const said = `${r.stdout}${r.stderr}`;
        expect(said, key).toContain(expected ? "self-signature verify OK" : "self-signature verify failure");
        const [b] = await inspect(bytes);
        expect(b?.csrSignatureValid, key).toBe(expected);
      }
    }
  });
});

describe("legacy encrypted PEM (Proc-Type: 4,ENCRYPTED)", () => {
  for (const [cipher, kind, cmd] of [
    ["aes128", "rsa", "rsa"],
    ["aes192", "ec", "ec"],
    ["aes256", "rsa", "rsa"],
  ] as const) {
    it(`opens ${kind.toUpperCase()} keys openssl ${cmd} -${cipher} -traditional writes, and names a wrong passphrase`, async () => {
      const enc = o
        .run([
          cmd,
          "-in",
          `${kind}.pem`,
          `-${cipher}`,
          ...(cmd === "rsa" ? ["-traditional"] : []),
          "-passout",
          "pass:correct horse ✓",
        ])
        .toString();
      expect(enc).toContain("Proc-Type: 4,ENCRYPTED");
      const key = await loadPrivateKey(enc, { passphrase: "correct horse ✓" });
      const plain = await loadPrivateKey(kind === "rsa" ? rsaPem : ecPem);
      expect(await exportPrivateKeyPem(key)).toBe(await exportPrivateKeyPem(plain));
      await expect(loadPrivateKey(enc, { passphrase: "wrong" })).rejects.toMatchObject({
        code: "WRONG_PASSPHRASE",
      });
      await expect(loadPrivateKey(enc)).rejects.toMatchObject({ code: "PASSPHRASE_REQUIRED" });

      const [closed] = await inspect(enc);
      expect(closed?.format).toBe("Legacy encrypted PEM");
      expect(closed?.error).toBeUndefined();
      expect(closed?.encryption?.cipher).toBe(`AES-${cipher.slice(3)}-CBC`);
      const [open] = await inspect(enc, { passphrase: "correct horse ✓" });
      expect(open?.key?.type).toBe(kind === "rsa" ? "RSA" : "EC");
    });
  }

  it("a key signed with after import verifies in openssl", async () => {
    const enc = o.run(["ec", "-in", "ec.pem", "-aes256", "-passout", "pass:pw"]).toString();
    const msg = utf8ToBytes("legacy import");
    const sig = await sign(enc, msg, { alg: "ECDSA" }, { passphrase: "pw" });
    o.write("m.bin", msg);
    o.write("m.sig", sig);
    o.write("ec.pub", o.run(["pkey", "-in", "ec.pem", "-pubout"]));
    expect(o.ok(["dgst", "-sha256", "-verify", "ec.pub", "-signature", "m.sig", "m.bin"])).toBe(true);
  });

  it("refuses a cipher it does not read (Camellia) with a hint rather than a DER error", async () => {
    const enc = o
      .run(["rsa", "-in", "rsa.pem", "-camellia128", "-traditional", "-passout", "pass:pw"])
      .toString();
    await expect(loadPrivateKey(enc, { passphrase: "pw" })).rejects.toMatchObject({
      code: "UNSUPPORTED_ALGORITHM",
      message: expect.stringContaining("CAMELLIA-128-CBC"),
    });
    const [b] = await inspect(enc);
    expect(b?.format).toBe("Legacy encrypted PEM");
    expect(b?.encryption?.cipher).toBe("CAMELLIA-128-CBC");
  });
});

describe("what the inspector used to misread", () => {
  it("DSA parameters", async () => {
    const params = o
      .run([
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:1024",
        "-pkeyopt",
        "dsa_paramgen_q_bits:160",
      ])
      .toString();
    expect(params).toContain("-----BEGIN DSA PARAMETERS-----");
    const [b] = await inspect(params);
    expect(b?.format).toBe("DSA parameters");
    expect(b?.dsaParameters).toEqual({ pBits: 1024, qBits: 160 });
    o.write("p.pem", params);
    const der = o.run(["dsaparam", "-in", "p.pem", "-outform", "DER"]);
    expect((await inspect(new Uint8Array(der)))[0]?.format).toBe("DSA parameters");
  });

  it("plain text that is not PEM, base64 or hex", async () => {
    await expect(inspect("hello world")).rejects.toMatchObject({
      code: "MALFORMED_PEM",
      message: expect.stringMatching(/^Not PEM, base64 or hex/),
    });
  });

  it("an unknown PEM label is named, and key loaders refuse it", async () => {
    const body = rsaPem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "-----$1 FOO BAR-----");
    const [b] = await inspect(body);
    expect(b?.error?.message).toMatch(/^Unknown PEM label "FOO BAR".*look like PKCS#8/);
    await expect(loadPrivateKey(body)).rejects.toMatchObject({ code: "MALFORMED_PEM" });
    await expect(loadPublicKey(body)).rejects.toMatchObject({ code: "MALFORMED_PEM" });
  });

  it("certificate validity status", async () => {
    const cert = { notBefore: "2026-01-01T00:00:00Z", notAfter: "2026-12-31T23:59:59Z" };
    expect(validityStatus(cert, new Date("2026-06-01T00:00:00Z"))).toBe("valid");
    expect(validityStatus(cert, new Date("2027-01-01T00:00:00Z"))).toBe("expired");
    expect(validityStatus(cert, new Date("2025-12-31T23:59:59Z"))).toBe("not yet valid");
    expect(validityStatus({ notBefore: "x", notAfter: "y" }, new Date())).toBe("unknown");
  });
});

describe("RSA-PSS salt length when signing", () => {
  it("max, 0 and a number verify in openssl with the same -sigopt rsa_pss_saltlen", async () => {
    o.write("rsa.pub", o.run(["pkey", "-in", "rsa.pem", "-pubout"]));
    const msg = utf8ToBytes("pss salt");
    o.write("p.bin", msg);
    for (const [saltLength, arg] of [
      ["max", "max"],
      [0, "0"],
      [20, "20"],
      ["digest", "digest"],
    ] as const) {
      const sig = await sign(rsaPem, msg, { alg: "RSA-PSS", hash: "SHA-256", saltLength });
      o.write("p.sig", sig);
      const args = [
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        `rsa_pss_saltlen:${arg}`,
      ];
      expect(o.ok([...args, "-verify", "rsa.pub", "-signature", "p.sig", "p.bin"]), String(saltLength)).toBe(
        true,
      );
      // and the other way: openssl signs with that salt length, verified here with the same choice
      const theirs = o.run([...args, "-sign", "rsa.pem", "p.bin"]);
      expect(
        await verify(rsaPem, msg, new Uint8Array(theirs), { alg: "RSA-PSS", hash: "SHA-256", saltLength }),
      ).toBe(true);
    }
  });
});
