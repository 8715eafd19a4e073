/**
 * What every tool's operation (tools/<tool>/op.ts) shares: the value types the forms send, the
 * FieldError that carries an input error to its form field, `at`, which maps a core error code to
 * that field, and reading typed text or a file as bytes. It imports only the light core modules
 * (errors, encoding), so the hash-only worker does not pull in the rest of the crypto libraries.
 */
import { bytesToBase64, bytesToHex, decodeText } from "@/core/crypto/encoding";
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

/** What a streaming read of a file takes from the worker's context: the cancel signal and progress. */
export function streamOptions(ctx: OpContext): {
  signal?: AbortSignal;
  onProgress?: (processed: number, total: number | undefined) => void;
} {
  return {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.progress ? { onProgress: ctx.progress } : {}),
  };
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

/** Reads typed text (or a file) as bytes; errors point at `field`. */
export async function bytesOf(field: string, data: DataSpec): Promise<Uint8Array> {
  if (data.kind === "file") return new Uint8Array(await data.file.arrayBuffer());
  const { kind, text } = data;
  return at(field, () => decodeText(text, kind));
}

/** Where the passphrase errors of loading a private key go, and the rest. */
export const privateKeyFields = (field: string): Fields => ({
  WRONG_PASSPHRASE: "passphrase",
  PASSPHRASE_REQUIRED: "passphrase",
  default: field,
});
