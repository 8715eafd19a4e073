import { CLIENT_CONFIG_PATH, type ClientMonitoringConfig } from "@/core/monitoring/client-config";

/**
 * The part of error reporting that ships with every page, kept tiny. It listens for errors and
 * unhandled rejections from the start, and loads the Sentry SDK (a separate, large chunk whose
 * start-up makes long tasks on a phone) only when it is needed or the page has settled:
 *
 * - at once on the first error, rejection or error-boundary report (queued, then handed to the SDK);
 * - at the visitor's first interaction (pointer, key, focus, scroll), so replay records what they do;
 * - otherwise ten seconds after the load event, in an idle moment (performance traces and replay
 *   for visitors who only read).
 *
 * So the SDK never competes with hydration, the largest paint or the first input, and nothing thrown
 * before it is up is lost. Replay loads later still (see sentry-browser.ts); a replay that starts
 * after an error was queued is sent at once (sentry-browser.ts `errorsBeforeReplay`).
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

/**
 * How long after the load event the SDK waits (then for an idle moment) when nothing happened. Three
 * seconds was not enough: a phone still hydrating or prefetching links then met the SDK's download,
 * parse and start (long tasks at Lighthouse's 4x slowdown) in the middle of its start-up.
 */
const SDK_DELAY_MS = 10_000;
const INTERACTIONS = ["pointerdown", "keydown", "focusin", "scroll", "touchstart"] as const;

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
  for (const type of INTERACTIONS)
    window.addEventListener(type, loadSdk, { once: true, passive: true, capture: true });
  afterLoadWhenIdle(loadSdk);
}

let loading = false;
function loadSdk() {
  if (loading) return;
  loading = true;
  for (const type of INTERACTIONS) window.removeEventListener(type, loadSdk, { capture: true });
  const detach = () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
  Promise.all([loadClientConfig(), import("./sentry-browser")])
    .then(([config, module]) => {
      detach();
      if (!config) return;
      module.startSentry(config);
      sdk = module;
      for (const { error, handled } of queue.splice(0)) module.captureError(error, handled);
    })
    .catch(detach);
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
