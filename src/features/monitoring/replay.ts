import { replayIntegration } from "@sentry/replay";

/**
 * Session replay, its own chunk, added after the page is idle. Every text and input is masked and all
 * media blocked, so a replay shows the page's shape and clicks, never what was typed or shown. No
 * sticky session: nothing is kept in the browser's storage between page loads.
 */
export function createReplay() {
  return replayIntegration({
    maskAllText: true,
    maskAllInputs: true,
    blockAllMedia: true,
    stickySession: false,
  });
}
