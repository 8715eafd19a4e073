import "server-only";
import { SERVICE_UNAVAILABLE_DIGEST } from "@/core/service-unavailable";

/** Thrown by pages' data loading when the database is unreachable; error.tsx recognises its digest. */
export class ServiceUnavailableError extends Error {
  readonly digest = SERVICE_UNAVAILABLE_DIGEST;
  constructor(cause?: unknown) {
    super("The database is unavailable.", { cause });
    this.name = "ServiceUnavailableError";
  }
}

// postgres.js connection failures, and the PostgreSQL error classes that mean "not available
// right now" rather than "this query is wrong": 08 (connection exception), 53 (insufficient
// resources), 57P01-57P03 (shutdown, cannot connect now).
const DRIVER_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
]);
const SQLSTATE_UNAVAILABLE = /^(08|53|57P0[1-3])/;

/**
 * True when the error (or one of its causes: Drizzle wraps the driver's error) says the database
 * cannot be reached or is shutting down, so the right answer is 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, errors, cause, digest } = current as {
      code?: unknown;
      errors?: unknown;
      cause?: unknown;
      digest?: unknown;
    };
    if (digest === SERVICE_UNAVAILABLE_DIGEST) return true;
    if (typeof code === "string" && (DRIVER_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
    // Node's AggregateError (connection refused on both ::1 and 127.0.0.1).
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}

/** One short line for the log: a failing query's text can carry megabytes of parameters. */
export function shortErrorLine(error: unknown, max = 300): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : typeof error === "string"
        ? error
        : "unknown error";
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
