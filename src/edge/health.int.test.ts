import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/db";
import { createHealth, latestMigration } from "./health";

// Readiness on a real, migrated PostgreSQL: ready; draining after SIGTERM; migrating when the build
// ships a migration the database lacks; unavailable when the database does not answer.

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
const servers: Server[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  sql = postgres(t.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  for (const server of servers) server.close();
  await sql.end({ timeout: 5 });
  await t.drop();
});

async function get(health: ReturnType<typeof createHealth>, path: string) {
  const server = createServer((req, res) => {
    if (!health.answer(req, res)) res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.json().catch(() => null) };
}

describe("liveness and readiness", () => {
  it("is ready on a migrated database, and not once it drains; live throughout", async () => {
    const health = createHealth({ sql, expectedMigration: latestMigration() });
    expect(await get(health, "/api/health/ready")).toEqual({ status: 200, body: { status: "ready" } });
    health.drain();
    expect(await get(health, "/api/health/ready")).toEqual({ status: 503, body: { status: "draining" } });
    expect(await get(health, "/api/health/live")).toEqual({ status: 200, body: { status: "draining" } });
  });

  it("is not ready while the build has a migration the database lacks", async () => {
    const expected = latestMigration() + 1;
    const health = createHealth({ sql, expectedMigration: expected });
    const { status, body } = await get(health, "/api/health/ready");
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "migrating", expected });
  });

  it("is not ready when the database does not answer, and live without one", async () => {
    const down = postgres("postgres://nobody:x@127.0.0.1:1/none", { max: 1, connect_timeout: 1 });
    const health = createHealth({ sql: down, expectedMigration: latestMigration() });
    expect(await get(health, "/api/health/ready")).toEqual({ status: 503, body: { status: "unavailable" } });
    expect((await get(health, "/api/health/live")).status).toBe(200);
    await down.end({ timeout: 1 });
  });

  it("answers only GET and HEAD, and nothing but its two paths", async () => {
    const health = createHealth({ sql, expectedMigration: latestMigration() });
    expect((await get(health, "/api/health")).status).toBe(404);
    expect((await get(health, "/api/health/livelier")).status).toBe(404);
  });
});
