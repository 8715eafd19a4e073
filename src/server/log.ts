import "server-only";
import pino, { type Logger } from "pino";
import { LOG_SERVICE, REDACTED_PATHS, REDACTION_CENSOR } from "@/core/logging";

export type { Logger };

// One logger per server process, kept across hot reloads in development.
const holder = globalThis as typeof globalThis & { __abacusLog?: Logger };

/**
 * The app's structured log (pino): JSON lines on stdout in the same format as the server's own
 * (src/edge/log.ts), for the app's notable events and the libraries that take a logger (the
 * billing clock's graphile-worker). Pretty lines under `next dev`.
 */
export function getLog(): Logger {
  holder.__abacusLog ??= pino({
    base: { service: LOG_SERVICE },
    redact: { paths: REDACTED_PATHS, censor: REDACTION_CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(process.env.NODE_ENV === "development"
      ? {
          transport: {
            target: "pino-pretty",
            options: { colorize: true, ignore: "pid,hostname,service" },
          },
        }
      : {}),
  });
  return holder.__abacusLog;
}
