import "server-only";
import { parseEnvelope } from "@sentry/core";
import { BODY_CAPS, refusalCacheControl } from "@/core/http/edge-contract";
import { ingestUrl, parseDsn, sameDsn } from "@/core/monitoring/dsn";
import type { Db } from "../db/client";
import { isDatabaseUnavailable, shortErrorLine } from "../db/errors";
import { limitRequest } from "../rate-limit";
import { BodyTooLarge, readBodyCapped } from "../read-body";
import { expectedDsn, type MonitoringConfig } from "./config";
import { type EnvelopeItem, type StoreOptions, storeEvents, summarizeEnvelope } from "./store";

export const EVENT_LIMIT_BYTES = BODY_CAPS.monitoringEvent;
export const REPLAY_LIMIT_BYTES = BODY_CAPS.monitoringReplay;
/**
 * Items per envelope. The SDK sends one event with a few attachments, a session, a client report,
 * or a replay (replay_event + replay_recording): a handful. Counted before the SDK's parser runs, so
 * an envelope of 450,000 empty items costs a scan, not 450,000 JSON parses and rows.
 */
export const MAX_ENVELOPE_ITEMS = 100;
const REPLAY_ITEM_TYPES = new Set(["replay_event", "replay_recording"]);
const FORWARD_TIMEOUT_MS = 10_000;
/**
 * Reports one client may send per window, stored or forwarded alike. Stored, every row counts;
 * forwarded, every item (see `forwardedReports`); an envelope past MAX_ENVELOPE_ITEMS, the whole
 * window's allowance.
 */
export const REPORTS_PER_CLIENT = { bucket: "monitoring", limit: 300, windowSeconds: 600 };
/**
 * Envelope bytes are counted in units of this size: an error report is one unit, an envelope at the
 * replay cap 128. (Coarser units made every small report cost a large share of the window, so a
 * page with a few errors and their replays ran out within minutes.)
 */
export const ENVELOPE_BYTE_UNIT = BODY_CAPS.monitoringReplay / 128;
/**
 * Envelope bytes one client may send per window, every envelope counted (replays included, stored
 * or not): 1,024 units, 16 MiB per 10 minutes, some 150 replay segments of the largest page.
 */
export const BYTES_PER_CLIENT = { bucket: "monitoring-bytes", limit: 1024, windowSeconds: 600 };

export type TunnelDeps = {
  config: MonitoringConfig;
  db: Db;
  /** Tests only: where "Sentry" listens (e.g. a loopback server). The route never passes it. */
  ingestOrigin?: string;
  timeoutMs?: number;
  store?: StoreOptions;
  /**
   * Called before anything is stored or forwarded with the number of reports it makes (rows to
   * store, or `forwardedReports`), e.g. the per-client limit (`limitReportsPerClient`); false (or
   * the limit's refusal, whose Retry-After and edge hold are passed on) answers 429. An envelope
   * past MAX_ENVELOPE_ITEMS is charged as `"all"`: no SDK sends one, so it uses up the client's
   * allowance for the window. If it throws (the database is down), the answer is a 503.
   */
  allowReports?: (reports: number | "all") => Promise<boolean | ReportsRefusal>;
  /**
   * Called with an envelope's size in bytes before its body is read when it declares a
   * Content-Length (else once it is read), e.g. the per-client byte limit (`limitBytesPerClient`);
   * false or a refusal answers 429, as for `allowReports`.
   */
  allowBytes?: (bytes: number) => Promise<boolean | ReportsRefusal>;
  /** Where a failure is reported (one short line); console.error by default. */
  logError?: (message: string) => void;
};

/**
 * The per-client limit (REPORTS_PER_CLIENT) in PostgreSQL, as `allowReports` for the client
 * `subject` names. A client this instance already saw refused is refused from memory until its
 * window moves, without a query (`limitRequest`), and the edge repeats that 429 by itself.
 */
export function limitReportsPerClient(
  db: Db,
  subject: () => Promise<string>,
): NonNullable<TunnelDeps["allowReports"]> {
  return async (reports) => {
    const cost = reports === "all" ? REPORTS_PER_CLIENT.limit : reports;
    const decision = await limitRequest(db, REPORTS_PER_CLIENT, await subject(), cost);
    return decision.allowed || decision;
  };
}

/**
 * The per-client byte limit (BYTES_PER_CLIENT) in PostgreSQL, as `allowBytes`. An envelope that
 * does not fit in what is left of the window uses that rest up, unit by unit (a few at most): the
 * window is then full, so the refusal holds for every envelope of the client, and the edge repeats
 * it from memory, before any further body is read.
 */
export function limitBytesPerClient(
  db: Db,
  subject: () => Promise<string>,
): NonNullable<TunnelDeps["allowBytes"]> {
  return async (bytes) => {
    const who = await subject();
    const cost = Math.max(1, Math.ceil(bytes / ENVELOPE_BYTE_UNIT));
    const decision = await limitRequest(db, BYTES_PER_CLIENT, who, cost);
    if (decision.allowed || decision.holdsForMs > 0) return decision.allowed || decision;
    // What is left of the window is under `cost`: take it in halving chunks (each fits or not, so
    // the rest shrinks to nothing in about log2(cost) small transactions), then one unit more is
    // refused with a hold the edge can repeat.
    for (let chunk = 2 ** Math.floor(Math.log2(cost)); chunk >= 1; chunk /= 2) {
      await limitRequest(db, BYTES_PER_CLIENT, who, chunk);
    }
    const full = await limitRequest(db, BYTES_PER_CLIENT, who, 1);
    return full.allowed ? decision : full;
  };
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

export type ReportsRefusal = { retryAfterSeconds: number; holdsForMs: number };

function tooManyReports(refusal: false | ReportsRefusal): Response {
  if (refusal === false) return text(429, "Too many reports", { "retry-after": "60" });
  return text(429, "Too many reports", {
    "retry-after": String(refusal.retryAfterSeconds),
    // The refusal is keyed on the client alone: the edge (src/edge) may repeat it while it holds.
    "cache-control": refusalCacheControl(refusal.holdsForMs),
  });
}

type Parsed = { header: Record<string, unknown>; items: EnvelopeItem[] };

/**
 * Counts an envelope's items the way the SDK's parser walks them (a JSON header line, then a
 * payload of the declared `length` or up to the next newline), stopping once past `max`. Only item
 * header lines are parsed. Returns the count, at most max + 1, or undefined when an item header is
 * one `parse` refuses anyway: not a JSON object with a string `type`, or a `length` that is not a
 * positive whole number. Those are refused here, before the SDK's parser runs, because its walk
 * differs from this one for them: it reads a `length` of 0 as "up to the next newline" and a
 * negative one without advancing, so an envelope whose first item says `"length":0` would be
 * counted as 2 items here and then parsed as all of its 450,000.
 */
export function countEnvelopeItems(body: Uint8Array, max = MAX_ENVELOPE_ITEMS): number | undefined {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const lineEnd = (from: number) => {
    const at = buffer.indexOf(10, from);
    return at === -1 ? buffer.length : at;
  };
  let offset = lineEnd(0) + 1; // the envelope header
  let count = 0;
  while (offset < buffer.length && count <= max) {
    const headerEnd = lineEnd(offset);
    const line = buffer.toString("utf8", offset, headerEnd).trim();
    offset = headerEnd + 1;
    if (line.length === 0) continue;
    count++;
    let header: unknown;
    try {
      header = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (typeof header !== "object" || header === null || Array.isArray(header)) return undefined;
    const { type, length } = header as { type?: unknown; length?: unknown };
    if (typeof type !== "string") return undefined;
    if (typeof length !== "number") {
      offset = lineEnd(offset) + 1; // a JSON payload: up to the next newline
    } else if (Number.isSafeInteger(length) && length > 0) {
      offset += length + 1; // a binary payload of that many bytes, then a newline
    } else {
      return undefined;
    }
  }
  return count;
}

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
 * What forwarding an envelope charges against the client's limit: each of its items, except a
 * replay segment's recording (the segment counts once, as its replay_event), and at least 1, as
 * every envelope costs a request to Sentry.
 */
export function forwardedReports(items: EnvelopeItem[]): number {
  return Math.max(1, items.filter(([header]) => header.type !== "replay_recording").length);
}

/**
 * The `/monitoring` tunnel. Accepts a POSTed envelope only for the configured project: its query
 * (`o`, `p`, `r`) and the envelope header's DSN must both match, so it is not an open relay. Bodies
 * are capped at 1 MB, or 2 MB for envelopes carrying only a replay, and every envelope's bytes count
 * against the client's byte limit (`allowBytes`). Then, with SENTRY_DSN, the exact bytes
 * go to that DSN's ingest URL and Sentry's status comes back; without, the events are stored. Either
 * way the client's reports are counted first (`allowReports`). Every failure answers in the
 * tunnel's plain-text shape: 503 while the database is unavailable, else 500, logged in one line.
 */
export async function handleTunnel(request: Request, deps: TunnelDeps): Promise<Response> {
  if (request.method !== "POST") return text(405, "Method not allowed", { allow: "POST" });
  try {
    return await tunnel(request, deps);
  } catch (error) {
    // One short line: a failing query's text can be megabytes (it carries the parameters), and
    // Next.js's error logger spends seconds of CPU on big messages.
    (deps.logError ?? console.error)(`monitoring: could not take the report: ${shortErrorLine(error, 200)}`);
    return isDatabaseUnavailable(error)
      ? text(503, "Reports cannot be taken right now", { "retry-after": "60" })
      : text(500, "Could not take the report");
  }
}

async function tunnel(request: Request, deps: TunnelDeps): Promise<Response> {
  const url = new URL(request.url);
  const { query } = deps.config;
  const o = url.searchParams.get("o");
  const p = url.searchParams.get("p");
  const r = url.searchParams.get("r");
  if (!o || !p) return text(400, "Missing o or p");
  if (o !== query.o || p !== query.p || (r ?? undefined) !== query.r) return text(403, "Unknown project");

  const charge = async (reports: number | "all") => {
    const allowed = deps.allowReports ? await deps.allowReports(reports) : true;
    return allowed === true ? undefined : tooManyReports(allowed);
  };
  const chargeBytes = async (bytes: number) => {
    const allowed = deps.allowBytes ? await deps.allowBytes(bytes) : true;
    return allowed === true ? undefined : tooManyReports(allowed);
  };
  // Every envelope's bytes count, whatever it carries; a declared length is charged before the
  // body is read, so a client over its limit costs a lookup, not a read.
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const declaredBytes = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
  if (declaredBytes !== undefined) {
    if (declaredBytes > REPLAY_LIMIT_BYTES) return text(413, "Envelope too large");
    const refused = await chargeBytes(declaredBytes);
    if (refused) return refused;
  }
  let body: Uint8Array;
  try {
    body = await readBodyCapped(request, REPLAY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return text(413, "Envelope too large");
    return text(400, "Could not read the body");
  }
  if (declaredBytes === undefined) {
    const refused = await chargeBytes(body.byteLength);
    if (refused) return refused;
  }
  const items = countEnvelopeItems(body);
  if (items === undefined) return text(400, "Malformed envelope");
  if (items > MAX_ENVELOPE_ITEMS) return (await charge("all")) ?? text(413, "Too many items in the envelope");
  const parsed = parse(body);
  if (!parsed) return text(400, "Malformed envelope");
  // The 2 MB allowance is for replay envelopes only: every item a replay item, as the SDK sends.
  const isReplay =
    parsed.items.length > 0 && parsed.items.every(([h]) => REPLAY_ITEM_TYPES.has(String(h.type)));
  if (!isReplay && body.byteLength > EVENT_LIMIT_BYTES) return text(413, "Envelope too large");

  const dsn = typeof parsed.header.dsn === "string" ? parseDsn(parsed.header.dsn) : undefined;
  if (!dsn) return text(400, "Envelope without a valid DSN");
  const host = request.headers.get("host") ?? url.host;
  if (!sameDsn(dsn, expectedDsn(deps.config, host))) return text(403, "Unknown DSN");

  if (deps.config.mode === "sentry") {
    return (await charge(forwardedReports(parsed.items))) ?? forward(body, deps);
  }
  const rows = summarizeEnvelope(parsed.header, parsed.items);
  // An envelope that stores nothing (a replay segment) is still a report taken.
  const refused = await charge(Math.max(1, rows.length));
  if (refused) return refused;
  if (rows.length > 0) await storeEvents(deps.db, rows, deps.store);
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
