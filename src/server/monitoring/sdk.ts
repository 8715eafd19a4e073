import "server-only";
import { type BaseTransportOptions, createTransport, parseEnvelope, type Transport } from "@sentry/core";
import * as Sentry from "@sentry/nextjs";
import { dsnToString } from "@/core/monitoring/dsn";
import { getDb } from "../db/client";
import { shortErrorLine } from "../db/errors";
import { getEnv } from "../env";
import { expectedDsn } from "./config";
import { getMonitoringConfig } from "./index";
import { sharedOptions } from "./options";
import { type EnvelopeItem, storeEvents, summarizeEnvelope } from "./store";

/** Local mode: the server's own reports go straight into monitoring_events, no HTTP round trip. */
function makeLocalTransport(options: BaseTransportOptions): Transport {
  return createTransport(options, async (request) => {
    try {
      const [header, items] = parseEnvelope(request.body) as unknown as [
        Record<string, unknown>,
        EnvelopeItem[],
      ];
      await storeEvents(getDb(), summarizeEnvelope(header, items));
      return { statusCode: 200 };
    } catch (error) {
      console.error(`monitoring: could not store a server report: ${shortErrorLine(error)}`);
      return { statusCode: 500 };
    }
  });
}

/**
 * Node.js runtime: forwards to Sentry with SENTRY_DSN, else stores locally.
 *
 * Server-side tracing is off unless SENTRY_SERVER_TRACES_SAMPLE_RATE is above 0. With it on, the SDK
 * registers an OpenTelemetry tracer provider, so Next.js's own spans (dozens per request) are created
 * and processed on every request, sampled or not: measured with bench/http.mjs, that alone cost the
 * static pages about two thirds of their throughput. With it off, errors are still captured
 * (instrumentation.ts's onRequestError), each request keeps its own isolation scope for breadcrumbs,
 * and the browser still traces page loads at SENTRY_TRACES_SAMPLE_RATE.
 */
export function initServerMonitoring() {
  const config = getMonitoringConfig();
  const local = config.mode === "local";
  const serverTraces = getEnv().SENTRY_SERVER_TRACES_SAMPLE_RATE;
  const tracing = serverTraces > 0;
  Sentry.init({
    ...sharedOptions(),
    dsn: dsnToString(expectedDsn(config, "localhost")),
    ...(local ? { transport: makeLocalTransport } : {}),
    tracesSampleRate: tracing ? serverTraces : undefined,
    enableOpenTelemetrySetup: tracing,
    ...(tracing
      ? {}
      : {
          integrations: [
            // Replaces the default Http integration (same name): no spans, no per-request session.
            Sentry.httpIntegration({ spans: false, disableIncomingRequestSpans: true, sessions: false }),
          ],
        }),
  });
}
