/**
 * The RSA encryption tool's operations (OAEP and PKCS#1 v1.5).
 */
import * as c from "@/core/crypto";
import { at, bytesOf, type DataSpec, encode, type OutputEncoding, privateKeyFields } from "../../op-base";

export type RsaPadding = "OAEP-SHA-256" | "OAEP-SHA-1" | "PKCS1v1.5";

function encryptionScheme(p: RsaPadding): c.EncryptionScheme {
  if (p === "PKCS1v1.5") return { padding: "PKCS1v1.5" };
  return { padding: "OAEP", hash: p === "OAEP-SHA-1" ? "SHA-1" : "SHA-256" };
}

async function rsaEncrypt(a: {
  publicKey: string;
  data: DataSpec;
  padding: RsaPadding;
  output: OutputEncoding;
}): Promise<{ value: string; maxLength: number }> {
  const key = await at("publicKey", () => c.loadPublicKey(a.publicKey));
  const scheme = encryptionScheme(a.padding);
  const data = await bytesOf("data", a.data);
  const out = await at({ WRONG_KEY_TYPE: "publicKey", KEY_TOO_SHORT: "publicKey", default: "data" }, () =>
    c.encrypt(key, data, scheme),
  );
  return {
    value: encode(out, a.output),
    maxLength: key.kind === "rsa" ? c.rsaMaxMessageLength(key, scheme) : 0,
  };
}

async function rsaDecrypt(a: {
  privateKey: string;
  passphrase: string;
  data: DataSpec;
  padding: RsaPadding;
  output: "utf8" | OutputEncoding;
}): Promise<{ value: string; shownAs: "utf8" | OutputEncoding }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const data = await bytesOf("data", a.data);
  const out = await at({ WRONG_KEY_TYPE: "privateKey", KEY_TOO_SHORT: "privateKey", default: "data" }, () =>
    c.decrypt(key, data, encryptionScheme(a.padding)),
  );
  if (a.output === "utf8") {
    try {
      return { value: c.bytesToUtf8(out), shownAs: "utf8" };
    } catch {
      return { value: c.bytesToHex(out), shownAs: "hex" };
    }
  }
  return { value: encode(out, a.output), shownAs: a.output };
}

export const ops = { rsaEncrypt, rsaDecrypt };
