import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { count, desc } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dsnToString } from "@/core/monitoring/dsn";
import { monitoringEvents } from "@/server/db/schema";
import { forgetRefusals } from "@/server/rate-limit";
import { createTestDatabase } from "../../../tests/support/db";
import { heldFor } from "../../../tests/support/held-for";
import { expectedDsn, monitoringConfig } from "./config";
import { storeEvents } from "./store";
import {
  EVENT_LIMIT_BYTES,
  handleTunnel,
  limitReportsPerClient,
  MAX_ENVELOPE_ITEMS,
  REPLAY_LIMIT_BYTES,
  REPORTS_PER_CLIENT,
} from "./tunnel";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(monitoringEvents);
});

const HOST = "abacus.test:3000";
const local = monitoringConfig({ SENTRY_DSN: undefined, APP_URL: undefined }, "instance-secret-for-tests");
const localDsn = dsnToString(expectedDsn(local, HOST, "http"));

type Item = [Record<string, unknown>, Record<string, unknown> | Uint8Array];

/** Serializes an envelope the way the SDK does: JSON lines, binary items with their length. */
function envelope(header: Record<string, unknown>, items: Item[]): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  for (const [itemHeader, payload] of items) {
    if (payload instanceof Uint8Array) {
      parts.push(Buffer.from(`${JSON.stringify({ ...itemHeader, length: payload.length })}\n`));
      parts.push(payload, Buffer.from("\n"));
    } else {
      parts.push(Buffer.from(`${JSON.stringify(itemHeader)}\n${JSON.stringify(payload)}\n`));
    }
  }
  return Buffer.concat(parts);
}

const errorEvent = {
  event_id: "0123456789abcdef0123456789abcdef",
  level: "error",
  release: "abacus@1.2.3",
  environment: "production",
  request: { url: "http://abacus.test:3000/pricing" },
  exception: { values: [{ type: "TypeError", value: "x is not a function" }] },
  contexts: { trace: { trace_id: "fedcba9876543210fedcba9876543210", span_id: "0123456789abcdef" } },
};
const errorEnvelope = (dsn = localDsn) =>
  envelope({ event_id: errorEvent.event_id, dsn, sent_at: new Date().toISOString() }, [
    [{ type: "event" }, errorEvent],
  ]);

function post(body: BodyInit | Uint8Array, query = "o=1&p=1", init: RequestInit = {}) {
  return new Request(`http://${HOST}/monitoring?${query}`, {
    method: "POST",
    body: body as BodyInit,
    headers: { "content-type": "text/plain;charset=UTF-8" },
    ...init,
  });
}
const deps = {
  config: local,
  get db() {
    return t.db;
  },
};
const stored = async () => (await t.db.select({ n: count() }).from(monitoringEvents))[0]?.n;

describe("the /monitoring tunnel without SENTRY_DSN (local store)", () => {
  it("stores a well-formed error envelope with its type, level, message, URL, release and trace", async () => {
    const response = await handleTunnel(post(errorEnvelope()), deps);
    expect(response.status).toBe(200);
    const rows = await t.db.select().from(monitoringEvents);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      eventId: errorEvent.event_id,
      type: "error",
      level: "error",
      message: "TypeError: x is not a function",
      url: "http://abacus.test:3000/pricing",
      release: "abacus@1.2.3",
      environment: "production",
      traceId: "fedcba9876543210fedcba9876543210",
    });
    expect(JSON.parse(rows[0]?.payload ?? "{}")).toMatchObject({ event_id: errorEvent.event_id });
    expect(rows[0]?.receivedAt).toBeInstanceOf(Date);
  });

  it("refuses an envelope for another DSN (403), and the wrong project in the query", async () => {
    const foreign = "https://0123456789abcdef0123456789abcdef@o9.ingest.sentry.io/42";
    expect((await handleTunnel(post(errorEnvelope(foreign)), deps)).status).toBe(403);
    const otherKey = localDsn.replace(/\/\/\w+@/, "//ffffffffffffffffffffffffffffffff@");
    expect((await handleTunnel(post(errorEnvelope(otherKey)), deps)).status).toBe(403);
    const otherHost = localDsn.replace("abacus.test:3000", "evil.test:3000");
    expect((await handleTunnel(post(errorEnvelope(otherHost)), deps)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(), "o=1&p=2"), deps)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(), "o=2&p=1"), deps)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(), "o=1&p=1&r=us"), deps)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(), "p=1"), deps)).status).toBe(400);
    expect(await stored()).toBe(0);
  });

  it("refuses anything but POST with 405", async () => {
    const response = await handleTunnel(new Request(`http://${HOST}/monitoring?o=1&p=1`), deps);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("refuses malformed envelopes with 400", async () => {
    const bodies: (string | Uint8Array)[] = [
      "",
      "not json at all",
      "[1,2,3]\n",
      `{"dsn":"${localDsn}"}\nnull\n{}`,
      `{"dsn":"${localDsn}"}\n{"type":"event"}\n{broken`,
      `{"dsn":"not a dsn"}\n{"type":"event"}\n{}`,
      `{}\n{"type":"event"}\n{}`,
      // A binary item that declares more bytes than the body holds.
      `{"dsn":"${localDsn}"}\n{"type":"replay_recording","length":500}\nabc`,
    ];
    for (const body of bodies) {
      const response = await handleTunnel(post(body), deps);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(await stored()).toBe(0);
  });

  it("caps an event envelope at 1 MB (413), counting the bytes of a body without Content-Length", async () => {
    const big = { ...errorEvent, extra: { blob: "x".repeat(EVENT_LIMIT_BYTES) } };
    const body = envelope({ dsn: localDsn }, [[{ type: "event" }, big]]);
    expect((await handleTunnel(post(body), deps)).status).toBe(413);
    // Streamed, so no Content-Length: the running count still stops it past 2 MB.
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 11) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = post(stream as unknown as BodyInit, "o=1&p=1", { duplex: "half" } as RequestInit);
    expect(streamed.headers.get("content-length")).toBeNull();
    expect((await handleTunnel(streamed, deps)).status).toBe(413);
    expect(await stored()).toBe(0);
  });

  it("accepts a replay envelope with a binary recording up to 2 MB and keeps its first segment", async () => {
    const recording = new Uint8Array(1.5 * 1024 * 1024);
    for (let i = 0; i < recording.length; i++) recording[i] = (i * 7919) & 0xff; // not valid UTF-8
    const replayEvent = {
      type: "replay_event",
      replay_id: "aaaabbbbccccddddaaaabbbbccccdddd",
      segment_id: 0,
      urls: ["http://abacus.test:3000/contact"],
      environment: "production",
    };
    const body = envelope({ event_id: replayEvent.replay_id, dsn: localDsn }, [
      [{ type: "replay_event" }, replayEvent],
      [{ type: "replay_recording" }, Buffer.concat([Buffer.from('{"segment_id":0}\n'), recording])],
    ]);
    expect(body.length).toBeGreaterThan(EVENT_LIMIT_BYTES);
    expect(body.length).toBeLessThan(REPLAY_LIMIT_BYTES);
    expect((await handleTunnel(post(body), deps)).status).toBe(200);
    const rows = await t.db.select().from(monitoringEvents);
    expect(rows).toMatchObject([{ type: "replay", url: "http://abacus.test:3000/contact" }]);
  });

  it("accepts sessions and client reports without storing them", async () => {
    const body = envelope({ dsn: localDsn }, [
      [{ type: "session" }, { sid: "s", status: "ok" }],
      [{ type: "client_report" }, { discarded_events: [] }],
    ]);
    expect((await handleTunnel(post(body), deps)).status).toBe(200);
    expect(await stored()).toBe(0);
  });

  it("answers 429 and stores nothing when the client is over its limit", async () => {
    const response = await handleTunnel(post(errorEnvelope()), { ...deps, allowReports: async () => false });
    expect(response.status).toBe(429);
    expect(await stored()).toBe(0);
  });
});

describe("pruning", () => {
  it("keeps the newest N events", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ type: "error", message: `event ${i}` }));
    for (const row of rows) await storeEvents(t.db, [row], { keep: 5, pruneEvery: 1 });
    const left = await t.db.select().from(monitoringEvents).orderBy(desc(monitoringEvents.id));
    expect(left.map((r) => r.message)).toEqual(["event 11", "event 10", "event 9", "event 8", "event 7"]);
  });
});

describe("the /monitoring tunnel with SENTRY_DSN (forward)", () => {
  const SENTRY_DSN = "https://0123456789abcdef0123456789abcdef@o4505.ingest.us.sentry.io/4506";
  const config = monitoringConfig({ SENTRY_DSN, APP_URL: undefined }, "unused");
  const received: { url?: string; method?: string; type?: string; body: Buffer }[] = [];
  const ingest = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      url: req.url,
      method: req.method,
      type: req.headers["content-type"],
      body: Buffer.concat(chunks),
    });
    res
      .writeHead(200, { "content-type": "application/json" })
      .end('{"id":"0123456789abcdef0123456789abcdef"}');
  });
  let origin = "";
  beforeAll(async () => {
    ingest.listen(0, "127.0.0.1");
    await once(ingest, "listening");
    origin = `http://127.0.0.1:${(ingest.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => ingest.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
  });

  it("puts org, project and region in the tunnel query", () => {
    expect(config.query).toEqual({ o: "4505", p: "4506", r: "us" });
  });

  it("forwards the exact bytes to the DSN's ingest path and answers with Sentry's status", async () => {
    const body = errorEnvelope(SENTRY_DSN);
    const response = await handleTunnel(post(body, "o=4505&p=4506&r=us"), {
      config,
      db: t.db,
      ingestOrigin: origin,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "0123456789abcdef0123456789abcdef" });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      url: "/api/4506/envelope/",
      method: "POST",
      type: "application/x-sentry-envelope",
    });
    expect(Buffer.compare(received[0]?.body ?? Buffer.alloc(0), Buffer.from(body))).toBe(0);
    expect(await stored()).toBe(0);
  });

  it("passes Sentry's error status through", async () => {
    const failing = createServer((_req, res) => res.writeHead(429, { "retry-after": "30" }).end("slow down"));
    failing.listen(0, "127.0.0.1");
    await once(failing, "listening");
    const failingOrigin = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
    const response = await handleTunnel(post(errorEnvelope(SENTRY_DSN), "o=4505&p=4506&r=us"), {
      config,
      db: t.db,
      ingestOrigin: failingOrigin,
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("30");
    await new Promise<void>((resolve) => failing.close(() => resolve()));
  });

  it("sends nothing anywhere for a foreign DSN, a wrong region or the local DSN", async () => {
    const foreign = "https://0123456789abcdef0123456789abcdef@o4505.ingest.us.sentry.io/999";
    const other = { config, db: t.db, ingestOrigin: origin };
    expect((await handleTunnel(post(errorEnvelope(foreign), "o=4505&p=4506&r=us"), other)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(SENTRY_DSN), "o=4505&p=4506"), other)).status).toBe(403);
    expect((await handleTunnel(post(errorEnvelope(SENTRY_DSN), "o=4505&p=4506&r=de"), other)).status).toBe(
      403,
    );
    expect((await handleTunnel(post(errorEnvelope(), "o=4505&p=4506&r=us"), other)).status).toBe(403);
    expect(received).toHaveLength(0);
  });

  const QUERY = "o=4505&p=4506&r=us";

  it("charges the client's limit before forwarding: every item, a replay recording aside", async () => {
    const charged: (number | "all")[] = [];
    const counting = {
      config,
      db: t.db,
      ingestOrigin: origin,
      allowReports: async (reports: number | "all") => {
        charged.push(reports);
        return true;
      },
    };
    const replay = envelope({ dsn: SENTRY_DSN }, [
      [{ type: "replay_event" }, { type: "replay_event", segment_id: 3 }],
      [{ type: "replay_recording" }, Buffer.from('{"segment_id":3}\nabc')],
    ]);
    const session = envelope({ dsn: SENTRY_DSN }, [
      [{ type: "session" }, { sid: "s", status: "ok" }],
      [{ type: "client_report" }, { discarded_events: [] }],
    ]);
    for (const body of [errorEnvelope(SENTRY_DSN), replay, session]) {
      expect((await handleTunnel(post(body, QUERY), counting)).status).toBe(200);
    }
    expect(charged).toEqual([1, 1, 2]);
    expect(received).toHaveLength(3);
  });

  it("forwards nothing past the client's limit, and repeats the refusal without asking the database", async () => {
    forgetRefusals();
    const subject = async () => "forwarding-client";
    const limited = {
      config,
      db: t.db,
      ingestOrigin: origin,
      allowReports: limitReportsPerClient(t.db, subject),
    };
    const events = (count: number) =>
      envelope(
        { dsn: SENTRY_DSN },
        Array.from({ length: count }, (): Item => [{ type: "event" }, errorEvent]),
      );
    // Fill the window: envelopes at the item cap, then the rest.
    let left = REPORTS_PER_CLIENT.limit;
    let forwarded = 0;
    while (left > 0) {
      const count = Math.min(left, MAX_ENVELOPE_ITEMS);
      expect((await handleTunnel(post(events(count), QUERY), limited)).status).toBe(200);
      left -= count;
      forwarded++;
    }
    const refused = await handleTunnel(post(errorEnvelope(SENTRY_DSN), QUERY), limited);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(heldFor(refused)).toBeGreaterThan(0);
    // Known to be over its limit: refused from memory, the database is not asked.
    const unasked = {
      ...limited,
      allowReports: limitReportsPerClient(
        {
          transaction() {
            throw new Error("the database was asked");
          },
        } as unknown as typeof t.db,
        subject,
      ),
    };
    expect((await handleTunnel(post(errorEnvelope(SENTRY_DSN), QUERY), unasked)).status).toBe(429);
    expect(received).toHaveLength(forwarded);
    forgetRefusals();
  });

  it("answers 504 when Sentry does not answer in time", async () => {
    const silent = createServer(() => {});
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const response = await handleTunnel(post(errorEnvelope(SENTRY_DSN), "o=4505&p=4506&r=us"), {
      config,
      db: t.db,
      ingestOrigin: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      timeoutMs: 200,
    });
    expect(response.status).toBe(504);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
