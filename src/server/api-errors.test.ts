import { describe, expect, it, vi } from "vitest";
import { SERVICE_UNAVAILABLE_DIGEST } from "@/core/service-unavailable";
import { apiRoute, readJsonBody } from "./api";
import { isDatabaseUnavailable, ServiceUnavailableError, shortErrorLine } from "./db/errors";

// A unit test needs no database: an error that does not name an outage is not one here (the real
// isOutage would also ask the database with `select 1`).
vi.mock("./health", async () => {
  const { isDatabaseUnavailable: named } = await import("./db/errors");
  return { isOutage: async (error: unknown) => named(error) };
});

// With the database down, /api/* answered 500 with an empty body. Every failure keeps
// the `{ error: { code, message } }` shape: 503 for an outage, 500 for anything else.
const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("isDatabaseUnavailable", () => {
  it("recognises driver and PostgreSQL outage errors, wrapped or not", () => {
    expect(isDatabaseUnavailable(refused())).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: refused() }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused()]))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("shutting down"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new ServiceUnavailableError())).toBe(true);
    expect(new ServiceUnavailableError().digest).toBe(SERVICE_UNAVAILABLE_DIGEST);
  });

  it("does not mistake query errors for outages", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is not a function"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe("apiRoute", () => {
  it("answers 503 service_unavailable in the error shape when the database is down", async () => {
    const response = await apiRoute(async () => {
      throw new Error("Failed query", { cause: refused() });
    })();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await response.json()).toMatchObject({
      error: { code: "service_unavailable", message: expect.any(String) },
    });
  });

  it("answers 500 internal_error in the error shape, logging one short line", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await apiRoute(async () => {
      throw new Error(`boom ${"x".repeat(3_000_000)}`);
    })();
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: "internal_error" } });
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[0]).length).toBeLessThan(400);
    log.mockRestore();
  });

  it("passes answers through", async () => {
    const response = await apiRoute(async () => Response.json({ ok: 1 }))();
    expect(response.status).toBe(200);
  });
});

describe("readJsonBody", () => {
  const post = (body: string) => new Request("http://x/api", { method: "POST", body });
  it("refuses a body over the cap with 413 before parsing", async () => {
    const result = await readJsonBody(post(`{"pad":"${"p".repeat(70_000)}"}`), 64 * 1024, "{}");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.response.status).toBe(413);
      expect(await result.response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    }
  });
  it("parses a body under the cap and refuses broken JSON with 400", async () => {
    expect(await readJsonBody(post('{"a":1}'), 1024, "{}")).toEqual({ ok: true, value: { a: 1 } });
    const broken = await readJsonBody(post("{"), 1024, "{}");
    expect(broken.ok ? 0 : broken.response.status).toBe(400);
  });
});

describe("shortErrorLine", () => {
  it("keeps log lines short and on one line", () => {
    const line = shortErrorLine(new Error(`a\n${"b".repeat(10_000)}`));
    expect(line.length).toBeLessThanOrEqual(300);
    expect(line).not.toContain("\n");
  });
});
