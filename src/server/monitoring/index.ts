import "server-only";
import { getEnv } from "../env";
import { getSecrets } from "../secrets";
import { type MonitoringConfig, monitoringConfig } from "./config";

let cached: MonitoringConfig | undefined;

/** This instance's monitoring mode, from SENTRY_DSN (forward) or the instance secret (local). */
export function getMonitoringConfig(): MonitoringConfig {
  cached ??= monitoringConfig(getEnv(), getSecrets().authSecret);
  return cached;
}
