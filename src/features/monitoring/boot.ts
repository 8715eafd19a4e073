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
  loadSdk();
};
const onRejection = (event: PromiseRejectionEvent) => {
  queue.push({ error: event.reason, handled: false });
  loadSdk();
};

/** How long after the page's load event the SDK waits (then for an idle moment) when nothing failed. */
const SDK_DELAY_MS = 3000;

/**
 * Runs `task` a little after the page has loaded, in an idle moment, so the SDK's download, parse and
 * start (about 100 KB gzip, long tasks of 100 ms and more on a phone) never compete with hydration,
 * the largest paint or the first interactions: Lighthouse counted them in the blocking time. Errors
 * thrown meanwhile wait in the queue, and the first one loads the SDK at once (see onError).
 */
function afterLoadWhenIdle(task: () => void) {
  const idle = () =>
    "requestIdleCallback" in window
      ? window.requestIdleCallback(task, { timeout: 4000 })
      : setTimeout(task, 1);
  const later = () => setTimeout(idle, SDK_DELAY_MS);
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

export function startMonitoring() {
  if (typeof window === "undefined") return;
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  afterLoadWhenIdle(loadSdk);
}

let loading = false;
function loadSdk() {
  if (loading) return;
  loading = true;
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
  else {
    queue.push({ error, handled: true });
    loadSdk();
  }
}

/** Next.js calls this at the start of each client navigation (instrumentation-client.ts). */
export function onNavigationStart(href: string, navigationType: "push" | "replace" | "traverse") {
  sdk?.navigationStart(href, navigationType);
}
