import { parseServerEnv } from "@/server/env-schema";
import { connectionRoom, DEFAULT_SERVER_MAX_CONNECTIONS, openFileLimit } from "./request-guard";

export interface ServerConfig {
  port: number;
  host: string;
  trustProxy: number;
  appUrl: URL | undefined;
  clientMaxActive: number;
  clientMaxQueued: number;
  clientMaxConnections: number;
  serverMaxConnections: number;
  /** How long a shutdown waits for the requests in flight (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** The bearer token of /metrics (METRICS_TOKEN); undefined: metrics are off. */
  metricsToken: string | undefined;
  /** The app's database pool size (DATABASE_POOL_SIZE), which /metrics reports. */
  databasePoolSize: number;
}

/**
 * The server's own settings, validated by the app's one configuration schema
 * (src/server/env-schema.ts). Returns `{ config }` or `{ errors }` (one line per bad variable).
 * `openFiles`: the process's open-file limit (RLIMIT_NOFILE, read from /proc; a process cannot raise
 * its own hard limit), which the connection cap must leave room in for the database pool.
 */
export function readServerConfig(
  source: Record<string, string | undefined>,
  { openFiles = openFileLimit() }: { openFiles?: number } = {},
): { config: ServerConfig; errors?: undefined } | { errors: string[]; config?: undefined } {
  const { env, errors } = parseServerEnv(source);
  if (errors) return { errors };
  // The database pool's sockets count against the same open-file limit as the connections.
  const room = connectionRoom(openFiles, env.DATABASE_POOL_SIZE + 1);
  const serverMaxConnections =
    env.SERVER_MAX_CONNECTIONS ??
    Math.max(16, Math.min(DEFAULT_SERVER_MAX_CONNECTIONS, room ?? DEFAULT_SERVER_MAX_CONNECTIONS));
  if (
    room !== undefined &&
    openFiles !== undefined &&
    env.SERVER_MAX_CONNECTIONS !== undefined &&
    serverMaxConnections > room
  ) {
    return {
      errors: [
        `  - SERVER_MAX_CONNECTIONS: ${serverMaxConnections} does not fit in this process's open-file limit ` +
          `(ulimit -n: ${openFiles}) less ${openFiles - room} kept for the database pool and files: ` +
          `at most ${room}, or raise the limit`,
      ],
    };
  }
  return {
    config: {
      port: env.PORT,
      host: env.HOST,
      trustProxy: env.TRUST_PROXY,
      appUrl: env.APP_URL === undefined ? undefined : new URL(env.APP_URL),
      clientMaxActive: env.CLIENT_MAX_ACTIVE,
      clientMaxQueued: env.CLIENT_MAX_QUEUED,
      clientMaxConnections: env.CLIENT_MAX_CONNECTIONS,
      serverMaxConnections,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      metricsToken: env.METRICS_TOKEN,
      databasePoolSize: env.DATABASE_POOL_SIZE,
    },
  };
}
