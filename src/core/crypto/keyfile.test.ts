import { afterAll, describe, expect, it } from "vitest";
import { OpenSslDir } from "../../../tests/support/openssl";
import { bytesToBase64, bytesToHex, utf8ToBytes } from "./encoding";
import { fileAsText, isDerSequence, keyFileText } from "./keyfile";
import { loadPrivateKey } from "./keyio";

// "Open file" beside a key field: is the file text (kept as it is) or DER (read as base64)?
const o = new OpenSslDir();
afterAll(() => o.cleanup());

const pem = o.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]).toString();
o.write("k.pem", pem);
o.run(["req", "-x509", "-key", "k.pem", "-subj", "/CN=file.example", "-days", "1", "-out", "c.pem"]);
const ders = {
  "PKCS#8 key": o.run(["pkcs8", "-topk8", "-nocrypt", "-in", "k.pem", "-outform", "DER"]),
  "SEC1 key": o.run(["ec", "-in", "k.pem", "-outform", "DER"]),
  "public key": o.run(["pkey", "-in", "k.pem", "-pubout", "-outform", "DER"]),
  certificate: o.run(["x509", "-in", "c.pem", "-outform", "DER"]),
  request: o.run(["req", "-new", "-key", "k.pem", "-subj", "/CN=r", "-outform", "DER"]),
};

describe("key files: text or DER", () => {
  it("DER files openssl writes are binary and become their base64", () => {
    for (const [what, der] of Object.entries(ders)) {
      const bytes = new Uint8Array(der);
      expect(isDerSequence(bytes), what).toBe(true);
      expect(keyFileText(bytes), what).toEqual({ text: bytesToBase64(bytes), binary: true });
    }
  });

  it("text starting with '0' (0x30, a SEQUENCE's tag) stays text: hex DER, a hex dump, a number", async () => {
    const hex = bytesToHex(new Uint8Array(ders["PKCS#8 key"]));
    for (const text of [
      `0x${hex}\n`,
      `00000000: ${hex.slice(0, 32).replace(/(..)/g, "$1 ")}\n`,
      "0123456789abcdef",
      "0",
      `0${"a".repeat(40)}`,
    ]) {
      expect(text.charCodeAt(0), text).toBe(0x30);
      expect(keyFileText(utf8ToBytes(text)), text).toEqual({ text, binary: false });
    }
    // and such a file read into a key field loads as the key.
    const { text } = keyFileText(utf8ToBytes(`0x${hex}\n`));
    expect((await loadPrivateKey(text)).kind).toBe("ec");
  });

  it("PEM (with CRLF, a byte order mark or as UTF-16), base64, hex and JWK text stay text", () => {
    const der = new Uint8Array(ders.certificate);
    for (const text of [
      pem,
      pem.replace(/\n/g, "\r\n"),
      bytesToBase64(der),
      bytesToHex(der),
      '{"kty":"OKP"}',
    ]) {
      expect(keyFileText(utf8ToBytes(text))).toEqual({ text, binary: false });
    }
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8ToBytes(pem)]);
    expect(keyFileText(bom)).toEqual({ text: pem, binary: false });
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(pem, "utf16le"))]);
    expect(fileAsText(utf16)).toBe(pem);
  });

  it("binary that is not one DER SEQUENCE is still binary (the key loaders then name its DER fault)", () => {
    const der = new Uint8Array(ders["PKCS#8 key"]);
    const cases = {
      truncated: der.subarray(0, der.length - 3),
      "trailing newline": new Uint8Array([...der, 0x0a]),
      "indefinite length (BER)": new Uint8Array([0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00]),
      "non-minimal length": new Uint8Array([0x30, 0x81, 0x03, 0x02, 0x01, 0x05]),
      "bad child": new Uint8Array([0x30, 0x03, 0x02, 0x05, 0x05]),
      "not UTF-8": new Uint8Array([0xc3, 0x28, 0x41]),
    };
    for (const [what, bytes] of Object.entries(cases)) {
      expect(isDerSequence(bytes), what).toBe(false);
      expect(keyFileText(bytes), what).toEqual({ text: bytesToBase64(bytes), binary: true });
    }
    expect(isDerSequence(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x05]))).toBe(true);
    expect(isDerSequence(new Uint8Array([0x02, 0x01, 0x05]))).toBe(false); // DER, but not a SEQUENCE
  });
});
