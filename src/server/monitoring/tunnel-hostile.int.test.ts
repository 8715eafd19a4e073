import { parseEnvelope } from "@sentry/core";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dsnToString } from "@/core/monitoring/dsn";
import { monitoringEvents } from "@/server/db/schema";
import { forgetRefusals } from "@/server/rate-limit";
import { createTestDatabase } from "../../../tests/support/db";
import { heldFor } from "../../../tests/support/held-for";
import { expectedDsn, monitoringConfig } from "./config";
import { STORE_BATCH_ROWS, storeEvents } from "./store";
import {
  BYTES_PER_CLIENT,
  countEnvelopeItems,
  ENVELOPE_BYTE_UNIT,
  EVENT_LIMIT_BYTES,
  handleTunnel,
  limitBytesPerClient,
  limitReportsPerClient,
  MAX_ENVELOPE_ITEMS,
  REPLAY_LIMIT_BYTES,
} from "./tunnel";

// The SDK's parser, watched: an envelope past the item cap must never reach it.
vi.mock("@sentry/core", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@sentry/core")>();
  return { ...actual, parseEnvelope: vi.fn(actual.parseEnvelope) };
});

// One anonymous envelope of 22,000 empty items froze the server for 38 s, and 450,000
// items with a replay_event got past the 1 MB cap and took RSS to 3 GB. These pin the caps.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(monitoringEvents);
  vi.mocked(parseEnvelope).mockClear();
});

const HOST = "abacus.test:3000";
const local = monitoringConfig({ SENTRY_DSN: undefined, APP_URL: undefined }, "instance-secret-for-tests");
const dsn = dsnToString(expectedDsn(local, HOST, "http"));
const stored = async () => (await t.db.select({ n: count() }).from(monitoringEvents))[0]?.n;
const post = (body: string | Uint8Array) =>
  new Request(`http://${HOST}/monitoring?o=1&p=1`, { method: "POST", body: body as BodyInit });
const deps = {
  config: local,
  get db() {
    return t.db;
  },
};

/** `count` items of one type after the envelope header (and optional extra items first). */
function manyItems(countOf: number, extra = "") {
  const item = `${JSON.stringify({ type: "event" })}\n${JSON.stringify({ message: "m" })}\n`;
  return `${JSON.stringify({ dsn })}\n${extra}${item.repeat(countOf)}`;
}

describe("item caps on /monitoring envelopes", () => {
  it("counts items as the SDK's parser walks them, binary items by their length", () => {
    const binary = "a\nb\nc\n".repeat(10); // newlines inside a binary payload are not item boundaries
    const body = `${JSON.stringify({ dsn })}\n{"type":"replay_recording","length":${binary.length}}\n${binary}\n{"type":"replay_event"}\n{}\n`;
    expect(countEnvelopeItems(Buffer.from(body))).toBe(2);
    expect(countEnvelopeItems(Buffer.from(manyItems(5)))).toBe(5);
    // It stops counting just past the cap, however many items follow.
    expect(countEnvelopeItems(Buffer.from(manyItems(450_000)))).toBe(MAX_ENVELOPE_ITEMS + 1);
  });

  // The SDK's parser reads `"length":0` as "up to the next newline" and a negative length without
  // advancing: a counter that walked such items its own way saw 2 items where the parser then
  // parsed 450,000 (0.9 s of CPU and 110 MB for a 10 MB body, only to refuse it).
  it.each([
    ["a length of 0", '{"type":"event","length":0}\n{}\n'],
    ["a negative length", '{"type":"event","length":-1}\n{}\n'],
    ["a fractional length", '{"type":"event","length":1.5}\n{}\n'],
    ["a header that is not an object", "[1,2]\n{}\n"],
    ["a header without a type", '{"length":2}\n{}\n'],
    ["a header that is not JSON", "not json\n{}\n"],
  ])("refuses an envelope whose first item has %s, before the SDK's parser sees it", async (_what, first) => {
    const body = Buffer.from(manyItems(22_000, first));
    expect(countEnvelopeItems(body)).toBeUndefined();
    const response = await handleTunnel(post(body), deps);
    expect(response.status).toBe(400);
    expect(parseEnvelope).not.toHaveBeenCalled();
    expect(await stored()).toBe(0);
  });

  it("walks a non-numeric length as the parser does (a JSON payload), so the cap still applies", async () => {
    const body = Buffer.from(manyItems(22_000, '{"type":"event","length":"2"}\n{}\n'));
    expect(countEnvelopeItems(body)).toBe(MAX_ENVELOPE_ITEMS + 1);
    expect((await handleTunnel(post(body), deps)).status).toBe(413);
    expect(parseEnvelope).not.toHaveBeenCalled();
  });

  it("still parses envelopes the SDK sends (binary items with their length)", async () => {
    const recording = "x\ny";
    const body = `${JSON.stringify({ dsn })}\n{"type":"replay_recording","length":${recording.length}}\n${recording}\n{"type":"replay_event"}\n{"segment_id":0}\n`;
    const response = await handleTunnel(post(body), deps);
    expect(response.status).toBe(200);
    expect(parseEnvelope).toHaveBeenCalledTimes(1);
  });

  it("refuses an envelope with more items than the cap (413) and stores nothing", async () => {
    const response = await handleTunnel(post(manyItems(22_000)), deps);
    expect(response.status).toBe(413);
    expect(parseEnvelope).not.toHaveBeenCalled();
    expect(await stored()).toBe(0);
  });

  it("charges an envelope past the cap as the client's whole allowance, and answers 429 once it is spent", async () => {
    const charged: (number | "all")[] = [];
    const first = await handleTunnel(post(manyItems(22_000)), {
      ...deps,
      allowReports: async (rows) => {
        charged.push(rows);
        return true;
      },
    });
    expect(first.status).toBe(413);
    // Spent: the limit's refusal comes back with its Retry-After and the hold the edge may repeat.
    const again = await handleTunnel(post(manyItems(22_000)), {
      ...deps,
      allowReports: async (rows) => {
        charged.push(rows);
        return { retryAfterSeconds: 590, holdsForMs: 9000 };
      },
    });
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBe("590");
    expect(heldFor(again)).toBe(9000);
    expect(charged).toEqual(["all", "all"]);
    expect(await stored()).toBe(0);
  });

  it("stores an envelope at the cap, in batches, counting every row against the client's limit", async () => {
    const seen: (number | "all")[] = [];
    const response = await handleTunnel(post(manyItems(MAX_ENVELOPE_ITEMS)), {
      ...deps,
      allowReports: async (rows) => {
        seen.push(rows);
        return true;
      },
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([MAX_ENVELOPE_ITEMS]);
    expect(await stored()).toBe(MAX_ENVELOPE_ITEMS);
  });

  it("gives the 2 MB replay allowance only to envelopes made of replay items", async () => {
    const replayEvent = `${JSON.stringify({ type: "replay_event" })}\n${JSON.stringify({ segment_id: 1 })}\n`;
    const padding = `${JSON.stringify({ type: "event" })}\n${JSON.stringify({ pad: "x".repeat(EVENT_LIMIT_BYTES) })}\n`;
    const mixed = `${JSON.stringify({ dsn })}\n${replayEvent}${padding}`;
    const response = await handleTunnel(post(mixed), deps);
    expect(response.status).toBe(413);
    expect(await stored()).toBe(0);
  });

  it("drops an item nested too deep to serialize instead of failing the request", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const body = `${JSON.stringify({ dsn })}\n{"type":"event"}\n{"message":"ok","extra":${deep}}\n{"type":"event"}\n{"message":"kept"}\n`;
    const response = await handleTunnel(post(body), deps);
    expect([200, 400]).toContain(response.status);
    expect(await stored()).toBeLessThanOrEqual(2);
  });

  it("answers 500 with one short log line when storing fails, 503 when the database is down", async () => {
    const lines: string[] = [];
    const failing = (error: Error) => ({
      config: local,
      db: {
        insert() {
          throw error;
        },
      } as unknown as typeof t.db,
      logError: (line: string) => lines.push(line),
    });
    const broken = await handleTunnel(
      post(manyItems(3)),
      failing(new Error(`insert failed: ${"params ".repeat(500_000)}`)),
    );
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe("Could not take the report");
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBeLessThan(400);
    const down = await handleTunnel(post(manyItems(3)), failing(outage()));
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("60");
    expect(lines).toHaveLength(2);
  });

  // The charge for an envelope past the cap ran outside the error handling: with the database down
  // the route threw, and Next.js answered an empty 500.
  it.each([
    ["past the item cap", () => manyItems(22_000)],
    ["of stored events", () => manyItems(3)],
  ])("answers 503 when the client's limit cannot be counted, for an envelope %s", async (_what, body) => {
    const lines: string[] = [];
    const response = await handleTunnel(post(body()), {
      ...deps,
      allowReports: async () => {
        throw outage();
      },
      logError: (line: string) => lines.push(line),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).toBe("Reports cannot be taken right now");
    expect(lines).toHaveLength(1);
    expect(await stored()).toBe(0);
  });
});

/** What the driver throws when PostgreSQL refuses connections, wrapped as Drizzle does. */
function outage() {
  return new Error("Failed query: select pg_advisory_xact_lock($1)", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
  });
}

describe("storeEvents", () => {
  it("inserts more rows than one statement's 65,535 parameters allow, batch by batch", async () => {
    const rows = Array.from({ length: 7_000 }, (_, i) => ({ type: "error", message: `event ${i}` }));
    expect(rows.length * 10).toBeGreaterThan(65_535);
    expect(STORE_BATCH_ROWS).toBeLessThan(1000);
    expect(await storeEvents(t.db, rows, { keep: 100_000 })).toBe(7_000);
    expect(await stored()).toBe(7_000);
  });
});

describe("every envelope is charged to the client, replays included", () => {
  /** One replay_recording item of `size` bytes: stores nothing, as a replay segment's recording. */
  const recordingOnly = (size: number) => {
    const payload = Buffer.alloc(size, 0x61);
    return Buffer.concat([
      Buffer.from(
        `${JSON.stringify({ dsn })}\n${JSON.stringify({ type: "replay_recording", length: size })}\n`,
      ),
      payload,
      Buffer.from("\n"),
    ]);
  };
  const limited = (client: string) => ({
    ...deps,
    allowReports: limitReportsPerClient(t.db, async () => client),
    allowBytes: limitBytesPerClient(t.db, async () => client),
  });
  const withLength = (body: Uint8Array) =>
    new Request(`http://${HOST}/monitoring?o=1&p=1`, {
      method: "POST",
      body: body as BodyInit,
      headers: { "content-length": String(body.byteLength) },
    });

  it("refuses a client past its byte allowance with a refusal the edge may repeat; others go on", async () => {
    forgetRefusals();
    const body = recordingOnly(REPLAY_LIMIT_BYTES - 4096);
    const units = Math.ceil(body.byteLength / ENVELOPE_BYTE_UNIT);
    const allowed = Math.floor(BYTES_PER_CLIENT.limit / units);
    const statuses: number[] = [];
    for (let i = 0; i <= allowed; i++)
      statuses.push((await handleTunnel(withLength(body), limited("flooder"))).status);
    expect(statuses).toEqual([...Array(allowed).fill(200), 429]);
    const refused = await handleTunnel(withLength(recordingOnly(100)), limited("flooder"));
    expect(refused.status).toBe(429);
    // The window is full: the refusal holds for any envelope of this client, so the edge repeats it.
    expect(heldFor(refused)).toBeGreaterThan(0);
    expect((await handleTunnel(withLength(body), limited("someone-else"))).status).toBe(200);
    expect(await stored()).toBe(0);
    forgetRefusals();
  });

  it("fills the window when an envelope does not fit in what is left, so the refusal holds", async () => {
    forgetRefusals();
    const small = recordingOnly(ENVELOPE_BYTE_UNIT - 1024); // one unit
    const some = recordingOnly(16 * ENVELOPE_BYTE_UNIT - 1024); // sixteen units
    for (let i = 0; i < BYTES_PER_CLIENT.limit / 16 - 1; i++) {
      expect((await handleTunnel(withLength(some), limited("edge-of-window"))).status).toBe(200);
    }
    for (let i = 0; i < 13; i++) {
      expect((await handleTunnel(withLength(small), limited("edge-of-window"))).status).toBe(200);
    }
    const big = await handleTunnel(
      withLength(recordingOnly(REPLAY_LIMIT_BYTES - 4096)),
      limited("edge-of-window"),
    );
    expect(big.status).toBe(429);
    expect(heldFor(big)).toBeGreaterThan(0);
    expect((await handleTunnel(withLength(small), limited("edge-of-window"))).status).toBe(429);
    forgetRefusals();
  });

  it("refuses a client over its limit before reading the body it declares", async () => {
    forgetRefusals();
    const body = recordingOnly(REPLAY_LIMIT_BYTES - 4096);
    for (let i = 0; i < 20; i++) {
      if ((await handleTunnel(withLength(body), limited("reader"))).status !== 200) break;
    }
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request(`http://${HOST}/monitoring?o=1&p=1`, {
      method: "POST",
      body: stream as unknown as BodyInit,
      headers: { "content-length": String(REPLAY_LIMIT_BYTES) },
      duplex: "half",
    } as RequestInit);
    expect((await handleTunnel(request, limited("reader"))).status).toBe(429);
    // The stream's first pull happens on construction at most: nothing past it was read.
    expect(pulled).toBeLessThanOrEqual(1);
    forgetRefusals();
  });

  it("counts an envelope that stores nothing as one report", async () => {
    const charged: (number | "all")[] = [];
    const counting = {
      ...deps,
      allowReports: async (reports: number | "all") => {
        charged.push(reports);
        return true;
      },
    };
    expect((await handleTunnel(post(recordingOnly(1000)), counting)).status).toBe(200);
    expect(charged).toEqual([1]);
    expect(await stored()).toBe(0);
  });
});
