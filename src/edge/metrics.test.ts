import type { Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AppPoolStats } from "@/core/http/edge-contract";
import { createEdgeServer } from "./edge";
import { createMetrics } from "./metrics";

// The metrics that need no database: the app pool's counts and the connection caps' refusals, the
// latter from a real HTTP server (createEdgeServer) on a real port.

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

const sample = (text: string, name: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

describe("the database pool's metrics", () => {
  it("report the size, the connections in use, what waits beyond them, and how many waited", async () => {
    const stats: AppPoolStats = { size: 3, active: 0, waited: 0 };
    const metrics = createMetrics({ token: undefined, routes: [], sql: undefined, pool: () => stats });
    let text = await metrics.registry.metrics();
    expect([sample(text, "abacus_db_pool_size"), sample(text, "abacus_db_pool_in_use")]).toEqual([3, 0]);
    expect([sample(text, "abacus_db_pool_waiting"), sample(text, "abacus_db_pool_waits_total")]).toEqual([
      0, 0,
    ]);

    Object.assign(stats, { active: 5, waited: 7 });
    text = await metrics.registry.metrics();
    expect(sample(text, "abacus_db_pool_in_use")).toBe(3);
    expect(sample(text, "abacus_db_pool_waiting")).toBe(2);
    expect(sample(text, "abacus_db_pool_waits_total")).toBe(7);
    // No database connection: no job-queue samples rather than made-up zeros.
    expect(text).not.toMatch(/^abacus_jobs\{/m);
  });
});

describe("connection-cap refusals", () => {
  async function start(options: { clientMaxConnections: number; serverMaxConnections?: number }) {
    const metrics = createMetrics({ token: undefined, routes: [], sql: undefined });
    const edge = createEdgeServer((_req, res) => res.end("ok"), options);
    edge.connections.onRefused = (cap) =>
      metrics.refused(cap === "client" ? "client_connection_cap" : "server_connection_cap");
    server = edge;
    await new Promise<void>((resolve) => edge.listen(0, "127.0.0.1", resolve));
    return { metrics, port: (edge.address() as AddressInfo).port, edge };
  }
  /** A connection from `from`: resolves once it is connected, or once it is closed (refused). */
  const open = (port: number, from: string) =>
    new Promise<Socket>((resolve) => {
      const socket = connect({ port, host: "127.0.0.1", localAddress: from }, () => resolve(socket));
      socket.on("error", () => {});
      socket.once("close", () => resolve(socket));
      sockets.push(socket);
    });
  const closed = (socket: Socket) =>
    new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
  const refusals = async (metrics: ReturnType<typeof createMetrics>, reason: string) =>
    (await metrics.registry.getSingleMetric("abacus_edge_refusals_total")?.get())?.values.find(
      (v) => v.labels.reason === reason,
    )?.value ?? 0;

  it("counts a client over CLIENT_MAX_CONNECTIONS under client_connection_cap", async () => {
    const { metrics, port } = await start({ clientMaxConnections: 2 });
    await open(port, "127.0.0.1");
    await open(port, "127.0.0.1");
    await closed(await open(port, "127.0.0.1"));
    expect(await refusals(metrics, "client_connection_cap")).toBe(1);
    expect(await refusals(metrics, "server_connection_cap")).toBe(0);
  });

  it("counts the instance over SERVER_MAX_CONNECTIONS under server_connection_cap", async () => {
    const { metrics, port } = await start({ clientMaxConnections: 100, serverMaxConnections: 2 });
    await open(port, "127.0.0.1");
    await open(port, "127.0.0.2");
    await closed(await open(port, "127.0.0.3"));
    expect(await refusals(metrics, "server_connection_cap")).toBe(1);
    expect(await refusals(metrics, "client_connection_cap")).toBe(0);
  });
});
