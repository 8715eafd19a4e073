import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exportPrivateKeyPem, exportPublicKeyPem, loadPrivateKey, loadPublicKey } from "./keyio";
import { publicFromPrivate } from "./keys";
import {
  parseAuthorizedKeys,
  parseSshPublicLine,
  readOpenSshPrivateKey,
  sshKeygenLine,
  sshPublicLine,
  writeOpenSshPrivateKey,
} from "./openssh";

// OpenSSH keys against Debian's ssh-keygen, both ways: keys ssh-keygen makes (plain and with a
// passphrase) are read here with the same public key and fingerprints, and keys written here are read
// by ssh-keygen (-y gives back the same public line; -l the same fingerprints).

const dir = mkdtempSync(path.join(tmpdir(), "abacus-openssh-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keygen = (args: string[]) =>
  execFileSync("ssh-keygen", args, { encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] }).trim();
const withoutComment = (line: string) => line.split(" ").slice(0, 2).join(" ");

const KINDS: { name: string; args: string[] }[] = [
  { name: "ed25519", args: ["-t", "ed25519"] },
  { name: "ecdsa-256", args: ["-t", "ecdsa", "-b", "256"] },
  { name: "ecdsa-384", args: ["-t", "ecdsa", "-b", "384"] },
  { name: "ecdsa-521", args: ["-t", "ecdsa", "-b", "521"] },
  { name: "rsa-2048", args: ["-t", "rsa", "-b", "2048"] },
];

describe("OpenSSH keys, against ssh-keygen", () => {
  it.each(KINDS)(
    "$name: ssh-keygen's key (plain and encrypted) reads here; ours reads in ssh-keygen",
    async ({ name, args }) => {
      for (const passphrase of ["", "correct horse"]) {
        const file = path.join(dir, `${name}-${passphrase ? "enc" : "plain"}`);
        keygen([...args, "-f", file, "-N", passphrase, "-C", `${name}@abacus`, "-q"]);
        const pubLine = readFileSync(`${file}.pub`, "utf8").trim();

        // ssh-keygen → here: the private key, its public key and the fingerprints.
        const read = readOpenSshPrivateKey(readFileSync(file, "utf8"), passphrase);
        expect(read.comment).toBe(`${name}@abacus`);
        expect(read.cipher).toBe(passphrase ? "aes256-ctr" : "none");
        const pub = publicFromPrivate(read.key);
        expect(sshPublicLine(pub, read.comment)).toBe(pubLine);
        const line = parseSshPublicLine(pubLine);
        for (const hash of ["sha256", "md5"] as const) {
          expect(sshKeygenLine(line.key, line.comment, hash)).toBe(
            keygen(["-l", "-E", hash, "-f", `${file}.pub`]),
          );
        }
        if (passphrase) {
          expect(() => readOpenSshPrivateKey(readFileSync(file, "utf8"), "wrong")).toThrow(
            /Wrong passphrase/,
          );
          expect(() => readOpenSshPrivateKey(readFileSync(file, "utf8"))).toThrow(/Passphrase required/);
        }

        // here → ssh-keygen: the key written here opens in ssh-keygen and gives the same public key.
        const ours = path.join(dir, `${name}-ours-${passphrase ? "enc" : "plain"}`);
        writeFileSync(ours, writeOpenSshPrivateKey(read.key, { comment: "ours", passphrase, rounds: 4 }), {
          mode: 0o600,
        });
        expect(withoutComment(keygen(["-y", "-P", passphrase, "-f", ours]))).toBe(withoutComment(pubLine));
        // …and a passphrase set here is one ssh-keygen needs.
        if (passphrase) expect(() => keygen(["-y", "-P", "wrong", "-f", ours])).toThrow();

        // PEM both ways: ssh-keygen's PKCS#8 export of the public key is the core's, and the PKCS#8 PEM
        // written from the OpenSSH key is one ssh-keygen reads back to the same public line.
        // ssh-keygen exports no Ed25519 key as PKCS#8: that one is checked through -y below.
        if (name !== "ed25519") {
          const spki = keygen(["-e", "-m", "PKCS8", "-f", `${file}.pub`]);
          expect(exportPublicKeyPem(pub).trim()).toBe(spki.trim());
        }
        const pem = path.join(dir, `${name}-pem-${passphrase ? "enc" : "plain"}.pem`);
        writeFileSync(pem, await exportPrivateKeyPem(read.key), { mode: 0o600 });
        if (name === "ed25519") {
          // Debian's ssh-keygen reads no PKCS#8 Ed25519 key; openssl does, to the same public key.
          const spkiOut = execFileSync("openssl", ["pkey", "-in", pem, "-pubout"], { encoding: "utf8" });
          expect(spkiOut.trim()).toBe(exportPublicKeyPem(pub).trim());
        } else {
          expect(withoutComment(keygen(["-y", "-f", pem]))).toBe(withoutComment(pubLine));
        }
        // ssh-keygen's own PEM (-m PEM / PKCS8 conversion) reads into the same key here.
        const theirsPem = path.join(dir, `${name}-theirs-${passphrase ? "enc" : "plain"}`);
        writeFileSync(theirsPem, readFileSync(file), { mode: 0o600 });
        writeFileSync(`${theirsPem}.pub`, readFileSync(`${file}.pub`));
        if (name !== "ed25519") {
          keygen(["-p", "-m", "PKCS8", "-P", passphrase, "-N", "", "-f", theirsPem, "-q"]);
          const fromPem = await loadPrivateKey(readFileSync(theirsPem, "utf8"));
          expect(sshPublicLine(publicFromPrivate(fromPem), read.comment)).toBe(pubLine);
        }
      }
    },
  );

  it("reads authorized_keys with options and comments; refuses what is not a key line", async () => {
    const file = path.join(dir, "ak");
    keygen(["-t", "ed25519", "-f", file, "-N", "", "-C", "alice", "-q"]);
    const line = readFileSync(`${file}.pub`, "utf8").trim();
    const text = `# keys\n\nfrom="10.0.0.0/8",no-pty ${line}\n${line.replace(" alice", "")}\n`;
    const keys = parseAuthorizedKeys(text);
    expect(keys.map((k) => [k.options, k.comment])).toEqual([
      ['from="10.0.0.0/8",no-pty', "alice"],
      ["", ""],
    ]);
    expect(sshKeygenLine(keys[1]?.key as never, "", "sha256")).toMatch(/no comment \(ED25519\)$/);
    expect(() => parseSshPublicLine("ssh-dss AAAAB3NzaC1kc3M= old")).toThrow(
      /Not an OpenSSH public key line/,
    );
    expect(() => parseSshPublicLine(line.replace("ssh-ed25519", "ssh-rsa"))).toThrow(/says ssh-rsa/);
    // An X25519 key has no OpenSSH form.
    const x = await loadPublicKey(
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAhSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=\n-----END PUBLIC KEY-----",
    );
    expect(() => sshPublicLine(x)).toThrow(/Ed25519, ECDSA or RSA/);
  });
});
