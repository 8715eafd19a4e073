import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../tests/support/db";

// checkHealth against a real test database, counting the queries it sends.
const h = vi.hoisted(() => ({ db: undefined as unknown, queries: 0 }));
vi.mock("./db/client", () => ({
  getDb: () => ({
    execute: (query: unknown) => {
      h.queries++;
      return (h.db as { execute: (q: unknown) => Promise<unknown> }).execute(query);
    },
  }),
}));

const { checkHealth } = await import("./health");

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
  h.db = t.db;
});
afterAll(() => t.drop());

describe("checkHealth", () => {
  it("answers ok from the database", async () => {
    await expect(checkHealth()).resolves.toMatchObject({ status: "ok" });
  });

  it("shares one probe among concurrent callers, and probes again once it has answered", async () => {
    h.queries = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => checkHealth()));
    expect(answers.every((a) => a.status === "ok")).toBe(true);
    expect(h.queries).toBe(1);
    await checkHealth();
    expect(h.queries).toBe(2);
  });
});
