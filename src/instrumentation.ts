import * as Sentry from "@sentry/nextjs";

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Validate the configuration once at start: a bad variable stops the server here, by name. (Next.js
    // catches an error thrown here, logs it on every request and serves 500s: so exit instead.)
    const { getEnv } = await import("./server/env");
    try {
      getEnv();
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    }
    const { initServerMonitoring } = await import("./server/monitoring/sdk");
    initServerMonitoring();
    const { startBillingClock } = await import("./features/billing/server/start");
    await startBillingClock();
  }
  if (process.env.NEXT_RUNTIME === "edge") {
    // No database here: the edge runtime reports only when SENTRY_DSN is set (the app has no edge
    // routes today; this keeps any future one covered).
    const { getEnv } = await import("./server/env");
    const env = getEnv();
    if (env.SENTRY_DSN) {
      const { sharedOptions } = await import("./server/monitoring/options");
      Sentry.init({ ...sharedOptions(), dsn: env.SENTRY_DSN });
    }
  }
}

// Server components, route handlers, server actions and the proxy: Next.js hands every error here.
export const onRequestError = Sentry.captureRequestError;
