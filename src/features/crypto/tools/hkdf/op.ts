/**
 * The HKDF tool's operation (RFC 5869: extract and expand, or either alone).
 */
import * as c from "@/core/crypto";
import { at, bytesOf, type DataSpec, encode, FieldError, type OutputEncoding } from "../../op-base";

async function hkdf(a: {
  hash: c.HashAlgorithm;
  mode: c.HkdfMode;
  key: DataSpec;
  salt: DataSpec;
  info: DataSpec;
  length: number;
  output: OutputEncoding;
}): Promise<{ value: string; length: number }> {
  const key = await bytesOf("key", a.key);
  const salt = await bytesOf("salt", a.salt);
  const info = await bytesOf("info", a.info);
  const out = await at({ default: a.mode === "expand" ? "key" : "length" }, () => {
    try {
      return c.hkdf({ hash: a.hash, key, salt, info, length: a.length, mode: a.mode });
    } catch (e) {
      if (e instanceof c.CryptoInputError && /^Length/.test(e.message)) {
        throw new FieldError(e.code, e.message, "length");
      }
      throw e;
    }
  });
  return { value: encode(out, a.output), length: out.length };
}

export const ops = { hkdf };
