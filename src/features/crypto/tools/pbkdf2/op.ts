/**
 * The PBKDF2 tool's operation (run in a dedicated worker: WebCrypto cannot be interrupted).
 */
import * as c from "@/core/crypto";
import { at, bytesOf, type DataSpec, encode, FieldError, type OutputEncoding } from "../../op-base";

async function pbkdf2(a: {
  password: string;
  salt: DataSpec;
  iterations: number;
  length: number;
  hash: c.HashAlgorithm;
  output: OutputEncoding;
}): Promise<{ value: string; millis: number }> {
  const salt = await bytesOf("salt", a.salt);
  const started = performance.now();
  const out = await at({ default: "iterations" }, async () => {
    try {
      return await c.pbkdf2({
        password: a.password,
        salt,
        iterations: a.iterations,
        length: a.length,
        hash: a.hash,
      });
    } catch (e) {
      if (e instanceof c.CryptoInputError && /length/.test(e.message)) {
        throw new FieldError(e.code, e.message, "length");
      }
      throw e;
    }
  });
  return { value: encode(out, a.output), millis: Math.round(performance.now() - started) };
}

export const ops = { pbkdf2 };
