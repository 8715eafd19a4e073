import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// A second instance on a taken port logged EADDRINUSE as an uncaught exception and never
// exited. main.ts listens through listenOrExit; here a child process does the same on a port
// this test holds, set up to survive an uncaught exception as the real server does.
const listen = fileURLToPath(new URL("./listen.ts", import.meta.url));

let taken: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (taken ? taken.close(resolve) : resolve(undefined)));
  taken = undefined;
});

function run(port: number): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
  const source = `
    import { createServer } from "node:http";
    import { listenOrExit } from ${JSON.stringify(listen)};
    // As in the real server: Next.js logs uncaught exceptions and carries on, and its work and the
    // database pool keep the event loop alive.
    process.on("uncaughtException", (error) => console.error("uncaught", error.code));
    setInterval(() => {}, 1000);
    listenOrExit(createServer(), { port: ${port}, host: "127.0.0.1" }, () => console.log("listening"));
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", source], {
    stdio: "pipe",
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: null, stderr, timedOut: true });
    }, 10_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut: false });
    });
  });
}

describe("listenOrExit", () => {
  it("ends the process with code 1 and one line naming the port when the port is taken", async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken?.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    const result = await run(port);
    expect(result.timedOut).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Abacus could not start: port ${port} on 127.0.0.1 is already in use. Stop the other server or set PORT.`,
    );
  });
});
