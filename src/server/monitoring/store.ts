import "server-only";
import { sql } from "drizzle-orm";
import { plural } from "@/core/plural";
import type { Db } from "../db/client";
import { monitoringEvents } from "../db/schema";

export const KEEP_EVENTS = 10_000;
/** Pruning runs when an insert's id crosses a multiple of this: cheap, and right across instances. */
export const PRUNE_EVERY = 100;
export const PAYLOAD_CAP_BYTES = 64 * 1024;
/** Rows per INSERT: a few hundred parameters, far below PostgreSQL's 65,535. */
export const STORE_BATCH_ROWS = 50;
const MESSAGE_CAP = 1000;

type Json = Record<string, unknown>;
export type EnvelopeHeader = Json;
export type EnvelopeItem = [Json, unknown];
export type StoredEvent = typeof monitoringEvents.$inferInsert;

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined;
const obj = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const cap = (value: string | undefined, length = MESSAGE_CAP) =>
  value && value.length > length ? `${value.slice(0, length - 1)}…` : value;

function jsonPayload(payload: unknown): Json | undefined {
  if (payload instanceof Uint8Array) {
    try {
      return obj(JSON.parse(new TextDecoder().decode(payload)));
    } catch {
      return undefined;
    }
  }
  return obj(payload);
}

/** The payload as JSON text, at most PAYLOAD_CAP_BYTES; a bigger one keeps its head, marked as cut. */
export function capPayload(payload: Json): string {
  const text = JSON.stringify(payload);
  const bytes = Buffer.byteLength(text);
  if (bytes <= PAYLOAD_CAP_BYTES) return text;
  let head = text.slice(0, PAYLOAD_CAP_BYTES - 200);
  while (Buffer.byteLength(JSON.stringify({ truncated: true, bytes, head })) > PAYLOAD_CAP_BYTES) {
    head = head.slice(0, Math.floor(head.length * 0.9));
  }
  return JSON.stringify({ truncated: true, bytes, head });
}

function eventMessage(event: Json): string | undefined {
  const values = obj(event.exception)?.values;
  if (Array.isArray(values) && values.length > 0) {
    const last = obj(values[values.length - 1]) ?? {};
    const type = str(last.type);
    const value = str(last.value);
    return type && value ? `${type}: ${value}` : (value ?? type);
  }
  const message = event.message;
  return str(message) ?? str(obj(message)?.formatted) ?? str(obj(event.logentry)?.formatted);
}

/**
 * One row per stored item of an envelope: errors, transactions, spans, logs, feedback and the first
 * segment of each replay. Sessions, client reports, attachments and replay recordings are not kept.
 */
export function summarizeEnvelope(header: EnvelopeHeader, items: EnvelopeItem[]): StoredEvent[] {
  const trace = obj(header.trace);
  const rows: StoredEvent[] = [];
  for (const [itemHeader, raw] of items) {
    try {
      const row = summarizeItem(header, trace, itemHeader, raw);
      if (row) rows.push(row);
    } catch {
      // A payload nested too deep to serialize (or otherwise hostile) is dropped, not a 500.
    }
  }
  return rows;
}

function summarizeItem(
  header: EnvelopeHeader,
  trace: Json | undefined,
  itemHeader: Json,
  raw: unknown,
): StoredEvent | undefined {
  const itemType = str(itemHeader.type);
  const payload = jsonPayload(raw);
  if (!itemType || !payload) return undefined;
  const common = {
    release: str(payload.release) ?? str(trace?.release),
    environment: str(payload.environment) ?? str(trace?.environment),
    traceId: str(obj(obj(payload.contexts)?.trace)?.trace_id) ?? str(trace?.trace_id),
    eventId: str(payload.event_id) ?? str(header.event_id),
  };
  const url = str(obj(payload.request)?.url) ?? str(obj(payload.tags)?.url);
  if (itemType === "event") {
    return {
      ...common,
      type: "error",
      level: str(payload.level) ?? "error",
      message: cap(eventMessage(payload)),
      url,
      payload: capPayload(payload),
    };
  } else if (itemType === "transaction") {
    return {
      ...common,
      type: "transaction",
      level: "info",
      message: cap(str(payload.transaction)),
      url,
      payload: capPayload(payload),
    };
  } else if (itemType === "span") {
    const spans = Array.isArray(payload.items) ? payload.items : [];
    const first = obj(spans[0]);
    return {
      ...common,
      type: "spans",
      level: "info",
      message: cap(`${str(first?.name) ?? "spans"} (${plural(spans.length, "span")})`),
      traceId: common.traceId ?? str(first?.trace_id),
      payload: capPayload(payload),
    };
  } else if (itemType === "log") {
    const logs = Array.isArray(payload.items) ? payload.items : [];
    const first = obj(logs[0]);
    const more = logs.length > 1 ? ` (+${logs.length - 1} more)` : "";
    return {
      ...common,
      type: "log",
      level: str(first?.level) ?? "info",
      message: cap(`${str(first?.body) ?? ""}${more}`),
      traceId: common.traceId ?? str(first?.trace_id),
      payload: capPayload(payload),
    };
  } else if (itemType === "feedback") {
    const feedback = obj(obj(payload.contexts)?.feedback);
    return {
      ...common,
      type: "feedback",
      level: "info",
      message: cap(str(feedback?.message)),
      url: str(feedback?.url) ?? url,
      payload: capPayload(payload),
    };
  } else if (itemType === "replay_event" && payload.segment_id === 0) {
    const urls = Array.isArray(payload.urls) ? payload.urls : [];
    return {
      ...common,
      type: "replay",
      level: "info",
      message: cap(`Replay ${str(payload.replay_id) ?? ""}`.trim()),
      url: str(urls[0]) ?? url,
      payload: capPayload(payload),
    };
  }
  return undefined;
}

/** Deletes all but the newest `keep` events, in one statement on the primary key. */
export async function pruneMonitoringEvents(db: Db, keep = KEEP_EVENTS): Promise<void> {
  await db.execute(sql`
    delete from ${monitoringEvents}
    where ${monitoringEvents.id} < (
      select ${monitoringEvents.id} from ${monitoringEvents}
      order by ${monitoringEvents.id} desc offset ${keep - 1} limit 1
    )`);
}

export type StoreOptions = { keep?: number; pruneEvery?: number };

export async function storeEvents(db: Db, rows: StoredEvent[], options: StoreOptions = {}): Promise<number> {
  if (rows.length === 0) return 0;
  const keep = options.keep ?? KEEP_EVENTS;
  const every = BigInt(options.pruneEvery ?? PRUNE_EVERY);
  const ids: bigint[] = [];
  for (let start = 0; start < rows.length; start += STORE_BATCH_ROWS) {
    const batch = rows.slice(start, start + STORE_BATCH_ROWS);
    const inserted = await db.insert(monitoringEvents).values(batch).returning({ id: monitoringEvents.id });
    ids.push(...inserted.map(({ id }) => id));
  }
  if (ids.some((id) => id % every === 0n)) await pruneMonitoringEvents(db, keep);
  return ids.length;
}
