/** What the browser needs to start error reporting and analytics (served by /api/monitoring/config). */
export type ClientMonitoringConfig = {
  dsn: string;
  tunnel: string;
  environment: string;
  release?: string;
  tracesSampleRate: number;
  replaysSessionSampleRate: number;
  replaysOnErrorSampleRate: number;
  analytics: "vercel" | "local";
};

export const CLIENT_CONFIG_PATH = "/api/monitoring/config";
export const PAGE_VIEW_PATH = "/api/views";
