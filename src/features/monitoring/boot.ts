import { CLIENT_CONFIG_PATH, type ClientMonitoringConfig } from "@/core/monitoring/client-config";

/**
 * The part of error reporting that ships with every page: a few hundred bytes. It fetches the run-time
 * configuration and loads the Sentry SDK as a separate chunk; errors thrown before the SDK is up are
 * queued and handed to it. Replay loads later still, once the page is idle (see sentry-browser.ts).
 */
type Sdk = typeof import("./sentry-browser");
type Queued = { error: unknown; handled: boolean };

let sdk: Sdk | undefined;
const queue: Queued[] = [];
let configPromise: Promise<ClientMonitoringConfig | undefined> | undefined;

export function loadClientConfig(): Promise<ClientMonitoringConfig | undefined> {
  configPromise ??= fetch(CLIENT_CONFIG_PATH, { credentials: "omit" })
    .then((response) => (response.ok ? (response.json() as Promise<ClientMonitoringConfig>) : undefined))
    .catch(() => undefined);
  return configPromise;
}

const onError = (event: ErrorEvent) => {
  queue.push({ error: event.error ?? event.message, handled: false });
};
const onRejection = (event: PromiseRejectionEvent) => {
  queue.push({ error: event.reason, handled: false });
};

export function startMonitoring() {
  if (typeof window === "undefined") return;
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  Promise.all([loadClientConfig(), import("./sentry-browser")])
    .then(([config, module]) => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
      if (!config) return;
      module.startSentry(config);
      sdk = module;
      for (const { error, handled } of queue.splice(0)) module.captureError(error, handled);
    })
    .catch(() => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    });
}

/** For error boundaries: reports a render error now, or as soon as the SDK is loaded. */
export function captureError(error: unknown) {
  if (sdk) sdk.captureError(error, true);
  else queue.push({ error, handled: true });
}

/** Next.js calls this at the start of each client navigation (instrumentation-client.ts). */
export function onNavigationStart(href: string, navigationType: "push" | "replace" | "traverse") {
  sdk?.navigationStart(href, navigationType);
}
