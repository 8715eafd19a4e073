// Ed448 and X448 (RFC 8032, RFC 7748, RFC 8410 key formats, RFC 8037 JWK) both ways against /usr/bin/openssl:
// keys made by openssl load here and are written back byte for byte; keys made here open in openssl;
// signatures and shared secrets agree in both directions.
import { createPrivateKey, createPublicKey } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { fromJwk } from "./convert";
import { x448 } from "./curves";
import { x448Derive } from "./ec";
import { hexToBytes } from "./encoding";
import edKat from "./fixtures/wycheproof-ed448.json";
import xKat from "./fixtures/wycheproof-x448.json";
import {
  bytesToHex,
  deriveSharedSecret,
  exportPrivateKeyPem,
  exportPublicKeyPem,
  generateKeyPair,
  inspect,
  loadPrivateKey,
  loadPublicKey,
  parsePem,
  sign,
  toJwk,
  utf8ToBytes,
  verify,
} from "./index";
import { privateKeyDer, publicKeyDer } from "./keyio";

const o = new OpenSslDir();
afterAll(() => o.cleanup());

const MESSAGE = utf8ToBytes("Abacus ✓ Ed448 interop message\n");

describe("Ed448 and X448 keys both ways", () => {
  for (const alg of ["ED448", "X448"] as const) {
    const name = alg === "ED448" ? "Ed448" : "X448";
    it(`${name}: openssl's PEM and DER load here and are written back byte for byte`, async () => {
      o.run(["genpkey", "-algorithm", alg, "-out", `${alg}.pem`]);
      o.run(["pkey", "-in", `${alg}.pem`, "-pubout", "-out", `${alg}.pub`]);
      o.run(["pkey", "-in", `${alg}.pem`, "-outform", "DER", "-out", `${alg}.der`]);
      o.run(["pkey", "-in", `${alg}.pem`, "-pubout", "-outform", "DER", "-out", `${alg}.pub.der`]);
      const key = await loadPrivateKey(o.readText(`${alg}.pem`));
      expect(key.kind).toBe(name.toLowerCase());
      expect(await exportPrivateKeyPem(key)).toBe(o.readText(`${alg}.pem`));
      const pub = await loadPublicKey(o.readText(`${alg}.pub`));
      expect(exportPublicKeyPem(pub)).toBe(o.readText(`${alg}.pub`));
      // The public key derived from the private key equals openssl's.
      expect(await loadPublicKey(key)).toEqual(pub);
      // DER in, DER out.
      expect(bytesToHex(privateKeyDer(await loadPrivateKey(o.read(`${alg}.der`))))).toBe(
        bytesToHex(o.read(`${alg}.der`)),
      );
      expect(bytesToHex(publicKeyDer(await loadPublicKey(o.read(`${alg}.pub.der`))))).toBe(
        bytesToHex(o.read(`${alg}.pub.der`)),
      );
      const [summary] = await inspect(o.readText(`${alg}.pem`));
      expect(summary?.key?.type).toBe(name);
    });

    it(`${name}: our generated key, plain and encrypted, opens in openssl (PEM and DER)`, async () => {
      const pair = await generateKeyPair({ type: name }, { passphrase: "pw", iterations: 2048 });
      o.write(`our-${alg}.enc.pem`, pair.privatePem);
      o.write(`our-${alg}.pub`, pair.publicPem);
      const plain = o.run(["pkey", "-in", `our-${alg}.enc.pem`, "-passin", "pass:pw"]).toString();
      expect(plain).toBe(await exportPrivateKeyPem(pair.privateKey));
      const pubFromPriv = o.run(["pkey", "-in", `our-${alg}.enc.pem`, "-passin", "pass:pw", "-pubout"]);
      expect(pubFromPriv.toString()).toBe(pair.publicPem);
      o.write(`our-${alg}.der`, privateKeyDer(pair.privateKey));
      const text = o.run(["pkey", "-inform", "DER", "-in", `our-${alg}.der`, "-noout", "-text"]).toString();
      expect(text).toContain(`${alg} Private-Key`);
      o.write(`our-${alg}.pub.der`, publicKeyDer(pair.publicKey));
      const pubText = o.run([
        "pkey",
        "-pubin",
        "-inform",
        "DER",
        "-in",
        `our-${alg}.pub.der`,
        "-noout",
        "-text",
      ]);
      expect(pubText.toString()).toContain(`${alg} Public-Key`);
    });

    it(`${name}: JWK (RFC 8037) as OpenSSL's library writes it, and back`, async () => {
      o.run(["genpkey", "-algorithm", alg, "-out", `jwk-${alg}.pem`]);
      const pem = o.readText(`jwk-${alg}.pem`);
      const theirs = createPrivateKey(pem).export({ format: "jwk" });
      const ours = toJwk(await loadPrivateKey(pem));
      expect(ours).toEqual(theirs);
      expect(toJwk(await loadPublicKey(pem))).toEqual(createPublicKey(pem).export({ format: "jwk" }));
      const back = fromJwk(JSON.stringify(theirs));
      expect(await exportPrivateKeyPem(back as Awaited<ReturnType<typeof loadPrivateKey>>)).toBe(pem);
    });
  }
});

describe("Ed448 signatures both ways (pure Ed448, openssl pkeyutl -rawin)", () => {
  it("ours verify in openssl; openssl's verify here; both are deterministic and equal", async () => {
    o.write("msg.bin", MESSAGE);
    const pair = await generateKeyPair({ type: "Ed448" });
    o.write("our-ed448.pem", pair.privatePem);
    o.write("our-ed448.pub", pair.publicPem);
    const ours = await sign(pair.privatePem, MESSAGE, { alg: "Ed448" });
    expect(ours.length).toBe(114);
    o.write("ed448.sig", ours);
    const verifyArgs = (pub: string, sig: string) => [
      "pkeyutl",
      "-verify",
      "-pubin",
      "-inkey",
      pub,
      "-rawin",
      "-in",
      "msg.bin",
      "-sigfile",
      sig,
    ];
    expect(o.ok(verifyArgs("our-ed448.pub", "ed448.sig"))).toBe(true);
    // A flipped bit fails in openssl too (the check above can fail).
    const bad = ours.slice();
    bad[10] = (bad[10] ?? 0) ^ 1;
    o.write("ed448-bad.sig", bad);
    expect(o.ok(verifyArgs("our-ed448.pub", "ed448-bad.sig"))).toBe(false);

    o.run(["genpkey", "-algorithm", "ED448", "-out", "their-ed448.pem"]);
    const sig = new Uint8Array(
      o.run(["pkeyutl", "-sign", "-inkey", "their-ed448.pem", "-rawin", "-in", "msg.bin"]),
    );
    const theirPub = o.run(["pkey", "-in", "their-ed448.pem", "-pubout"]).toString();
    expect(await verify(theirPub, MESSAGE, sig, { alg: "Ed448" })).toBe(true);
    expect(await verify(theirPub, utf8ToBytes("another message"), sig, { alg: "Ed448" })).toBe(false);
    expect(bytesToHex(await sign(o.readText("their-ed448.pem"), MESSAGE, { alg: "Ed448" }))).toBe(
      bytesToHex(sig),
    );
  });

  it("an Ed25519 key is the wrong type for Ed448", async () => {
    const ed = await generateKeyPair({ type: "Ed25519" });
    await expect(sign(ed.privatePem, MESSAGE, { alg: "Ed448" })).rejects.toMatchObject({
      code: "WRONG_KEY_TYPE",
    });
  });
});

describe("X448 key agreement agrees with openssl pkeyutl -derive", () => {
  it("our key with theirs, and openssl with ours", async () => {
    const ours = await generateKeyPair({ type: "X448" });
    o.write("x448-ours.pem", ours.privatePem);
    o.write("x448-ours.pub", ours.publicPem);
    o.run(["genpkey", "-algorithm", "X448", "-out", "x448-theirs.pem"]);
    o.run(["pkey", "-in", "x448-theirs.pem", "-pubout", "-out", "x448-theirs.pub"]);
    const theirs = new Uint8Array(
      o.run(["pkeyutl", "-derive", "-inkey", "x448-theirs.pem", "-peerkey", "x448-ours.pub"]),
    );
    expect(theirs.length).toBe(56);
    const mine = await deriveSharedSecret(ours.privatePem, o.readText("x448-theirs.pub"));
    expect(bytesToHex(mine)).toBe(bytesToHex(theirs));
    const again = new Uint8Array(
      o.run(["pkeyutl", "-derive", "-inkey", "x448-ours.pem", "-peerkey", "x448-theirs.pub"]),
    );
    expect(bytesToHex(again)).toBe(bytesToHex(theirs));
  });

  it("X448 with an X25519 peer is refused; so is an all-zero (small-order) peer", async () => {
    const a = await generateKeyPair({ type: "X448" });
    const b = await generateKeyPair({ type: "X25519" });
    await expect(deriveSharedSecret(a.privatePem, b.publicPem)).rejects.toMatchObject({
      code: "WRONG_KEY_TYPE",
    });
    const zero = { kind: "x448", publicKey: new Uint8Array(56) } as const;
    await expect(deriveSharedSecret(a.privateKey, zero)).rejects.toMatchObject({
      code: "INVALID_PUBLIC_VALUE",
    });
  });
});

describe("PEM labels", () => {
  it("Ed448 keys travel as PRIVATE KEY / PUBLIC KEY", async () => {
    const pair = await generateKeyPair({ type: "Ed448" });
    expect(parsePem(pair.privatePem).label).toBe("PRIVATE KEY");
    expect(parsePem(pair.publicPem).label).toBe("PUBLIC KEY");
  });
});

describe("Wycheproof Ed448 (strict RFC 8032 verification through the façade the Sign tool calls)", () => {
  for (const g of edKat.groups) {
    it(`key ${g.pk.slice(0, 16)}…: tcIds ${g.tests.map((t) => t.tcId).join(", ")}`, async () => {
      const pub = await loadPublicKey(g.publicKeyPem);
      expect(pub).toEqual({ kind: "ed448", publicKey: hexToBytes(g.pk) });
      for (const t of g.tests) {
        const ok = await verify(g.publicKeyPem, hexToBytes(t.msg), hexToBytes(t.sig), { alg: "Ed448" });
        expect({ tcId: t.tcId, ok }).toEqual({ tcId: t.tcId, ok: t.result === "valid" });
      }
    });
  }
});

describe("Wycheproof X448", () => {
  it(`${xKat.tests.length} cases: valid ones agree; invalid ones are refused; acceptable ones agree or are refused`, async () => {
    for (const t of xKat.tests) {
      const secret = hexToBytes(t.private);
      const k = { kind: "x448", secret, publicKey: x448.getPublicKey(secret) } as const;
      let out: string | undefined;
      try {
        out = bytesToHex(await x448Derive(k, hexToBytes(t.public)));
      } catch {
        out = undefined;
      }
      if (t.result === "valid") expect(out, `tcId ${t.tcId}`).toBe(t.shared);
      else if (t.result === "invalid") expect(out, `tcId ${t.tcId}`).toBeUndefined();
      else if (out !== undefined) expect(out, `tcId ${t.tcId}`).toBe(t.shared);
    }
  });
});
