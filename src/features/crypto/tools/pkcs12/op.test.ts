import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ops } from "./op";

// The PKCS#12 tool's operations as the forms call them, against openssl pkcs12.

const dir = mkdtempSync(path.join(tmpdir(), "abacus-p12-op-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["pipe", "pipe", "pipe"] });

describe("the PKCS#12 tool", () => {
  it("opens a -legacy file with its password (errors at the password), and makes one openssl opens", async () => {
    const key = path.join(dir, "k.pem");
    const cert = path.join(dir, "c.pem");
    openssl([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      key,
      "-subj",
      "/CN=p12 op",
      "-days",
      "5",
      "-out",
      cert,
    ]);
    const p12 = path.join(dir, "l.p12");
    openssl(["pkcs12", "-export", "-legacy", "-inkey", key, "-in", cert, "-passout", "pass:pw", "-out", p12]);
    const file = new Blob([readFileSync(p12)]);
    await expect(ops.pkcs12Open({ file: { kind: "file", file }, password: "nope" })).rejects.toMatchObject({
      field: "password",
    });
    const opened = await ops.pkcs12Open({ file: { kind: "file", file }, password: "pw" });
    expect(opened).toMatchObject({ legacy: true, mac: "HMAC-SHA-1, 2048 iterations" });
    expect(opened.certificates.map((c) => c.subject)).toEqual(["CN=p12 op"]);
    expect(opened.keys.map((k) => [k.type, k.bits, k.protection])).toEqual([["EC", 256, "3DES (legacy)"]]);
    expect(opened.certificates[0]?.pem.trim()).toBe(readFileSync(cert, "utf8").trim());

    const made = await ops.pkcs12Create({
      privateKey: readFileSync(key, "utf8"),
      passphrase: "",
      chain: readFileSync(cert, "utf8"),
      password: "new pw",
      friendlyName: "made here",
    });
    const ours = path.join(dir, "ours.p12");
    writeFileSync(ours, made.bytes);
    const out = openssl(["pkcs12", "-in", ours, "-passin", "pass:new pw", "-nodes"]).toString();
    expect(out).toContain("friendlyName: made here");
    expect(out).toContain(readFileSync(cert, "utf8").trim());
    await expect(
      ops.pkcs12Create({
        privateKey: readFileSync(key, "utf8"),
        passphrase: "",
        chain: "",
        password: "x",
        friendlyName: "",
      }),
    ).rejects.toMatchObject({ field: "chain" });
  });
});
