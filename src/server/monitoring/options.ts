import { isControlFlowEvent } from "@/core/monitoring/filters";
import { getEnv } from "../env";

/**
 * The Sentry options every server runtime shares (Node.js in sdk.ts, edge in instrumentation.ts):
 * defined once so no runtime drops the privacy setting. Free of Node-only imports, so the edge
 * runtime can load it.
 */
export function sharedOptions() {
  const env = getEnv();
  return {
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    release: env.SENTRY_RELEASE,
    tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
    maxBreadcrumbs: 100,
    transportOptions: { bufferSize: 64 },
    _flushInterval: 5000,
    // No cookies, request bodies or user details in reports (sign-in bodies carry passwords).
    dataCollection: { cookies: false, httpBodies: [], userInfo: false },
    beforeSend: <E extends Parameters<typeof isControlFlowEvent>[0]>(
      event: E,
      hint: { originalException?: unknown },
    ) => (isControlFlowEvent(event, hint) ? null : event),
  };
}
