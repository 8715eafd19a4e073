import { anonymousAnswer, apiMethods, apiRoute } from "@/server/api";
import { getEnv } from "@/server/env";
import { getMonitoringConfig } from "@/server/monitoring";
import { clientMonitoringConfig } from "@/server/monitoring/config";

// What the browser needs to start error reporting and analytics, read at run time so that pages stay
// static and a new SENTRY_DSN needs no rebuild. The DSN is public by design (Sentry's "public key").
export const dynamic = "force-dynamic";

const handle = apiRoute((request: Request) => {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  const body = clientMonitoringConfig(getMonitoringConfig(), getEnv(), host, url.protocol.replace(":", ""));
  // the same for every request with this Host: the edge may give it to credential-less reads (keyed by
  // Host and URL) without Next.js, as every page load asks for it
  return anonymousAnswer(
    request,
    Response.json(body, { headers: { "cache-control": "private, max-age=300" } }),
  );
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
