import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { loadPrivateKey, loadPublicKey } from "./keyio";
import { parsePem } from "./pem";
import { parseCertificate } from "./x509";
import {
  certificatesFromPem,
  createCsr,
  createSelfSignedCertificate,
  verifyChain,
  verifyCsrSignature,
} from "./x509-create";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

const KEYS = {
  rsa: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
  ec: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"],
  ed25519: ["-algorithm", "ED25519"],
  ed448: ["-algorithm", "ED448"],
} as const;
const pems = Object.fromEntries(
  Object.entries(KEYS).map(([k, args]) => [k, o.run(["genpkey", ...args]).toString()]),
) as Record<keyof typeof KEYS, string>;
for (const [k, pem] of Object.entries(pems)) o.write(`${k}.pem`, pem);

const der = (pem: string) => parsePem(pem).der;

describe("requests and self-signed certificates made here open in openssl", () => {
  for (const kind of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
    it(`${kind}: openssl req -verify accepts the CSR; openssl verify accepts the certificate`, async () => {
      const key = await loadPrivateKey(pems[kind]);
      const csr = await createCsr(key, {
        subject: "/CN=made.example/O=Abacus Ltd/C=GB",
        subjectAltNames: "made.example, DNS:www.made.example, IP:192.0.2.9, IP:2001:db8::1",
      });
      o.write("r.csr", csr.pem);
      const text = o.run(["req", "-in", "r.csr", "-verify", "-noout", "-subject"]).toString();
      expect(text).toContain("subject=CN = made.example, O = Abacus Ltd, C = GB");
      const sans = o.run(["req", "-in", "r.csr", "-noout", "-text"]).toString();
      expect(sans).toContain(
        "DNS:made.example, DNS:www.made.example, IP Address:192.0.2.9, IP Address:2001:DB8:0:0:0:0:0:1",
      );

      const cert = await createSelfSignedCertificate(key, {
        subject: "CN=self.example, O=Abacus",
        subjectAltNames: "self.example",
        days: 30,
      });
      o.write("c.pem", cert.pem);
      expect(o.run(["verify", "-CAfile", "c.pem", "c.pem"]).toString()).toContain("c.pem: OK");
      const x = o
        .run(["x509", "-in", "c.pem", "-noout", "-subject", "-ext", "subjectAltName,basicConstraints"])
        .toString();
      expect(x).toContain("subject=CN = self.example, O = Abacus");
      expect(x).toContain("DNS:self.example");
      expect(x).toContain("CA:TRUE");
      const info = await parseCertificate(cert.der);
      const days = (Date.parse(info.notAfter) - Date.parse(info.notBefore)) / 86_400_000;
      expect(days).toBe(30);
      expect((await verifyChain([cert.der], new Date(), [cert.der])).valid).toBe(true);
      expect((await verifyChain([cert.der], new Date())).verdict).toBe("no trust anchor");
    });
  }
});

describe("what openssl makes is checked here", () => {
  it("a CSR's signature, and a tampered one", async () => {
    const csrPem = o.run(["req", "-new", "-key", "ec.pem", "-subj", "/CN=theirs.example"]).toString();
    const csr = der(csrPem);
    const pub = await loadPublicKey(csrPem);
    expect(await verifyCsrSignature(csr, pub)).toBe(true);
    const bad = new Uint8Array(csr);
    bad[30] = (bad[30] ?? 0) ^ 1;
    expect(await verifyCsrSignature(bad, pub).catch(() => false)).toBe(false);
  });

  it("a root → intermediate → leaf chain; order, anchors, expiry and a wrong issuer", async () => {
    o.run(["req", "-x509", "-key", "rsa.pem", "-subj", "/CN=Test Root", "-days", "3650", "-out", "root.pem"]);
    o.write("ca.ext", "basicConstraints=critical,CA:TRUE\n");
    o.run(["req", "-new", "-key", "ec.pem", "-subj", "/CN=Test Intermediate", "-out", "int.csr"]);
    o.run([
      "x509",
      "-req",
      "-in",
      "int.csr",
      "-CA",
      "root.pem",
      "-CAkey",
      "rsa.pem",
      "-CAcreateserial",
      "-days",
      "1000",
      "-extfile",
      "ca.ext",
      "-out",
      "int.pem",
    ]);
    o.run(["req", "-new", "-key", "ed25519.pem", "-subj", "/CN=leaf.example", "-out", "leaf.csr"]);
    o.run([
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "int.pem",
      "-CAkey",
      "ec.pem",
      "-CAcreateserial",
      "-days",
      "90",
      "-out",
      "leaf.pem",
    ]);
    expect(
      o.run(["verify", "-CAfile", "root.pem", "-untrusted", "int.pem", "leaf.pem"]).toString(),
    ).toContain("OK");
    const [root, int, leaf] = ["root.pem", "int.pem", "leaf.pem"].map((f) => der(o.readText(f)));
    if (!root || !int || !leaf) throw new Error("missing");
    const now = new Date();

    const full = await verifyChain([leaf, int, root], now, [root]);
    expect(full.problems).toEqual([]);
    expect(full.valid).toBe(true);
    expect(full.links.map((l) => l.signatureValid)).toEqual([true, true, true]);
    expect(full.links[2]?.selfSigned).toBe(true);
    expect(full.links.map((l) => l.trusted)).toEqual([false, false, true]);
    // The chain's own copy of the root gave way to the trusted one: it is not listed as unused.
    expect(full.unused).toEqual([]);
    // Nor is a certificate given twice.
    expect((await verifyChain([leaf, int, root, int], now, [root])).unused).toEqual([]);

    // Without the root in the chain, the root as a trusted anchor.
    expect((await verifyChain([leaf, int], now, [root])).valid).toBe(true);
    // Without it anywhere: not trusted.
    const open = await verifyChain([leaf, int], now);
    expect(open.valid).toBe(false);
    expect(open.problems.join(" ")).toMatch(/its issuer \(CN=Test Root\) is neither in the chain/);
    // With it in the chain only: no trust anchor.
    const untrusted = await verifyChain([leaf, int, root], now);
    expect(untrusted.verdict).toBe("no trust anchor");
    expect(untrusted.errors.map((e) => e.code)).toEqual([19]);

    // Out of order: the path is found all the same, as openssl verify -untrusted finds it.
    const swapped = await verifyChain([leaf, root, int], now, [root]);
    expect(swapped.valid).toBe(true);
    expect(swapped.links.map((l) => l.subject)).toEqual([
      "CN=leaf.example",
      "CN=Test Intermediate",
      "CN=Test Root",
    ]);

    // In 100 days the leaf has expired; before today it was not yet valid.
    const later = await verifyChain([leaf, int, root], new Date(now.getTime() + 100 * 86_400_000), [root]);
    expect(later.links[0]?.status).toBe("expired");
    expect(later.valid).toBe(false);
    const earlier = await verifyChain([leaf, int, root], new Date(now.getTime() - 2 * 86_400_000), [root]);
    expect(earlier.links[0]?.status).toBe("not yet valid");

    // A leaf whose signature was altered.
    const bad = new Uint8Array(leaf);
    bad[bad.length - 5] = (bad[bad.length - 5] ?? 0) ^ 1;
    const tampered = await verifyChain([bad, int, root], now, [root]);
    expect(tampered.links[0]?.signatureValid).toBe(false);
    expect(tampered.problems[0]).toMatch(/signature does not verify/);
  });

  it("chain input takes CERTIFICATE blocks (and OpenSSL's TRUSTED and X509 CERTIFICATE), and names any other", async () => {
    o.run(["req", "-x509", "-key", "ec.pem", "-subj", "/CN=Label Root", "-days", "30", "-out", "lr.pem"]);
    const pem = o.readText("lr.pem");
    const cert = der(pem);
    const relabel = (label: string) =>
      pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, `-----$1 ${label}-----`);
    expect(certificatesFromPem(`${pem}\n${pem}`)).toEqual([cert, cert]);
    expect(certificatesFromPem(relabel("X509 CERTIFICATE"))).toEqual([cert]);
    expect(certificatesFromPem("  \n")).toEqual([]);
    // openssl x509 -trustout writes the certificate followed by its trust settings: the certificate is taken.
    const trusted = o.run(["x509", "-in", "lr.pem", "-trustout", "-addtrust", "serverAuth"]).toString();
    expect(trusted).toContain("-----BEGIN TRUSTED CERTIFICATE-----");
    expect(der(trusted).length).toBeGreaterThan(cert.length);
    const [t] = certificatesFromPem(trusted);
    expect(t).toEqual(cert);
    expect((await verifyChain([t ?? cert], new Date(), [t ?? cert])).valid).toBe(true);

    const refused: [string, RegExp][] = [
      [relabel("FOO CERTIFICATE"), /^The block is "-----BEGIN FOO CERTIFICATE-----", not a certificate/],
      [
        `${pem}${relabel("FOO CERTIFICATE")}`,
        /^Block 2 is "-----BEGIN FOO CERTIFICATE-----", not a certificate/,
      ],
      [
        o.run(["req", "-new", "-key", "ec.pem", "-subj", "/CN=r"]).toString(),
        /^The block is "-----BEGIN CERTIFICATE REQUEST-----", not a certificate/,
      ],
      [`${pem}${pems.ec}`, /^Block 2 is "-----BEGIN PRIVATE KEY-----", not a certificate/],
      ["MIIB", /^No -----BEGIN CERTIFICATE----- block found/],
    ];
    for (const [text, message] of refused) {
      expect(() => certificatesFromPem(text), String(message)).toThrow(
        expect.objectContaining({ code: "MALFORMED_PEM", message: expect.stringMatching(message) }),
      );
    }
  });

  it("an issuer that is not a CA (CA:FALSE, no basicConstraints, keyUsage without keyCertSign) fails, as in openssl verify", async () => {
    o.run(["req", "-x509", "-key", "ec.pem", "-subj", "/CN=CA Root", "-days", "30", "-out", "ca-root.pem"]);
    const issuers: [string, string | null][] = [
      ["ca-false", "basicConstraints=CA:FALSE\n"],
      ["no-bc", null],
      ["ku-only-sign", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,digitalSignature\n"],
      ["ca-true", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"],
    ];
    for (const [name, ext] of issuers) {
      o.run(["req", "-new", "-key", "rsa.pem", "-subj", `/CN=${name}`, "-out", `${name}.csr`]);
      if (ext) o.write(`${name}.ext`, ext);
      o.run([
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca-root.pem",
        "-CAkey",
        "ec.pem",
        "-CAcreateserial",
        "-days",
        "10",
        ...(ext ? ["-extfile", `${name}.ext`] : []),
        "-out",
        `${name}.pem`,
      ]);
      o.run(["req", "-new", "-key", "ed25519.pem", "-subj", `/CN=below ${name}`, "-out", "below.csr"]);
      o.run([
        "x509",
        "-req",
        "-in",
        "below.csr",
        "-CA",
        `${name}.pem`,
        "-CAkey",
        "rsa.pem",
        "-CAcreateserial",
        "-days",
        "5",
        "-out",
        `below-${name}.pem`,
      ]);
      const theirs = o.ok([
        "verify",
        "-CAfile",
        "ca-root.pem",
        "-untrusted",
        `${name}.pem`,
        `below-${name}.pem`,
      ]);
      const [root, issuer, leaf] = ["ca-root.pem", `${name}.pem`, `below-${name}.pem`].map((f) =>
        der(o.readText(f)),
      );
      if (!root || !issuer || !leaf) throw new Error("missing");
      const mine = await verifyChain([leaf, issuer, root], new Date(), [root]);
      expect(mine.valid, name).toBe(theirs);
      expect(mine.valid, name).toBe(name === "ca-true");
      if (!mine.valid) expect(mine.problems.join(" "), name).toMatch(/is not a CA certificate/);
      // The same with the root given as trusted rather than in the chain.
      expect((await verifyChain([leaf, issuer], new Date(), [root])).valid, name).toBe(theirs);
    }
    // A v1 self-signed root (no extensions) is still a trust anchor for openssl and here.
    o.write("empty.cnf", "[req]\ndistinguished_name=dn\n[dn]\n");
    o.run([
      "req",
      "-x509",
      "-config",
      "empty.cnf",
      "-key",
      "ec.pem",
      "-subj",
      "/CN=V1 Root",
      "-days",
      "30",
      "-out",
      "v1-root.pem",
    ]);
    o.run([
      "x509",
      "-req",
      "-in",
      "below.csr",
      "-CA",
      "v1-root.pem",
      "-CAkey",
      "ec.pem",
      "-CAcreateserial",
      "-out",
      "below-v1.pem",
    ]);
    const v1Ok = o.ok(["verify", "-CAfile", "v1-root.pem", "below-v1.pem"]);
    expect(v1Ok).toBe(true);
    const [v1Root, v1Leaf] = ["v1-root.pem", "below-v1.pem"].map((f) => der(o.readText(f)));
    if (!v1Root || !v1Leaf) throw new Error("missing");
    expect((await parseCertificate(v1Root)).version).toBe(1);
    expect((await verifyChain([v1Leaf, v1Root], new Date(), [v1Root])).valid).toBe(v1Ok);
  });
});
