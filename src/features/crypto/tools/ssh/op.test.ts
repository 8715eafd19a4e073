import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ops } from "./op";

// The OpenSSH tool's operation as the form calls it, against ssh-keygen.

const dir = mkdtempSync(path.join(tmpdir(), "abacus-ssh-op-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keygen = (args: string[]) =>
  execFileSync("ssh-keygen", args, { encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] }).trim();
const base = { passphrase: "", target: "none" as const, newPassphrase: "", comment: "", rounds: 16 };

describe("the OpenSSH key tool", () => {
  it("reads an encrypted ssh-keygen key, prints ssh-keygen's fingerprints, writes what ssh-keygen opens", async () => {
    const file = path.join(dir, "id_ecdsa");
    keygen(["-t", "ecdsa", "-b", "384", "-f", file, "-N", "pw", "-C", "bob@host", "-q"]);
    const text = readFileSync(file, "utf8");
    await expect(ops.sshKey({ ...base, input: text })).rejects.toMatchObject({ field: "passphrase" });
    await expect(ops.sshKey({ ...base, input: text, passphrase: "no" })).rejects.toMatchObject({
      field: "passphrase",
      code: "WRONG_PASSPHRASE",
    });
    const r = await ops.sshKey({
      ...base,
      input: text,
      passphrase: "pw",
      target: "openssh",
      newPassphrase: "new",
      rounds: 2,
    });
    expect(r.private).toBe(true);
    expect(r.protection).toBe("aes256-ctr, bcrypt_pbkdf with 16 rounds");
    expect(r.keys[0]?.keygen).toBe(keygen(["-l", "-E", "sha256", "-f", `${file}.pub`]));
    expect(`${r.keys[0]?.md5} bob@host (ECDSA)`).toBe(
      keygen(["-l", "-E", "md5", "-f", `${file}.pub`]).replace(/^384 /, ""),
    );
    const ours = path.join(dir, "ours");
    writeFileSync(ours, r.output?.text ?? "", { mode: 0o600 });
    expect(keygen(["-y", "-P", "new", "-f", ours])).toBe(readFileSync(`${file}.pub`, "utf8").trim());
  });

  it("lists every key of an authorized_keys file, and converts PEM to a public line ssh-keygen agrees with", async () => {
    const a = path.join(dir, "a");
    const b = path.join(dir, "b");
    keygen(["-t", "ed25519", "-f", a, "-N", "", "-C", "a", "-q"]);
    keygen(["-t", "rsa", "-b", "2048", "-f", b, "-N", "", "-C", "b", "-q"]);
    const list = `${readFileSync(`${a}.pub`, "utf8")}no-pty ${readFileSync(`${b}.pub`, "utf8")}`;
    const r = await ops.sshKey({ ...base, input: list });
    expect(r.keys.map((k) => k.keygen)).toEqual([
      keygen(["-l", "-f", `${a}.pub`]),
      keygen(["-l", "-f", `${b}.pub`]),
    ]);
    expect(r.keys[1]?.options).toBe("no-pty");
    await expect(ops.sshKey({ ...base, input: list, target: "pkcs8" })).rejects.toMatchObject({
      field: "target",
    });

    const pem = execFileSync(
      "openssl",
      ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
      {
        encoding: "utf8",
      },
    );
    const line = await ops.sshKey({ ...base, input: pem, target: "authorized", comment: "from-pem" });
    const pemFile = path.join(dir, "p.pem");
    writeFileSync(pemFile, pem, { mode: 0o600 });
    expect(line.output?.text.trim()).toBe(`${keygen(["-y", "-f", pemFile])} from-pem`);
  });
});
