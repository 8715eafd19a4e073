/**
 * What every structured log line of the instance shares, whichever part writes it: the server in
 * front of Next.js (src/edge/log.ts) or the app (src/server/log.ts), so one JSON format reaches the
 * terminal or the log collector.
 */

/** The `service` field of every line. */
export const LOG_SERVICE = "abacus";

/** Paths pino replaces with "[redacted]" wherever a logged object has them. */
export const REDACTED_PATHS = [
  "headers.cookie",
  "headers.authorization",
  "headers['set-cookie']",
  "req.headers.cookie",
  "req.headers.authorization",
  "res.headers['set-cookie']",
  "*.password",
  "*.newPassword",
  "*.currentPassword",
  "*.token",
  "*.secret",
  "*.apiKey",
  "*.cardNumber",
  "*.number",
  "*.cvc",
];

export const REDACTION_CENSOR = "[redacted]";
