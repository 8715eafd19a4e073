import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactMessages, rateLimitEvents } from "@/server/db/schema";
import { forgetRefusals } from "@/server/rate-limit";
import { createTestDatabase } from "../../../tests/support/db";
import { submitContactMessage } from "./service";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(contactMessages);
  await t.db.delete(rateLimitEvents);
  // The instance's memory of refused clients goes with the events it was learned from.
  forgetRefusals();
});

const valid = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  topic: "billing",
  message: "Can I pay yearly in Swiss francs?",
};
const options = { subject: "client-a", limitPerHour: 5 };
const storedCount = async () => (await t.db.select({ n: count() }).from(contactMessages))[0]?.n;

describe("submitContactMessage", () => {
  it("stores a valid message, trimmed", async () => {
    const result = await submitContactMessage(t.db, { ...valid, name: "  Ada Lovelace  " }, options);
    expect(result).toEqual({ ok: true });
    const rows = await t.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...valid, handledAt: null });
  });

  it("returns a specific error per field and stores nothing", async () => {
    const result = await submitContactMessage(
      t.db,
      { name: "", email: "not-an-email", topic: "lottery", message: "too short" },
      options,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      name: "Enter your name.",
      email: "Enter a valid email address, like name@example.com.",
      topic: "Choose a topic.",
      message: "Your message needs at least 10 characters.",
    });
    expect(await storedCount()).toBe(0);
    // Invalid input does not use up the client's allowance.
    expect((await t.db.select({ n: count() }).from(rateLimitEvents))[0]?.n).toBe(0);
  });

  it("rejects a message over 5000 characters and accepts exactly 5000", async () => {
    const tooLong = await submitContactMessage(t.db, { ...valid, message: "x".repeat(5001) }, options);
    expect(tooLong).toMatchObject({
      ok: false,
      fieldErrors: { message: "Your message can be at most 5000 characters." },
    });
    expect(await submitContactMessage(t.db, { ...valid, message: "x".repeat(5000) }, options)).toEqual({
      ok: true,
    });
  });

  it("rejects input that is not an object", async () => {
    expect((await submitContactMessage(t.db, "hello", options)).ok).toBe(false);
    expect((await submitContactMessage(t.db, null, options)).ok).toBe(false);
  });

  it("pretends success for a filled honeypot but stores nothing", async () => {
    const result = await submitContactMessage(t.db, { ...valid, website: "http://spam.example" }, options);
    expect(result).toEqual({ ok: true });
    expect(await storedCount()).toBe(0);
  });

  it("accepts 5 messages an hour per client, refuses the 6th, and counts clients apart", async () => {
    for (let i = 0; i < 5; i++)
      expect(await submitContactMessage(t.db, valid, options)).toEqual({ ok: true });
    const refused = await submitContactMessage(t.db, valid, options);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error).toMatch(
        /You have sent 5 messages in the last hour\. Please try again in \d+ minutes?\./,
      );
    expect(await storedCount()).toBe(5);
    expect(await submitContactMessage(t.db, valid, { ...options, subject: "client-b" })).toEqual({
      ok: true,
    });
  });

  it("holds the limit under concurrent submissions", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => submitContactMessage(t.db, valid, { ...options, subject: "burst" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(await storedCount()).toBe(5);
  });

  it("forgets events older than the window", async () => {
    for (let i = 0; i < 5; i++) await submitContactMessage(t.db, valid, options);
    await t.sql`update rate_limit_events set at = at - interval '61 minutes'`;
    expect(await submitContactMessage(t.db, valid, options)).toEqual({ ok: true });
    const left = await t.db.select().from(rateLimitEvents).where(eq(rateLimitEvents.subject, "client-a"));
    expect(left).toHaveLength(1);
  });
});
