import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64 } from "./encoding";
import { parsePemAll } from "./pem";
import { createPkcs12, readPkcs12 } from "./pkcs12";

// PKCS#12 against `openssl pkcs12`, both ways: files openssl writes (OpenSSL 3's defaults, and -legacy
// with RC2 and 3DES) open here to the same key and certificates; files made here open in openssl.

const dir = mkdtempSync(path.join(tmpdir(), "abacus-p12-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["pipe", "pipe", "pipe"] });
const derOf = (pemFile: string) =>
  parsePemAll(readFileSync(pemFile, "utf8")).map((b) => bytesToBase64(b.der));

function makeChain(kind: "rsa" | "ec") {
  const caKey = path.join(dir, `${kind}-ca.key`);
  const ca = path.join(dir, `${kind}-ca.pem`);
  const key = path.join(dir, `${kind}-leaf.key`);
  const csr = path.join(dir, `${kind}-leaf.csr`);
  const leaf = path.join(dir, `${kind}-leaf.pem`);
  const alg =
    kind === "rsa"
      ? ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
      : ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"];
  openssl(["genpkey", ...alg, "-out", caKey]);
  openssl(["req", "-x509", "-new", "-key", caKey, "-subj", "/CN=p12 CA", "-days", "30", "-out", ca]);
  openssl(["genpkey", ...alg, "-out", key]);
  openssl(["req", "-new", "-key", key, "-subj", "/CN=p12 leaf", "-out", csr]);
  openssl(["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-days", "30", "-out", leaf]);
  return { ca, key, leaf };
}

describe("PKCS#12, against openssl pkcs12", () => {
  it.each(["rsa", "ec"] as const)(
    "%s: openssl's files (default and -legacy) open here; ours open in openssl",
    async (kind) => {
      const { ca, key, leaf } = makeChain(kind);
      const keyDer = bytesToBase64(
        base64ToBytes(
          openssl(["pkcs8", "-topk8", "-nocrypt", "-in", key, "-outform", "DER"]).toString("base64"),
        ),
      );
      for (const legacy of [false, true]) {
        const p12 = path.join(dir, `${kind}-${legacy ? "legacy" : "modern"}.p12`);
        openssl([
          "pkcs12",
          "-export",
          ...(legacy ? ["-legacy"] : []),
          "-inkey",
          key,
          "-in",
          leaf,
          "-certfile",
          ca,
          "-name",
          "Ada's key",
          "-passout",
          "pass:p12 pass",
          "-out",
          p12,
        ]);
        const read = await readPkcs12(new Uint8Array(readFileSync(p12)), "p12 pass");
        expect(read.legacy).toBe(legacy);
        expect(read.mac?.algorithm).toBe(legacy ? "SHA-1" : "SHA-256");
        const certs = read.bags.filter((b) => b.kind === "certificate").map((b) => bytesToBase64(b.der));
        expect(certs.sort()).toEqual([...derOf(leaf), ...derOf(ca)].sort());
        const keys = read.bags.filter((b) => b.kind === "key");
        expect(keys.map((b) => bytesToBase64(b.der))).toEqual([keyDer]);
        expect(keys[0]?.friendlyName).toBe("Ada's key");
        expect(read.bags.find((b) => b.kind === "certificate" && b.friendlyName)?.protection).toBe(
          legacy ? "RC2-40 (legacy)" : "PBES2",
        );
        await expect(readPkcs12(new Uint8Array(readFileSync(p12)), "wrong")).rejects.toMatchObject({
          code: "WRONG_PASSPHRASE",
        });
      }

      // Made here → openssl reads the same key and certificates with the password (and not without).
      const ours = await createPkcs12(
        base64ToBytes(keyDer),
        [...derOf(leaf), ...derOf(ca)].map(base64ToBytes),
        "ours ✓",
        { friendlyName: "from abacus" },
      );
      const oursFile = path.join(dir, `${kind}-ours.p12`);
      writeFileSync(oursFile, ours);
      const out = openssl(["pkcs12", "-in", oursFile, "-passin", "pass:ours ✓", "-nodes"]).toString();
      expect(out).toContain("friendlyName: from abacus");
      const blocks = parsePemAll(out);
      expect(blocks.filter((b) => b.label === "CERTIFICATE").map((b) => bytesToBase64(b.der))).toEqual([
        ...derOf(leaf),
        ...derOf(ca),
      ]);
      expect(blocks.filter((b) => b.label === "PRIVATE KEY").map((b) => bytesToBase64(b.der))).toEqual([
        keyDer,
      ]);
      expect(() => openssl(["pkcs12", "-in", oursFile, "-passin", "pass:wrong", "-nodes"])).toThrow();
      // …and reads back here too.
      const back = await readPkcs12(ours, "ours ✓");
      expect(back).toMatchObject({ legacy: false, mac: { algorithm: "SHA-256", iterations: 2048 } });
    },
  );

  it("refuses what is not PKCS#12", async () => {
    await expect(readPkcs12(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]), "x")).rejects.toThrow();
  });
});
