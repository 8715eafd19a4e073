import "server-only";
import { parseEnvelope } from "@sentry/core";
import { ingestUrl, parseDsn, sameDsn } from "@/core/monitoring/dsn";
import type { Db } from "../db/client";
import { BodyTooLarge, readBodyCapped } from "../read-body";
import { expectedDsn, type MonitoringConfig } from "./config";
import { type EnvelopeItem, type StoreOptions, storeEvents, summarizeEnvelope } from "./store";

export const EVENT_LIMIT_BYTES = 1024 * 1024;
export const REPLAY_LIMIT_BYTES = 10 * 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;

export type TunnelDeps = {
  config: MonitoringConfig;
  db: Db;
  /** Tests only: where "Sentry" listens (e.g. a loopback server). The route never passes it. */
  ingestOrigin?: string;
  timeoutMs?: number;
  store?: StoreOptions;
  /** Called before anything is stored, e.g. a per-client rate limit; false answers 429. */
  allowStore?: () => Promise<boolean>;
};

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

type Parsed = { header: Record<string, unknown>; items: EnvelopeItem[] };

/** Parses with the SDK's own parser (replay items are binary); undefined when malformed. */
function parse(body: Uint8Array): Parsed | undefined {
  try {
    const [header, rawItems] = parseEnvelope(body) as unknown as [unknown, [unknown, unknown][]];
    if (typeof header !== "object" || header === null || Array.isArray(header)) return undefined;
    const items: EnvelopeItem[] = [];
    for (const [itemHeader, payload] of rawItems) {
      if (typeof itemHeader !== "object" || itemHeader === null || Array.isArray(itemHeader))
        return undefined;
      const h = itemHeader as Record<string, unknown>;
      if (typeof h.type !== "string") return undefined;
      // A binary item shorter than its declared length means the body was cut.
      if (typeof h.length === "number" && (!(payload instanceof Uint8Array) || payload.length !== h.length)) {
        return undefined;
      }
      items.push([h, payload]);
    }
    return { header: header as Record<string, unknown>, items };
  } catch {
    return undefined;
  }
}

/**
 * The `/monitoring` tunnel. Accepts a POSTed envelope only for the configured project: its query
 * (`o`, `p`, `r`) and the envelope header's DSN must both match, so it is not an open relay. Bodies
 * are capped at 1 MB, or 10 MB for envelopes carrying a replay. Then, with SENTRY_DSN, the exact bytes
 * go to that DSN's ingest URL and Sentry's status comes back; without, the events are stored.
 */
export async function handleTunnel(request: Request, deps: TunnelDeps): Promise<Response> {
  if (request.method !== "POST") return text(405, "Method not allowed", { allow: "POST" });
  const url = new URL(request.url);
  const { query } = deps.config;
  const o = url.searchParams.get("o");
  const p = url.searchParams.get("p");
  const r = url.searchParams.get("r");
  if (!o || !p) return text(400, "Missing o or p");
  if (o !== query.o || p !== query.p || (r ?? undefined) !== query.r) return text(403, "Unknown project");

  let body: Uint8Array;
  try {
    body = await readBodyCapped(request, REPLAY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return text(413, "Envelope too large");
    return text(400, "Could not read the body");
  }
  const parsed = parse(body);
  if (!parsed) return text(400, "Malformed envelope");
  const isReplay = parsed.items.some(([h]) => h.type === "replay_recording" || h.type === "replay_event");
  if (!isReplay && body.byteLength > EVENT_LIMIT_BYTES) return text(413, "Envelope too large");

  const dsn = typeof parsed.header.dsn === "string" ? parseDsn(parsed.header.dsn) : undefined;
  if (!dsn) return text(400, "Envelope without a valid DSN");
  const host = request.headers.get("host") ?? url.host;
  if (!sameDsn(dsn, expectedDsn(deps.config, host))) return text(403, "Unknown DSN");

  if (deps.config.mode === "sentry") return forward(body, deps);

  const rows = summarizeEnvelope(parsed.header, parsed.items);
  if (rows.length > 0) {
    if (deps.allowStore && !(await deps.allowStore()))
      return text(429, "Too many reports", { "retry-after": "60" });
    await storeEvents(deps.db, rows, deps.store);
  }
  return new Response(null, { status: 200 });
}

async function forward(body: Uint8Array, deps: TunnelDeps): Promise<Response> {
  if (deps.config.mode !== "sentry") throw new Error("forward needs a Sentry DSN");
  const target = new URL(ingestUrl(deps.config.dsn));
  if (deps.ingestOrigin) {
    const origin = new URL(deps.ingestOrigin);
    target.protocol = origin.protocol;
    target.host = origin.host;
  }
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/x-sentry-envelope" },
      body: body as BodyInit,
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs ?? FORWARD_TIMEOUT_MS),
    });
    const answer = await response.arrayBuffer();
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "retry-after", "x-sentry-rate-limits"]) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    const empty = [101, 204, 205, 304].includes(response.status);
    return new Response(empty ? null : answer, { status: response.status, headers });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return text(timedOut ? 504 : 502, timedOut ? "Sentry did not answer in time" : "Could not reach Sentry");
  }
}
