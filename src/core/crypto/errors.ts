/**
 * Every failure caused by the caller's input is a `CryptoInputError` with a stable `code`, so the UI can
 * show a specific message (and tests can assert on the code, not the wording).
 */
export type CryptoErrorCode =
  | "BAD_HEX"
  | "BAD_BASE64"
  | "BAD_UTF8"
  | "MALFORMED_PEM"
  | "MALFORMED_DER"
  | "MALFORMED_KEY"
  | "WRONG_KEY_TYPE"
  | "WRONG_PASSPHRASE"
  | "PASSPHRASE_REQUIRED"
  | "KEY_TOO_SHORT"
  | "MESSAGE_TOO_LONG"
  | "DECRYPTION_FAILED"
  | "INVALID_PUBLIC_VALUE"
  | "INVALID_SIGNATURE_FORMAT"
  | "UNSUPPORTED_ALGORITHM"
  | "INVALID_PARAMETER"
  | "INPUT_TOO_LARGE"
  /** A file changed, moved or vanished on disk after it was chosen. */
  | "INPUT_CHANGED"
  | "ABORTED";

export class CryptoInputError extends Error {
  override readonly name = "CryptoInputError";
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isCryptoInputError(e: unknown, code?: CryptoErrorCode): e is CryptoInputError {
  return e instanceof CryptoInputError && (code === undefined || e.code === code);
}

export function fail(code: CryptoErrorCode, message: string, cause?: unknown): never {
  throw new CryptoInputError(code, message, cause === undefined ? undefined : { cause });
}

export function unsupported(what: string): never {
  throw new CryptoInputError("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: ${what}`);
}
