import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer } from "node:net";
import { expect, test } from "@playwright/test";

// Liveness, readiness and a graceful SIGTERM of the real server (dist/server.mjs), on the suite's
// database, started here on a port of its own.

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function startServer(port: number, env: Record<string, string> = {}) {
  const child = spawn("node", ["dist/server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  for (let i = 0; i < 120 && !output.includes("ready on"); i++) {
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(output, output).toContain("ready on");
  return { child, exited, output: () => output };
}

const stopped: ChildProcess[] = [];
test.afterEach(() => {
  for (const child of stopped.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

test("live and ready answer without the app; SIGTERM finishes the request in flight, then exits", async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The request in flight is a page view; the suite has sent many from this address to the same
  // database, so the per-client page-view limit is raised as it is for the suite's own server.
  const server = await startServer(port, {
    SHUTDOWN_TIMEOUT_MS: "20000",
    PAGE_VIEWS_PER_CLIENT_LIMIT: "100000",
  });
  stopped.push(server.child);

  const live = await fetch(`${origin}/api/health/live`);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  expect(live.headers.get("cache-control")).toBe("no-store");
  const ready = await fetch(`${origin}/api/health/ready`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready" });

  // A request in flight: its headers are in, half its body is not.
  const body = JSON.stringify({ path: "/pricing" });
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    `POST /api/views HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));

  server.child.kill("SIGTERM");
  await expect
    .poll(async () => {
      try {
        await fetch(`${origin}/api/health/live`, { signal: AbortSignal.timeout(1000) });
        return "accepted";
      } catch {
        return "refused";
      }
    })
    .toBe("refused");
  expect(server.child.exitCode).toBeNull();

  // The rest of the body: the request is answered, then the connection closed and the process ends.
  socket.write(body.slice(4));
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 204 /);
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain("SIGTERM: draining");
});
