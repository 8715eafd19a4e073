import { describe, expect, it } from "vitest";
import { bytesToBigint, exportPublicKeyPem, loadPrivateKey, randomBytes } from "@/core/crypto";
import { modPow } from "@/core/crypto/keys";
import { OpenSslDir } from "../../../tests/support/openssl";
import { FieldError } from "./op-base";
import { ops } from "./ops";
import { keySpecOf } from "./tools/keygen/op";

// The worker's operations, in Node: results as the UI shows them, and errors tied to the right field.

async function fieldError(p: Promise<unknown>): Promise<FieldError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FieldError);
  return e as FieldError;
}

/** A fresh key pair each side of `algorithm`, and the secret each side derives from the other's public key. */
async function agreeBothWays(algorithm: string) {
  const a = await ops.generateKey({ algorithm });
  const b = await ops.generateKey({ algorithm });
  const derive = (mine: typeof a, theirs: typeof a) =>
    ops.derive({
      privateKey: mine.privatePem,
      passphrase: "",
      peerPublicKey: theirs.publicPem,
      pad: true,
      output: "hex",
    });
  return { a, ab: await derive(a, b), ba: await derive(b, a) };
}

describe("crypto workbench operations", () => {
  it("hashes typed text and blobs, in hex or base64", async () => {
    const abc = await ops.hash({ alg: "SHA-256", data: { kind: "utf8", text: "abc" }, output: "hex" });
    expect(abc).toEqual({
      value: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      inputLength: 3,
      outputLength: 32,
    });
    const seen: number[] = [];
    const file = await ops.hash(
      { alg: "SHA-256", data: { kind: "file", file: new Blob(["abc"]) }, output: "base64" },
      { progress: (done) => seen.push(done) },
    );
    expect(file.value).toBe("ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
    expect(seen).toEqual([3]);
  });

  it("points bad input at its field", async () => {
    const hex = await fieldError(
      ops.hash({ alg: "SHA-256", data: { kind: "hex", text: "abz" }, output: "hex" }, {}),
    );
    expect(hex).toMatchObject({ code: "BAD_HEX", field: "data" });
    expect(hex.message).toMatch(/^Invalid hex at position 3/);

    const key = await fieldError(
      ops.hmac(
        {
          alg: "SHA-256",
          key: { kind: "base64", text: "!!" },
          data: { kind: "utf8", text: "" },
          output: "hex",
        },
        {},
      ),
    );
    expect(key).toMatchObject({ code: "BAD_BASE64", field: "key" });

    const pbkdf2 = (iterations: number, length: number) =>
      fieldError(
        ops.pbkdf2({
          password: "p",
          salt: { kind: "utf8", text: "s" },
          iterations,
          length,
          hash: "SHA-256",
          output: "hex",
        }),
      );
    expect((await pbkdf2(0, 32)).field).toBe("iterations");
    expect((await pbkdf2(1, 5000)).field).toBe("length");

    expect(() => ops.randomBytes({ length: 0, output: "hex" })).toThrow(FieldError);
    expect(() => keySpecOf("RSA-1024")).toThrow(/Unsupported algorithm/);
  });

  it("signs and verifies with the scheme the key implies; passphrase errors go to the passphrase", async () => {
    const keys = await ops.generateKey({ algorithm: "Ed25519", passphrase: "right" });
    expect(keys.privatePem).toContain("ENCRYPTED PRIVATE KEY");
    expect(keys.privateJwk).toBeUndefined();
    expect(keys.publicJwk).toContain('"crv": "Ed25519"');
    const options = { scheme: "auto", hash: "default", format: "der" } as const;
    const data = { kind: "utf8", text: "hello" } as const;

    const wrong = await fieldError(
      ops.sign({ privateKey: keys.privatePem, passphrase: "wrong", data, options, output: "base64" }),
    );
    expect(wrong).toMatchObject({ code: "WRONG_PASSPHRASE", field: "passphrase" });
    const missing = await fieldError(
      ops.sign({ privateKey: keys.privatePem, passphrase: "", data, options, output: "base64" }),
    );
    expect(missing).toMatchObject({ code: "PASSPHRASE_REQUIRED", field: "passphrase" });

    const sig = await ops.sign({
      privateKey: keys.privatePem,
      passphrase: "right",
      data,
      options,
      output: "hex",
    });
    expect(sig.label).toBe("Ed25519 (pure)");
    expect(sig.publicPem).toBe(keys.publicPem);
    const ok = await ops.verify({
      publicKey: keys.publicPem,
      data,
      signature: { kind: "hex", text: sig.value },
      options,
    });
    expect(ok.valid).toBe(true);
    const bad = await ops.verify({
      publicKey: keys.publicPem,
      data: { kind: "utf8", text: "hellO" },
      signature: { kind: "hex", text: sig.value },
      options,
    });
    expect(bad.valid).toBe(false);

    const x = await ops.generateKey({ algorithm: "X25519" });
    const cannot = await fieldError(
      ops.sign({ privateKey: x.privatePem, passphrase: "", data, options, output: "hex" }),
    );
    expect(cannot).toMatchObject({ code: "WRONG_KEY_TYPE", field: "privateKey" });
  });

  it("Ed448 and X448 through the tools: the key implies the scheme, a chosen hash is refused, X448 agrees", async () => {
    const keys = await ops.generateKey({ algorithm: "Ed448" });
    expect(keys.publicJwk).toContain('"crv": "Ed448"');
    const data = { kind: "utf8", text: "hello" } as const;
    const options = { scheme: "auto", hash: "default", format: "der" } as const;
    const sig = await ops.sign({ privateKey: keys.privatePem, passphrase: "", data, options, output: "hex" });
    expect(sig.label).toBe("Ed448 (pure)");
    expect(sig.value).toHaveLength(228);
    const ok = await ops.verify({
      publicKey: keys.publicPem,
      data,
      signature: { kind: "hex", text: sig.value },
      options,
    });
    expect(ok.valid).toBe(true);
    const withHash = await fieldError(
      ops.sign({
        privateKey: keys.privatePem,
        passphrase: "",
        data,
        options: { ...options, hash: "SHA-256" },
        output: "hex",
      }),
    );
    expect(withHash).toMatchObject({ code: "INVALID_PARAMETER", field: "hash" });
    expect(withHash.message).toContain("SHAKE256");

    const { ab, ba } = await agreeBothWays("X448");
    expect(ab.value).toBe(ba.value);
    expect(ab.value).toHaveLength(112);
  });

  it("derives equal secrets both ways and names a mismatched peer", async () => {
    const { a, ab, ba } = await agreeBothWays("EC-P-256");
    expect(ab.value).toBe(ba.value);
    expect(ab.length).toBe(32);
    const x = await ops.generateKey({ algorithm: "X25519" });
    const mismatch = await fieldError(
      ops.derive({
        privateKey: x.privatePem,
        passphrase: "",
        peerPublicKey: a.publicPem,
        pad: true,
        output: "hex",
      }),
    );
    expect(mismatch).toMatchObject({ code: "WRONG_KEY_TYPE", field: "peerPublicKey" });
  });

  it("RSA: encrypts and decrypts, and too long a message is the message's error", async () => {
    const k = await ops.generateKey({ algorithm: "RSA-2048" });
    const enc = await ops.rsaEncrypt({
      publicKey: k.publicPem,
      data: { kind: "utf8", text: "hi" },
      padding: "OAEP-SHA-256",
      output: "base64",
    });
    expect(enc.maxLength).toBe(190);
    const dec = await ops.rsaDecrypt({
      privateKey: k.privatePem,
      passphrase: "",
      data: { kind: "base64", text: enc.value },
      padding: "OAEP-SHA-256",
      output: "utf8",
    });
    expect(dec).toEqual({ value: "hi", shownAs: "utf8" });
    const long = await fieldError(
      ops.rsaEncrypt({
        publicKey: k.publicPem,
        data: { kind: "utf8", text: "x".repeat(191) },
        padding: "OAEP-SHA-256",
        output: "base64",
      }),
    );
    expect(long).toMatchObject({ code: "MESSAGE_TOO_LONG", field: "data" });
    const ed = await ops.generateKey({ algorithm: "Ed25519" });
    const wrongType = await fieldError(
      ops.rsaEncrypt({
        publicKey: ed.publicPem,
        data: { kind: "utf8", text: "x" },
        padding: "PKCS1v1.5",
        output: "hex",
      }),
    );
    expect(wrongType).toMatchObject({ code: "WRONG_KEY_TYPE", field: "publicKey" });
    expect(wrongType.message).toBe("Wrong key type: RSA encryption needs an RSA key, but this is Ed25519");
  });

  it("inspects without shipping key material back", async () => {
    const k = await ops.generateKey({ algorithm: "EC-P-384" });
    const [block] = await ops.inspect({ input: k.publicPem, passphrase: "" });
    expect(block?.format).toBe("SPKI");
    expect(block?.key).toMatchObject({ type: "EC", ec: { curve: "P-384" }, isPrivate: false });
    const err = await fieldError(ops.inspect({ input: "   ", passphrase: "" }));
    expect(err.field).toBe("input");
  });

  it("symmetric encryption round-trips, and errors point at the password, key or iterations", async () => {
    const base = {
      cipher: "AES-256-CBC",
      keyMode: "password",
      password: "pw",
      kdf: "pbkdf2",
      iterations: 1000,
      hash: "SHA-256",
      key: "",
      iv: "",
      aad: null,
    } as const;
    const enc = await ops.symmetric({
      ...base,
      direction: "encrypt",
      data: { kind: "utf8", text: "hello" },
      output: "base64-lines",
    });
    expect(enc.value).toMatch(/^U2FsdGVkX1/); // "Salted__" in base64, as openssl enc -a begins
    expect(enc.salt).toMatch(/^[0-9a-f]{16}$/);
    const dec = await ops.symmetric({
      ...base,
      direction: "decrypt",
      data: { kind: "base64", text: enc.value },
      output: "utf8",
    });
    expect(dec.value).toBe("hello");
    const wrongKey = await fieldError(
      ops.symmetric({
        ...base,
        keyMode: "raw",
        key: "00",
        iv: "00",
        direction: "encrypt",
        data: { kind: "utf8", text: "x" },
        output: "hex",
      }),
    );
    expect(wrongKey.field).toBe("key");
    const badIter = await fieldError(
      ops.symmetric({
        ...base,
        iterations: 0,
        direction: "encrypt",
        data: { kind: "utf8", text: "x" },
        output: "hex",
      }),
    );
    expect(badIter.field).toBe("iterations");
    // The limit is binary and says so (256 MiB), not 268.44 MB. (Checked before the file is read.)
    const huge = await fieldError(
      ops.symmetric({
        ...base,
        direction: "encrypt",
        data: { kind: "file", file: { size: 256 * 1024 * 1024 + 1 } as Blob },
        output: "hex",
      }),
    );
    expect(huge.field).toBe("data");
    expect(huge.message).toMatch(/^Files up to 256 MiB can be encrypted here/);
  });

  it("HKDF, and a length error on the length field", async () => {
    const r = await ops.hkdf({
      hash: "SHA-256",
      mode: "extract-and-expand",
      key: { kind: "hex", text: "0b".repeat(22) },
      salt: { kind: "hex", text: "000102030405060708090a0b0c" },
      info: { kind: "hex", text: "f0f1f2f3f4f5f6f7f8f9" },
      length: 42,
      output: "hex",
    });
    expect(r.value).toBe(
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    );
    const err = await fieldError(
      ops.hkdf({
        hash: "SHA-256",
        mode: "extract-and-expand",
        key: { kind: "hex", text: "00" },
        salt: { kind: "hex", text: "" },
        info: { kind: "utf8", text: "" },
        length: 9000,
        output: "hex",
      }),
    );
    expect(err.field).toBe("length");
  });

  it("converts a key, and says which format does not fit", async () => {
    const k = await ops.generateKey({ algorithm: "Ed25519" });
    const pub = await ops.convertKey({
      input: k.privatePem,
      passphrase: "",
      target: "spki",
      encoding: "pem",
      newPassphrase: "",
    });
    expect(pub.value).toBe(k.publicPem);
    const err = await fieldError(
      ops.convertKey({
        input: k.privatePem,
        passphrase: "",
        target: "pkcs1",
        encoding: "pem",
        newPassphrase: "",
      }),
    );
    expect(err).toMatchObject({ code: "WRONG_KEY_TYPE", field: "target" });
  });

  it("Ed25519 with a chosen hash is an error on the hash, not silently ignored", async () => {
    const k = await ops.generateKey({ algorithm: "Ed25519" });
    const err = await fieldError(
      ops.sign({
        privateKey: k.privatePem,
        passphrase: "",
        data: { kind: "utf8", text: "x" },
        options: { scheme: "auto", hash: "MD5", format: "der" },
        output: "hex",
      }),
    );
    expect(err).toMatchObject({ code: "INVALID_PARAMETER", field: "hash" });
  });

  it("a PSS signature checked as PKCS#1 v1.5 says it is a valid PSS one", async () => {
    const k = await ops.generateKey({ algorithm: "RSA-2048" });
    const data = { kind: "utf8", text: "pss" } as const;
    const sig = await ops.sign({
      privateKey: k.privatePem,
      passphrase: "",
      data,
      options: { scheme: "RSA-PSS", hash: "default", format: "der" },
      output: "base64",
    });
    const r = await ops.verify({
      publicKey: k.publicPem,
      data,
      signature: { kind: "base64", text: sig.value },
      options: { scheme: "auto", hash: "default", format: "der" },
    });
    expect(r.valid).toBe(false);
    expect(r.hint).toMatch(/valid RSA-PSS signature with SHA-256: choose the RSA-PSS scheme/);
  });

  it("DH: unpadded (the tool's default) is openssl pkeyutl -derive's secret, padded is dh_pad:1's, when the secret starts with zero bytes", async () => {
    const o = new OpenSslDir();
    try {
      const mine = await ops.generateKey({ algorithm: "DH-ffdhe2048" });
      const key = await loadPrivateKey(mine.privatePem);
      if (key.kind !== "dh") throw new Error("not a DH key");
      const { p } = key.params;
      const q = (p - 1n) / 2n;
      // A peer value whose secret with our key is z = w² < 2^2032 (two leading zero bytes of 256), found
      // without a search: y = z^(x⁻¹ mod q) gives y^x = z, and z, a square, lies in the order-q subgroup,
      // so y passes the peer checks here and in openssl.
      const w = bytesToBigint(randomBytes(127)) | (1n << 1015n);
      const y = modPow(w * w, modPow(key.x, q - 2n, q), p);
      o.write("mine.pem", mine.privatePem);
      o.write("peer.pub", exportPublicKeyPem({ kind: "dh", params: key.params, y }));
      const derive = (pad: boolean) =>
        ops.derive({
          privateKey: mine.privatePem,
          passphrase: "",
          peerPublicKey: o.readText("peer.pub"),
          pad,
          output: "hex",
        });
      const theirs = o.run(["pkeyutl", "-derive", "-inkey", "mine.pem", "-peerkey", "peer.pub"]);
      const unpadded = await derive(false);
      expect(unpadded.length).toBe(254);
      expect(unpadded.value).toBe(theirs.toString("hex"));
      const theirsPadded = o.run([
        "pkeyutl",
        "-derive",
        "-inkey",
        "mine.pem",
        "-peerkey",
        "peer.pub",
        "-pkeyopt",
        "dh_pad:1",
      ]);
      const padded = await derive(true);
      expect(padded.length).toBe(256);
      expect(padded.value).toMatch(/^0000/);
      expect(padded.value).toBe(theirsPadded.toString("hex"));
    } finally {
      o.cleanup();
    }
  });
});

describe("an ECDSA signature in the other encoding is named, not only refused", () => {
  it("openssl's DER signature as raw r||s (and back): invalid, with a hint that fits", async () => {
    const o = new OpenSslDir();
    try {
      const priv = o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]).toString();
      o.write("k.pem", priv);
      o.write("m.txt", "Pay 10.00 EUR to Ada");
      const der = new Uint8Array(o.run(["dgst", "-sha256", "-sign", "k.pem", "m.txt"]));
      // SEQUENCE { INTEGER r, INTEGER s } → r || s, each 32 bytes.
      const ints: Uint8Array[] = [];
      for (let i = 2; i < der.length; ) {
        const len = der[i + 1] ?? 0;
        const v = der.subarray(i + 2, i + 2 + len);
        ints.push(v[0] === 0 ? v.subarray(1) : v);
        i += 2 + len;
      }
      const raw = new Uint8Array(64);
      for (const [k, v] of ints.entries()) raw.set(v, 32 * (k + 1) - v.length);
      const publicKey = o.run(["pkey", "-in", "k.pem", "-pubout"]).toString();
      const data = { kind: "utf8", text: "Pay 10.00 EUR to Ada" } as const;
      const check = (sig: Uint8Array, format: "der" | "raw") =>
        ops.verify({
          publicKey,
          data,
          signature: { kind: "base64", text: Buffer.from(sig).toString("base64") },
          options: { scheme: "auto", hash: "default", format },
        });
      expect((await check(der, "der")).valid).toBe(true);
      expect((await check(raw, "raw")).valid).toBe(true);
      const rawAsDer = await check(raw, "der");
      expect(rawAsDer.valid).toBe(false);
      expect(rawAsDer.hint).toMatch(/valid signature in the other encoding: choose “Raw r\|\|s/);
      const derAsRaw = await check(der, "raw");
      expect(derAsRaw.valid).toBe(false);
      expect(derAsRaw.hint).toMatch(/choose “DER \(OpenSSL\)”/);
      // Bytes that are neither: a hint about the form, no claim that it is valid.
      const junk = raw.slice();
      junk[5] = (junk[5] ?? 0) ^ 1;
      const bad = await check(junk, "der");
      expect(bad.valid).toBe(false);
      expect(bad.hint).toMatch(/not DER .* 64 bytes of r\|\|s/);
    } finally {
      o.cleanup();
    }
  });
});

describe("openssl enc files both ways", () => {
  it("an openssl enc -a file opens as Base64; decrypting shows the salt, key and IV openssl -P prints", async () => {
    const o = new OpenSslDir();
    try {
      o.write("msg.txt", "Pay 10.00 EUR to Ada\n");
      o.run([
        "enc",
        "-aes-256-cbc",
        "-pbkdf2",
        "-a",
        "-pass",
        "pass:pw",
        "-in",
        "msg.txt",
        "-out",
        "msg.b64",
      ]);
      const printed = o
        .run(["enc", "-d", "-aes-256-cbc", "-pbkdf2", "-a", "-pass", "pass:pw", "-in", "msg.b64", "-P"])
        .toString();
      const field = (name: string) => new RegExp(`^${name}\\s*=\\s*([0-9A-F]+)$`, "m").exec(printed)?.[1];
      const file = new File([new Uint8Array(o.read("msg.b64"))], "msg.b64");
      const dec = await ops.symmetric({
        direction: "decrypt",
        cipher: "AES-256-CBC",
        keyMode: "password",
        password: "pw",
        kdf: "pbkdf2",
        iterations: 10000,
        hash: "SHA-256",
        key: "",
        iv: "",
        aad: null,
        data: { kind: "file", file },
        output: "utf8",
      });
      expect(dec.value).toBe("Pay 10.00 EUR to Ada\n");
      expect(dec.readAsBase64).toBe(true);
      expect(dec.salt?.toUpperCase()).toBe(field("salt"));
      expect(dec.key.toUpperCase()).toBe(field("key"));
      expect(dec.iv.toUpperCase()).toBe(field("iv"));

      // The binary form (no -a) is read as it is.
      o.run(["enc", "-aes-256-cbc", "-pbkdf2", "-pass", "pass:pw", "-in", "msg.txt", "-out", "msg.bin"]);
      const bin = await ops.symmetric({
        direction: "decrypt",
        cipher: "AES-256-CBC",
        keyMode: "password",
        password: "pw",
        kdf: "pbkdf2",
        iterations: 10000,
        hash: "SHA-256",
        key: "",
        iv: "",
        aad: null,
        data: { kind: "file", file: new File([new Uint8Array(o.read("msg.bin"))], "msg.bin") },
        output: "utf8",
      });
      expect(bin.value).toBe("Pay 10.00 EUR to Ada\n");
      expect(bin.readAsBase64).toBeUndefined();
    } finally {
      o.cleanup();
    }
  });
});
