import {
  addIntegration,
  captureException,
  captureRouterTransitionStart,
  type ErrorEvent,
  type EventHint,
  init,
} from "@sentry/nextjs";
import type { ClientMonitoringConfig } from "@/core/monitoring/client-config";
import { isControlFlowEvent } from "@/core/monitoring/filters";

/**
 * The browser SDK, loaded as its own chunk by boot.ts (not part of any page's first load). Errors,
 * breadcrumbs and performance traces start here; session replay and its recorder are added once the
 * page is idle, from a further chunk.
 */
let started = false;
/** An error was reported before replay was recording: send the replay as soon as it starts. */
let errorBeforeReplay = false;
let replayAdded = false;

export function startSentry(config: ClientMonitoringConfig) {
  if (started) return;
  started = true;
  init({
    dsn: config.dsn,
    // Same-origin, so the CSP's connect-src 'self' covers it; the query names org, project and region.
    tunnel: config.tunnel,
    environment: config.environment,
    release: config.release,
    tracesSampleRate: config.tracesSampleRate,
    replaysSessionSampleRate: config.replaysSessionSampleRate,
    replaysOnErrorSampleRate: config.replaysOnErrorSampleRate,
    maxBreadcrumbs: 100,
    transportOptions: { bufferSize: 64 },
    _flushInterval: 5000,
    dataCollection: { cookies: false, httpBodies: [], userInfo: false },
    beforeSend: (event: ErrorEvent, hint: EventHint) => {
      if (isControlFlowEvent(event, hint)) return null;
      if (!replayAdded) errorBeforeReplay = true;
      return event;
    },
  });
  if (config.replaysSessionSampleRate > 0 || config.replaysOnErrorSampleRate > 0) whenIdle(loadReplay);
}

function whenIdle(task: () => void) {
  const run = () =>
    "requestIdleCallback" in window
      ? window.requestIdleCallback(task, { timeout: 5000 })
      : setTimeout(task, 1);
  if (document.readyState === "complete") run();
  else window.addEventListener("load", run, { once: true });
}

function loadReplay() {
  import("./replay")
    .then(({ createReplay }) => {
      const replay = createReplay();
      addIntegration(replay);
      replayAdded = true;
      // Replay starts after the page settles (or the SDK itself loaded because something failed). An
      // error reported before that had no recording to trigger; the buffer (sampled by
      // replaysOnErrorSampleRate: recording mode "buffer") is sent now, so that session still has a
      // replay of what follows the error.
      if (errorBeforeReplay && replay.getRecordingMode() === "buffer") void replay.flush();
    })
    .catch(() => {
      // Replay is a nice-to-have: errors are still reported without it.
    });
}

export function captureError(error: unknown, handled: boolean) {
  captureException(error, { mechanism: { type: handled ? "react.error-boundary" : "onerror", handled } });
}

export function navigationStart(href: string, navigationType: "push" | "replace" | "traverse") {
  captureRouterTransitionStart(href, navigationType);
}
