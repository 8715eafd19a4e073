/**
 * What every worker operation module shares (ops.ts, hash-ops.ts): the value types the forms send, the
 * FieldError that carries an input error to its form field, and `at`, which maps a core error code to
 * that field. It imports only the light core modules (errors, encoding), so the hash-only worker does
 * not pull in the rest of the crypto libraries.
 */
import { bytesToBase64, bytesToHex } from "@/core/crypto/encoding";
import { type CryptoErrorCode, CryptoInputError } from "@/core/crypto/errors";

export type TextKind = "utf8" | "hex" | "base64";
export type DataSpec = { kind: TextKind; text: string } | { kind: "file"; file: Blob };
export type OutputEncoding = "hex" | "base64";

export interface OpContext {
  signal?: AbortSignal;
  progress?: (processed: number, total: number | undefined) => void;
}

/** A CryptoInputError tied to a form field. Crosses the worker boundary as `{ code, message, field }`. */
export class FieldError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export type Fields = Partial<Record<CryptoErrorCode, string>> & { default?: string };

/** Runs `fn`; a CryptoInputError becomes a FieldError for the field its code maps to. */
export async function at<T>(fields: string | Fields, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CryptoInputError) {
      const field = typeof fields === "string" ? fields : (fields[e.code] ?? fields.default);
      throw new FieldError(e.code, e.message, field);
    }
    throw e;
  }
}

export function encode(bytes: Uint8Array, output: OutputEncoding): string {
  return output === "hex" ? bytesToHex(bytes) : bytesToBase64(bytes);
}

export interface DigestResult {
  value: string;
  /** Bytes of input digested. */
  inputLength: number;
  outputLength: number;
}
