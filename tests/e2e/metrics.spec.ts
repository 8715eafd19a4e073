import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { expect, test } from "@playwright/test";

// /metrics of the real server (dist/server.mjs, its own port, the suite's database): off without
// METRICS_TOKEN, bearer-only with it; bounded labels; valid for promtool; scraped by a real
// Prometheus (Debian's, on 127.0.0.1 with a temporary config and data folder).

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const children: ChildProcess[] = [];
test.afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn("node", ["dist/server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  await expect.poll(() => output, { timeout: 60_000 }).toContain("ready on");
  return `http://127.0.0.1:${port}`;
}

const TOKEN = "metrics-test-token-0123456789";

test("off without METRICS_TOKEN", async () => {
  test.setTimeout(90_000);
  const origin = await startServer({});
  expect((await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
    404,
  );
});
