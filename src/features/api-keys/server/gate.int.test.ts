import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../../../tests/support/db";
import { heldFor } from "../../../../tests/support/held-for";

// guardApi runs for real against a test database; only the process-wide database is the test's.
const h = vi.hoisted(() => ({ db: undefined as unknown }));
vi.mock("@/server/db/client", () => ({ getDb: () => h.db }));

const { guardApi, INVALID_KEY_LIMIT } = await import("./gate");
const { forgetRefusals } = await import("@/server/rate-limit");

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
  h.db = t.db;
  forgetRefusals();
});
afterAll(() => t.drop());

const keyed = (secret: string, address: string) =>
  new Request("http://localhost/api/v1/calculate", {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": address },
  });

const statusOf = async (request: Request) => {
  const gate = await guardApi(request);
  return "response" in gate ? gate.response.status : 200;
};

describe("the keyed API gate", () => {
  it("counts a client's unknown keys and, past the limit, refuses it without looking keys up", async () => {
    const guess = () => `abk_${crypto.randomUUID()}`;
    const statuses: number[] = [];
    for (let i = 0; i < INVALID_KEY_LIMIT.limit + 1; i++)
      statuses.push(await statusOf(keyed(guess(), "203.0.113.9")));
    expect(statuses.slice(0, INVALID_KEY_LIMIT.limit)).toEqual(Array(INVALID_KEY_LIMIT.limit).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Refused from memory: a database that fails on any use is never asked.
    h.db = { transaction: () => Promise.reject(new Error("the database was asked")) };
    const refused = await guardApi(keyed(guess(), "203.0.113.9"));
    expect("response" in refused && refused.response.status).toBe(429);
    expect("response" in refused && refused.response.headers.get("Retry-After")).toMatch(/^\d+$/);
    // The refusal is keyed on the client alone: the edge is told how long it holds (at most 10 s).
    const hold = "response" in refused ? heldFor(refused.response) : 0;
    expect(hold).toBeGreaterThan(0);
    expect(hold).toBeLessThanOrEqual(10_000);
    // Another client is not affected.
    h.db = t.db;
    expect(await statusOf(keyed(guess(), "198.51.100.7"))).toBe(401);
  });
});

describe("the anonymous API limit", () => {
  it("marks its 429 for the edge only once the window is full", async () => {
    const { ANONYMOUS_API_LIMIT } = await import("@/server/api");
    const anonymous = () =>
      new Request("http://localhost/api/v1/convert", { headers: { "x-forwarded-for": "192.0.2.77" } });
    for (let i = 0; i < ANONYMOUS_API_LIMIT.limit; i++) {
      const gate = await guardApi(anonymous());
      expect("caller" in gate).toBe(true);
    }
    const refused = await guardApi(anonymous());
    if (!("response" in refused)) throw new Error("expected a refusal");
    expect(refused.response.status).toBe(429);
    expect(heldFor(refused.response)).toBeGreaterThan(0);
    // The edge repeats it word for word while it holds: its message states no time.
    expect((await refused.response.clone().json()).error.message).not.toMatch(/\d/);
    // The RateLimit-* fields a keyed refusal carries, for the anonymous limit.
    const retryAfter = refused.response.headers.get("retry-after");
    expect(
      Object.fromEntries([...refused.response.headers].filter(([name]) => name.startsWith("ratelimit-"))),
    ).toEqual({
      "ratelimit-limit": String(ANONYMOUS_API_LIMIT.limit),
      "ratelimit-remaining": "0",
      "ratelimit-reset": retryAfter,
      "ratelimit-policy": `${ANONYMOUS_API_LIMIT.limit};w=${ANONYMOUS_API_LIMIT.windowSeconds}`,
    });
  });

  it("marks a key's quota refusal for the edge to repeat as it is", async () => {
    const { apiKeys, apiUsage, organization, user } = await import("@/server/db/schema");
    const { newApiKeySecret } = await import("./keys");
    const { isoDay } = await import("@/core/calendar");
    const db = t.db as unknown as import("@/server/db/client").Db;
    await db.insert(user).values({ id: "u-quota", name: "Q", email: "q@example.com" });
    await db.insert(organization).values({ id: "org-quota", name: "Q", slug: "q" });
    const key = newApiKeySecret();
    await db.insert(apiKeys).values({
      organizationId: "org-quota",
      createdBy: "u-quota",
      name: "t",
      prefix: key.prefix,
      hash: key.hash,
    });
    // Free plan, 1,000 calls a month, all used.
    await db.insert(apiUsage).values({ organizationId: "org-quota", day: isoDay(new Date()), calls: 1000 });
    const refused = await guardApi(keyed(key.secret, "192.0.2.80"));
    if (!("response" in refused)) throw new Error("expected a refusal");
    expect(refused.response.status).toBe(429);
    expect((await refused.response.clone().json()).error.code).toBe("quota_exceeded");
    expect(heldFor(refused.response)).toBe(10_000);
    expect(refused.response.headers.get("RateLimit-Remaining")).toBe("0");
  });
});
