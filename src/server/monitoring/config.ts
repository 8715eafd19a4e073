import "server-only";
import { createHmac } from "node:crypto";
import type { ClientMonitoringConfig } from "@/core/monitoring/client-config";
import {
  type Dsn,
  dsnToString,
  parseDsn,
  type TunnelQuery,
  tunnelQueryOf,
  tunnelUrl,
} from "@/core/monitoring/dsn";
import type { Env } from "../env";

/** The organisation and project ids of the instance's own placeholder DSN (no Sentry behind it). */
export const LOCAL_ORG_ID = "1";
export const LOCAL_PROJECT_ID = "1";

export type MonitoringConfig =
  | { mode: "sentry"; dsn: Dsn; query: TunnelQuery }
  | { mode: "local"; publicKey: string; query: TunnelQuery; host?: string };

type MonitoringEnv = Pick<Env, "SENTRY_DSN" | "APP_URL">;

/**
 * With SENTRY_DSN the tunnel forwards to Sentry. Without, the instance keeps reports itself under a
 * placeholder DSN of its own (the SDK sends nothing without a DSN): its public key is derived from the
 * instance secret, its host is this instance's (APP_URL's host, else the request's Host).
 */
export function monitoringConfig(env: MonitoringEnv, instanceSecret: string): MonitoringConfig {
  const dsn = env.SENTRY_DSN ? parseDsn(env.SENTRY_DSN) : undefined;
  if (dsn) return { mode: "sentry", dsn, query: tunnelQueryOf(dsn, LOCAL_ORG_ID) };
  const publicKey = createHmac("sha256", instanceSecret)
    .update("abacus:monitoring:public-key")
    .digest("hex")
    .slice(0, 32);
  return {
    mode: "local",
    publicKey,
    query: { o: LOCAL_ORG_ID, p: LOCAL_PROJECT_ID },
    host: env.APP_URL ? new URL(env.APP_URL).host : undefined,
  };
}

/** The DSN envelopes must carry, for a request that reached us on `requestHost` (the Host header). */
export function expectedDsn(config: MonitoringConfig, requestHost: string, protocol = "https"): Dsn {
  if (config.mode === "sentry") return config.dsn;
  const url = new URL(`${protocol === "http" ? "http" : "https"}://${config.host ?? requestHost}`);
  return {
    protocol: url.protocol === "http:" ? "http" : "https",
    publicKey: config.publicKey,
    host: url.hostname.toLowerCase(),
    port: url.port,
    path: "",
    projectId: LOCAL_PROJECT_ID,
  };
}

/** The browser's configuration; read at run time, so a new DSN needs no rebuild. */
export function clientMonitoringConfig(
  config: MonitoringConfig,
  env: Pick<
    Env,
    | "NODE_ENV"
    | "VERCEL"
    | "SENTRY_ENVIRONMENT"
    | "SENTRY_RELEASE"
    | "SENTRY_TRACES_SAMPLE_RATE"
    | "SENTRY_REPLAYS_SESSION_SAMPLE_RATE"
    | "SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE"
  >,
  requestHost: string,
  protocol?: string,
): ClientMonitoringConfig {
  return {
    dsn: dsnToString(expectedDsn(config, requestHost, protocol)),
    tunnel: tunnelUrl(config.query),
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    ...(env.SENTRY_RELEASE ? { release: env.SENTRY_RELEASE } : {}),
    tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
    replaysSessionSampleRate: env.SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
    replaysOnErrorSampleRate: env.SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
    analytics: env.VERCEL ? "vercel" : "local",
  };
}
