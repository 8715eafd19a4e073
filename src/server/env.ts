import "server-only";
import { type Env, parseEnv } from "./env-schema";

export { type Env, parseEnv, pemFromEnv } from "./env-schema";

let cached: Env | undefined;

/**
 * The one place that reads `process.env` for the app. Parsed once, on first use: `instrumentation.ts`
 * calls `getEnv()` when the server starts, so a bad value stops it with a message naming each wrong
 * variable. (It is not parsed at import time because `next build` imports route modules without
 * a database to point at.)
 */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The instance's public origin (APP_URL's, or this server's on localhost) for absolute links in page
 * metadata. Unlike `getEnv()` it also works during `next build`, when the rest of the configuration
 * (DATABASE_URL) is absent; an invalid APP_URL is reported by `getEnv()` at start.
 */
export function publicOrigin(): string {
  const { APP_URL, PORT } = process.env;
  if (APP_URL) {
    try {
      return new URL(APP_URL).origin;
    } catch {}
  }
  return `http://localhost:${PORT || 3000}`;
}
