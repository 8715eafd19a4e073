import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// An instance sharing another instance's embedded PostgreSQL broke for good when the
// owner stopped, and the embedded server ran with fsync=off. Two run-with-db.mjs processes on one
// fresh data folder of their own (not the suite's DATABASE_URL): the second shares the first's
// server; when the first stops, the second starts the server again and keeps answering.

// Under the repository's .test-data (ignored by git): PostgreSQL may run as another user than this
// process, which a private temporary folder would shut out.
const dataDir = path.resolve(".test-data", `shared-${randomBytes(4).toString("hex")}`);
const runs: Run[] = [];

afterAll(async () => {
  // After a failure too: each run-with-db stops the server it owns before it exits.
  for (const run of runs) if (run.child.exitCode === null) run.child.kill("SIGTERM");
  await Promise.all(runs.map((run) => run.exited));
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** `node scripts/db/run-with-db.mjs --data <dataDir> node --input-type=module -e <source>`, embedded. */
function runWithDb(source: string): Run {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_MODE;
  const child = spawn(
    process.execPath,
    ["scripts/db/run-with-db.mjs", "--data", dataDir, process.execPath, "--input-type=module", "-e", source],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const run = { child, output: () => output, exited };
  runs.push(run);
  return run;
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const IDLE = "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);";
// Reports the server's durability settings, then asks `select 1` every 200 ms: OK or FAIL per line.
const PROBE = `
  import postgres from "postgres";
  const sql = postgres(process.env.DATABASE_URL, { max: 1, connect_timeout: 2, onnotice: () => {} });
  const [{ fsync }] = await sql\`show fsync\`;
  const [{ synchronous_commit }] = await sql\`show synchronous_commit\`;
  console.log("SETTINGS " + JSON.stringify({ fsync, synchronous_commit }));
  process.on("SIGTERM", async () => { await sql.end({ timeout: 1 }).catch(() => {}); process.exit(0); });
  for (;;) {
    try { await sql\`select 1\`; console.log("PROBE OK"); } catch { console.log("PROBE FAIL"); }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
`;

const probes = (output: string) => output.match(/PROBE (OK|FAIL)/g) ?? [];

describe("run-with-db.mjs sharing one embedded PostgreSQL", () => {
  it("runs it with fsync on; a sharer takes over when the owner stops; it stops with the last", async () => {
    const owner = runWithDb(IDLE);
    await until(() => /PostgreSQL ready on/.test(owner.output()), "the owner's server");

    const sharer = runWithDb(PROBE);
    await until(() => /SETTINGS/.test(sharer.output()), "the sharer's first query");
    expect(sharer.output()).toMatch(/sharing the PostgreSQL server already running/);
    const settings = JSON.parse(sharer.output().match(/SETTINGS (.*)/)?.[1] ?? "{}");
    expect(settings).toEqual({ fsync: "on", synchronous_commit: "off" });

    owner.child.kill("SIGTERM");
    expect(await owner.exited).toBe(0);
    await until(() => /had stopped: restarted it/.test(sharer.output()), "the sharer's restart", 30_000);
    // Answering again, on the same DATABASE_URL: five queries in a row succeed.
    const restarted = probes(sharer.output()).length;
    await until(
      () => probes(sharer.output()).slice(restarted).join(" ").includes(Array(5).fill("PROBE OK").join(" ")),
      "the sharer's queries to succeed again",
      30_000,
    );

    sharer.child.kill("SIGTERM");
    expect(await sharer.exited).toBe(0);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
  }, 180_000);
});
