import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { expect, test } from "@playwright/test";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// The production server's start-up (dist/server.mjs + instrumentation): Next.js catches an error thrown
// while loading the instrumentation hook, logs it on every request and serves 500s, so the
// configuration check must stop the process itself.
test("a wrong configuration value stops the server with a message naming it", async () => {
  test.setTimeout(60_000);
  const port = await freePort();
  const child = spawn("node", ["dist/server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SENTRY_TRACES_SAMPLE_RATE: "2" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const code = await Promise.race([
    new Promise<number | null>((resolve) => child.once("exit", resolve)),
    new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 45_000)),
  ]);
  child.kill("SIGKILL");
  expect(code, output).toBe(1);
  expect(output).toContain("SENTRY_TRACES_SAMPLE_RATE");
  expect(output).not.toContain("ready on");
});
