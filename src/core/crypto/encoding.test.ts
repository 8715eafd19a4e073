import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  asn1Tree,
  base64ToBytes,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  decrypt,
  encrypt,
  generateKeyPair,
  hexToBytes,
  inspect,
  loadPrivateKey,
  parsePem,
  sign,
  toPem,
  utf8ToBytes,
  verify,
} from "./index";

describe("hex", () => {
  it("tolerates spaces, colons, dashes, newlines and 0x", () => {
    expect(bytesToHex(hexToBytes("0xDE AD:be-ef\n01"))).toBe("deadbeef01");
    expect(bytesToHex(hexToBytes("  "))).toBe("");
  });
  it("names the position of a bad character and odd lengths", () => {
    expect(() => hexToBytes("abzz")).toThrow("Invalid hex at position 3");
    expect(() => hexToBytes("abc")).toThrow(/Invalid hex at position 3: odd number/);
    expect(() => hexToBytes("a:bc")).toThrow(/position 2: separator inside a byte/);
    try {
      hexToBytes("g");
    } catch (e) {
      expect(e).toMatchObject({ name: "CryptoInputError", code: "BAD_HEX" });
    }
  });
  it("round-trips (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array(), (b) => {
        expect(hexToBytes(bytesToHex(b, ":"))).toEqual(b);
      }),
    );
  });
});

describe("base64", () => {
  it("round-trips both alphabets (property) and matches Node's encoder", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        expect(bytesToBase64(b)).toBe(Buffer.from(b).toString("base64"));
        expect(bytesToBase64Url(b)).toBe(Buffer.from(b).toString("base64url"));
        expect(base64ToBytes(bytesToBase64(b))).toEqual(b);
        expect(base64ToBytes(bytesToBase64Url(b))).toEqual(b);
      }),
    );
  });
  it("rejects bad characters, bad padding and impossible lengths", () => {
    expect(() => base64ToBytes("ab$c")).toThrow("Invalid base64 at position 3");
    expect(() => base64ToBytes("abcde")).toThrow(/length/);
    expect(() => base64ToBytes("ab=c")).toThrow(/data after padding/);
    expect(() => base64ToBytes("QQ=")).toThrow(/padding/);
  });
});

describe("PEM", () => {
  it("emits 64-column armor and parses it back", () => {
    const der = new Uint8Array(100).map((_, i) => i);
    const pem = toPem("PUBLIC KEY", der);
    expect(pem.split("\n")[1]?.length).toBe(64);
    expect(parsePem(`junk before\n${pem}junk after`).der).toEqual(der);
  });
  it("reports malformed PEM specifically", () => {
    expect(() => parsePem("-----BEGIN PRIVATE KEY-----\nAAAA\n")).toThrow(/has no END line/);
    expect(() => parsePem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PUBLIC KEY-----")).toThrow(
      /closed by/,
    );
    expect(() => parsePem("-----BEGIN X-----\n@@@@\n-----END X-----")).toThrow(/not base64/);
    expect(() => parsePem("hello")).toThrow(/no '-----BEGIN/);
  });
});

describe("typed errors from the façade", () => {
  it("wrong key type, message too long, malformed key, unsupported algorithm", async () => {
    const ed = await generateKeyPair({ type: "Ed25519" });
    await expect(sign(ed.privatePem, utf8ToBytes("x"), { alg: "ECDSA" })).rejects.toMatchObject({
      code: "WRONG_KEY_TYPE",
    });
    await expect(encrypt(ed.publicPem, utf8ToBytes("x"), { padding: "PKCS1v1.5" })).rejects.toMatchObject({
      code: "WRONG_KEY_TYPE",
    });
    await expect(loadPrivateKey(ed.publicPem)).rejects.toMatchObject({ code: "WRONG_KEY_TYPE" });
    const rsa = await generateKeyPair({ type: "RSA", bits: 2048 });
    await expect(
      encrypt(rsa.publicPem, new Uint8Array(191), { padding: "OAEP", hash: "SHA-256" }),
    ).rejects.toMatchObject({
      code: "MESSAGE_TOO_LONG",
    });
    const ct = await encrypt(rsa.publicPem, new Uint8Array(190), { padding: "OAEP", hash: "SHA-256" });
    expect((await decrypt(rsa.privatePem, ct, { padding: "OAEP", hash: "SHA-256" })).length).toBe(190);
    await expect(generateKeyPair({ type: "RSA", bits: 1024 as 2048 })).rejects.toMatchObject({
      code: "KEY_TOO_SHORT",
    });
    await expect(
      loadPrivateKey("-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----"),
    ).rejects.toMatchObject({
      code: "MALFORMED_KEY",
    });
    await expect(loadPrivateKey("-----BEGIN PRIVATE KEY-----\nMAA")).rejects.toMatchObject({
      code: "MALFORMED_PEM",
    });
    await expect(
      sign(rsa.privatePem, utf8ToBytes("x"), { alg: "RSA-PSS", hash: "SHA3-256" as "SHA-256" }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED_ALGORITHM" });
    // JWK where WebCrypto defines one
    expect(rsa.jwk?.publicKey).toMatchObject({ kty: "RSA", e: "AQAB" });
    expect(ed.jwk?.privateKey).toMatchObject({ kty: "OKP", crv: "Ed25519" });
    expect((await generateKeyPair({ type: "DH", group: "ffdhe2048" })).jwk).toBeUndefined();
  });

  it("an ECDSA signature from WebCrypto and a raw one verify; a corrupted one does not", async () => {
    const k = await generateKeyPair({ type: "EC", curve: "P-521" });
    const m = utf8ToBytes("m");
    const sig = await sign(k.privatePem, m, { alg: "ECDSA", format: "raw" });
    expect(sig.length).toBe(132);
    expect(await verify(k.publicPem, m, sig, { alg: "ECDSA" })).toBe(true);
    sig[5] = (sig[5] ?? 0) ^ 1;
    expect(await verify(k.publicPem, m, sig, { alg: "ECDSA" })).toBe(false);
  });
});

describe("inspector", () => {
  it("builds a bounded JSON-able ASN.1 tree", async () => {
    const k = await generateKeyPair({ type: "EC", curve: "P-256" });
    const [i] = await inspect(k.privatePem);
    expect(i?.format).toBe("PKCS#8");
    expect(i?.key).toMatchObject({ type: "EC", isPrivate: true, ec: { curve: "P-256" } });
    const json = JSON.parse(JSON.stringify(i?.asn1));
    expect(json.root.children[1].children[0].value).toBe("1.2.840.10045.2.1 (id-ecPublicKey)");
    expect(json.root.children[2].encapsulates).toBe(true);
    const small = asn1Tree(parsePem(k.privatePem).der, { maxNodes: 3 });
    expect(small.truncated).toBe(true);
    expect(small.nodeCount).toBeLessThanOrEqual(3);
  });
  it("reports garbage as an error, not a crash", async () => {
    const [i] = await inspect("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----");
    expect(i?.error?.code).toBe("MALFORMED_DER");
    await expect(inspect("zz")).rejects.toMatchObject({
      code: "MALFORMED_PEM",
      message: expect.stringMatching(/^Not PEM, base64 or hex/),
    });
  });
  it("a word that is valid base64 (or hex) but not DER says it is not PEM before it says not DER", async () => {
    for (const [text, as] of [
      ["test", "base64"],
      ["Zm9vYmFy", "base64"],
      ["deadbeef", "hex"],
    ] as const) {
      await expect(inspect(text), text).rejects.toMatchObject({
        code: "MALFORMED_PEM",
        message: expect.stringMatching(new RegExp(`^Not PEM, and as ${as} it is not DER \\(.+\\): paste`)),
      });
    }
    // Real DER as base64 or hex (no PEM armour) is still inspected, and so is valid DER of no known kind.
    const k = await generateKeyPair({ type: "EC", curve: "P-256" });
    const der = parsePem(k.privatePem).der;
    expect((await inspect(bytesToBase64(der)))[0]?.format).toBe("PKCS#8");
    expect((await inspect(bytesToHex(der)))[0]?.format).toBe("PKCS#8");
    expect((await inspect("04 02 ab cd"))[0]).toMatchObject({ format: "unknown", byteLength: 4 });
    // Bytes (an opened DER file) that are not DER keep the DER error: there was no text to misread.
    const [bad] = await inspect(new Uint8Array([0xb5, 0xeb, 0x2d]));
    expect(bad?.error?.code).toBe("MALFORMED_DER");
  });
  it("the inspector's limit is 1 MiB of DER, and says so", async () => {
    await expect(inspect(new Uint8Array(1024 * 1024 + 1))).rejects.toMatchObject({
      code: "INPUT_TOO_LARGE",
      message: "Input too large: more than 1 MiB of DER",
    });
  });
});
