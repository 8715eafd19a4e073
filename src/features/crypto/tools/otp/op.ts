/**
 * The one-time-password tool's operation: TOTP (RFC 6238) and HOTP (RFC 4226) codes from a secret or
 * an `otpauth://` URI, as `oathtool` prints them, and whether a given code is among them.
 */
import { HOTP, Secret, TOTP, URI } from "otpauth";
import { FieldError } from "../../op-base";

export const OTP_ALGORITHMS = ["SHA1", "SHA256", "SHA512"] as const;
export type OtpAlgorithm = (typeof OTP_ALGORITHMS)[number];

/** Codes shown either side of the current one: enough for clock drift, few enough to read. */
export const OTP_MAX_WINDOW = 10;
/** Secrets are keys of a few dozen bytes; a larger one is a paste gone wrong. */
const OTP_MAX_SECRET_BYTES = 1024;

export interface OtpArgs {
  /** An `otpauth://totp/…` or `otpauth://hotp/…` URI; when set, it gives every other parameter. */
  uri: string;
  secret: string;
  secretEncoding: "base32" | "hex" | "utf8";
  type: "totp" | "hotp";
  algorithm: OtpAlgorithm;
  digits: number;
  /** TOTP: seconds per time step. */
  period: number;
  /** TOTP: the time to compute at (ISO 8601); empty for now. */
  at: string;
  /** HOTP: the counter, in decimal. */
  counter: string;
  /** How many codes to show before and after the current one. */
  window: number;
  /** A code to look for among them (spaces ignored); empty to skip. */
  check: string;
}

export interface OtpCode {
  /** Steps from the current code: -1 is the previous one. */
  offset: number;
  /** TOTP: the time step number; HOTP: the counter. */
  step: number;
  code: string;
  /** TOTP: when the code's step begins (ISO 8601). */
  from?: string;
}

export interface OtpResult {
  type: "totp" | "hotp";
  algorithm: OtpAlgorithm;
  digits: number;
  period?: number;
  codes: OtpCode[];
  /** TOTP: seconds until the current code changes, at the time computed. */
  remaining?: number;
  /** The code checked, and where it was found (undefined: not among the codes shown). */
  check?: { code: string; offset?: number };
  /** The secret in Base32, as authenticator apps and `oathtool -b` take it. */
  secretBase32: string;
  /** An otpauth URI with these parameters, for an authenticator app. */
  uri: string;
}

function secretOf(a: OtpArgs): Secret {
  const text = a.secret.trim();
  if (!text) throw new FieldError("INVALID_PARAMETER", "Enter the secret", "secret");
  let secret: Secret;
  try {
    if (a.secretEncoding === "base32") {
      const clean = text.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase();
      if (!/^[A-Z2-7]+$/.test(clean)) throw new Error("Base32 uses the letters A-Z and the digits 2-7");
      secret = Secret.fromBase32(clean);
    } else if (a.secretEncoding === "hex") {
      const clean = text.replace(/\s+/g, "");
      if (!/^([0-9a-fA-F]{2})+$/.test(clean)) throw new Error("Hex needs an even number of 0-9, a-f");
      secret = Secret.fromHex(clean);
    } else {
      secret = Secret.fromUTF8(a.secret);
    }
  } catch (e) {
    throw new FieldError(
      "INVALID_PARAMETER",
      `The secret is not valid ${a.secretEncoding === "utf8" ? "text" : a.secretEncoding === "hex" ? "hex" : "Base32"}: ${e instanceof Error ? e.message : String(e)}`,
      "secret",
    );
  }
  if (secret.bytes.length === 0) throw new FieldError("INVALID_PARAMETER", "Enter the secret", "secret");
  if (secret.bytes.length > OTP_MAX_SECRET_BYTES) {
    throw new FieldError(
      "INPUT_TOO_LARGE",
      `The secret is ${secret.bytes.length} bytes; secrets of up to ${OTP_MAX_SECRET_BYTES} bytes are taken`,
      "secret",
    );
  }
  return secret;
}

function wholeNumber(value: number, min: number, max: number, field: string, what: string): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new FieldError("INVALID_PARAMETER", `${what} must be a whole number from ${min} to ${max}`, field);
  }
  return value;
}

/** The generator the arguments describe: from the URI when there is one, else from the fields. */
function generatorOf(a: OtpArgs): TOTP | HOTP {
  if (a.uri.trim()) {
    let parsed: TOTP | HOTP;
    try {
      parsed = URI.parse(a.uri.trim());
    } catch (e) {
      throw new FieldError(
        "INVALID_PARAMETER",
        `Not an otpauth URI: ${e instanceof Error ? e.message : String(e)}`,
        "uri",
      );
    }
    if (!(OTP_ALGORITHMS as readonly string[]).includes(parsed.algorithm)) {
      throw new FieldError(
        "UNSUPPORTED_ALGORITHM",
        `The URI asks for ${parsed.algorithm}; authenticators and oathtool use SHA1, SHA256 or SHA512`,
        "uri",
      );
    }
    wholeNumber(parsed.digits, 6, 10, "uri", "Digits");
    if (parsed instanceof TOTP) wholeNumber(parsed.period, 1, 86_400, "uri", "The period");
    return parsed;
  }
  const secret = secretOf(a);
  if (!(OTP_ALGORITHMS as readonly string[]).includes(a.algorithm)) {
    throw new FieldError("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: ${a.algorithm}`, "algorithm");
  }
  const digits = wholeNumber(a.digits, 6, 10, "digits", "Digits");
  const common = { issuer: "", label: "Abacus workbench", secret, algorithm: a.algorithm, digits };
  if (a.type === "totp") {
    return new TOTP({ ...common, period: wholeNumber(a.period, 1, 86_400, "period", "The period") });
  }
  return new HOTP({ ...common, counter: 0 });
}

export function otp(a: OtpArgs): OtpResult {
  const gen = generatorOf(a);
  const window = wholeNumber(a.window, 0, OTP_MAX_WINDOW, "window", "The window");
  const codes: OtpCode[] = [];
  let remaining: number | undefined;
  if (gen instanceof TOTP) {
    const when = a.at.trim() ? new Date(a.at) : new Date();
    const ms = when.getTime();
    if (Number.isNaN(ms) || ms < 0) {
      throw new FieldError(
        "INVALID_PARAMETER",
        "Enter a date and time after 1970, or leave it empty for now",
        "at",
      );
    }
    const stepMs = gen.period * 1000;
    const current = Math.floor(ms / stepMs);
    remaining = Math.ceil(((current + 1) * stepMs - ms) / 1000);
    for (let offset = -window; offset <= window; offset++) {
      const step = current + offset;
      if (step < 0) continue;
      codes.push({
        offset,
        step,
        code: gen.generate({ timestamp: step * stepMs }),
        from: new Date(step * stepMs).toISOString(),
      });
    }
  } else {
    const fromUri = Boolean(a.uri.trim());
    const counter = fromUri && !a.counter.trim() ? gen.counter : Number(a.counter.trim());
    if (!/^\d*$/.test(a.counter.trim())) {
      throw new FieldError("INVALID_PARAMETER", "The counter must be a whole number from 0", "counter");
    }
    wholeNumber(counter, 0, Number.MAX_SAFE_INTEGER - OTP_MAX_WINDOW, "counter", "The counter");
    for (let offset = -window; offset <= window; offset++) {
      const step = counter + offset;
      if (step < 0) continue;
      codes.push({ offset, step, code: gen.generate({ counter: step }) });
    }
  }
  const result: OtpResult = {
    type: gen instanceof TOTP ? "totp" : "hotp",
    algorithm: gen.algorithm as OtpAlgorithm,
    digits: gen.digits,
    codes,
    secretBase32: gen.secret.base32,
    uri: gen.toString(),
  };
  if (gen instanceof TOTP) {
    result.period = gen.period;
    if (remaining !== undefined) result.remaining = remaining;
  }
  const check = a.check.replace(/\s+/g, "");
  if (check) {
    if (!/^\d+$/.test(check)) {
      throw new FieldError("INVALID_PARAMETER", "A code is made of digits only", "check");
    }
    const found = codes.find((c) => c.code === check);
    result.check = found ? { code: check, offset: found.offset } : { code: check };
  }
  return result;
}

export const ops = { otp };
