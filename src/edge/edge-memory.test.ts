import { describe, expect, it } from "vitest";
import { AnonymousAnswers, MAX_REFUSAL_HOLD_MS, RefusalMemory, refusalKey } from "./edge-memory";

const req = (headers: Record<string, string> = {}, url = "/api/v1/convert?x=1", method = "GET") => ({
  method,
  url,
  headers,
});

describe("RefusalMemory", () => {
  it("holds a refusal for the app's hold, at most 10 s, answering the app's Retry-After", () => {
    let now = 0;
    const memory = new RefusalMemory({ now: () => now });
    memory.remember("c", refusalKey(req()), 60_000, 55);
    expect(memory.refused("c", req({}, "/api/v1/convert?y=2"))).toBe(55);
    now = MAX_REFUSAL_HOLD_MS - 1;
    expect(memory.refused("c", req())).toBe(46);
    now = MAX_REFUSAL_HOLD_MS;
    expect(memory.refused("c", req())).toBe(0);
    expect(memory.clients.size).toBe(0);
  });

  it("repeats a kept answer with Retry-After and RateLimit-Reset counted down, without hop headers", () => {
    let now = 0;
    const memory = new RefusalMemory({ now: () => now });
    const answer = {
      headers: {
        "Content-Type": "application/json",
        "ratelimit-reset": "100",
        date: "x",
        "content-length": "9",
      },
      body: Buffer.from('{"a":1}'),
    };
    memory.remember("c", refusalKey(req({ authorization: "Bearer k" })), 5000, 100, answer);
    now = 2500;
    const refusal = memory.refusal("c", req({ authorization: "Bearer k" }));
    expect(refusal?.retryAfter).toBe(98);
    expect(refusal?.answer?.headers).toEqual({
      age: "2",
      "content-type": "application/json",
      "ratelimit-reset": "98",
      "retry-after": "98",
    });
    expect(refusal?.answer?.body.toString()).toBe('{"a":1}');
    expect(memory.refusal("c", req())).toBeNull();
    now = 5000;
    expect(memory.refusal("c", req({ authorization: "Bearer k" }))).toBeNull();
  });

  it("keys on the credentials and ignores a hold of 0", () => {
    const memory = new RefusalMemory({ now: () => 0 });
    memory.remember("c", refusalKey(req({ authorization: "Bearer a" })), 5000, 5);
    memory.remember("c", refusalKey(req({ cookie: "s=1" })), 0, 5);
    expect(memory.refused("c", req({ authorization: "Bearer a" }))).toBe(5);
    expect(memory.refused("c", req({ authorization: "Bearer b" }))).toBe(0);
    expect(memory.refused("c", req({ cookie: "s=1" }))).toBe(0);
    expect(memory.refused("c", req())).toBe(0);
  });

  it("is bounded per client and in clients", () => {
    const memory = new RefusalMemory({ maxClients: 3, maxPerClient: 2, now: () => 0 });
    for (const path of ["/a", "/b", "/c"]) memory.remember("c", refusalKey(req({}, path)), 5000, 5);
    expect(memory.clients.get("c")?.size).toBe(2);
    expect(memory.refused("c", req({}, "/a"))).toBe(0);
    for (let i = 0; i < 10; i++) memory.remember(`client-${i}`, refusalKey(req()), 5000, 5);
    expect(memory.clients.size).toBeLessThanOrEqual(3);
  });
});

describe("AnonymousAnswers", () => {
  const body = Buffer.from("null");
  it("keeps small, unencoded answers for their time, without per-connection headers", () => {
    let now = 0;
    const answers = new AnonymousAnswers({ ttlMs: 1000, now: () => now });
    answers.set(
      "/api/me",
      200,
      { "content-type": "application/json", date: "x", "content-length": "4" },
      body,
    );
    expect(answers.get("/api/me")).toMatchObject({
      status: 200,
      headers: { "content-type": "application/json" },
    });
    expect(answers.get("/api/me")?.headers).not.toHaveProperty("date");
    now = 1000;
    expect(answers.get("/api/me")).toBeUndefined();
  });

  it("refuses big or encoded answers, and new URLs once full", () => {
    const answers = new AnonymousAnswers({ maxEntries: 2, maxBytes: 8, now: () => 0 });
    answers.set("/big", 200, {}, Buffer.alloc(9));
    answers.set("/gz", 200, { "content-encoding": "gzip" }, body);
    answers.set("/1", 200, {}, body);
    answers.set("/2", 200, {}, body);
    answers.set("/3", 200, {}, body);
    expect([...answers.answers.keys()]).toEqual(["/1", "/2"]);
  });
});
