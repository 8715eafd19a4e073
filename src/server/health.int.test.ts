import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../tests/support/db";

// checkHealth against a real test database, counting the queries it sends.
const h = vi.hoisted(() => ({ db: undefined as unknown, queries: 0, fail: undefined as Error | undefined }));
vi.mock("./db/client", () => ({
  getDb: () => ({
    execute: (query: unknown) => {
      h.queries++;
      if (h.fail) return Promise.reject(h.fail);
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

  it("keeps the database's error text out of the answer and logs it once per outage", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      h.fail = new Error('connect ECONNREFUSED 10.1.2.3:5432 (user "abacus_prod")');
      const first = await checkHealth();
      const second = await checkHealth();
      expect(first).toEqual({ status: "error", database: expect.any(String) });
      expect(JSON.stringify(second)).not.toContain("10.1.2.3");
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]?.[0])).toContain("ECONNREFUSED 10.1.2.3:5432");
      h.fail = undefined;
      await expect(checkHealth()).resolves.toMatchObject({ status: "ok" });
      expect(logged).toHaveBeenCalledTimes(2);
      expect(String(logged.mock.calls[1]?.[0])).toContain("answers again");
    } finally {
      h.fail = undefined;
      logged.mockRestore();
    }
  });
});
