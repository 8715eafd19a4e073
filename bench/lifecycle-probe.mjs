#!/usr/bin/env node
// The lifecycle checks of an instance, against a production build: it starts its own instances on
// loopback and free ports, on a fresh data folder, and stops everything it started.
//
//   npx next build && node bench/lifecycle-probe.mjs [--data .test-data/lifecycle]
//
// 1. a second instance on a taken port: does it exit, with which code and message?
// 2. two instances sharing one embedded PostgreSQL: does the second still serve after the first stops?
// 3. the embedded server's fsync setting
// 4. the database down (an external DATABASE_URL nobody listens on): what /api/* and pages answer
import { spawn } from "node:child_process";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { chromium } from "@playwright/test";
import postgres from "postgres";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";
import { parseArgs, raw } from "./lib/probe-kit.mjs";

const args = parseArgs(process.argv.slice(2), { data: ".test-data/lifecycle" });
const children = new Set();
const SECRET = "lifecycle-probe-secret-lifecycle-probe-secret";

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function start(name, port, extraArgs = [], env = {}) {
  const child = spawn(
    "node",
    ["scripts/db/run-with-db.mjs", "--data", args.data, ...extraArgs, "node", "dist/server.mjs"],
    {
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  children.add(child);
  exited.then(() => children.delete(child));
  return { name, child, port, exited, output: () => output };
}

async function waitHealthy(port, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await raw(`http://127.0.0.1:${port}`, "/api/health", { timeoutMs: 2000 });
    if (res.status === 200) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const line = (label, text) => console.log(`${label.padEnd(34)} ${text}`);

try {
  // ---- a first instance on a fresh data folder
  const portA = await freePort();
  const a = start("A", portA, ["--fresh", "--migrate"]);
  if (!(await waitHealthy(portA))) throw new Error(`instance A did not start:\n${a.output()}`);

  // 1. a second instance on A's port
  const t0 = performance.now();
  const dup = start("dup", portA);
  const dupExit = await Promise.race([dup.exited, sleep(60_000).then(() => null)]);
  const dupMs = performance.now() - t0;
  if (!dupExit) dup.child.kill("SIGKILL");
  const message = dup
    .output()
    .split("\n")
    .find((l) => /EADDRINUSE|in use/i.test(l));
  line(
    "taken port",
    dupExit
      ? `exited with code ${dupExit.code ?? dupExit.signal} after ${dupMs.toFixed(0)} ms: ${message?.trim() ?? "(no message)"}`
      : `still running after 60 s (killed): ${message?.trim() ?? ""}`,
  );
  if (dupExit?.code === 0 || !dupExit)
    line("", "(a zero or missing exit code lets a supervisor think it started)");

  // 3. fsync of the embedded server
  const state = JSON.parse(readFileSync(`${args.data}/postgres.json`, "utf8"));
  const pgPort = Number(readFileSync(`${args.data}/pg/postmaster.pid`, "utf8").split("\n")[3]);
  const sql = postgres(
    `postgres://${state.user}:${encodeURIComponent(state.password)}@127.0.0.1:${pgPort}/${state.database}`,
    { max: 1, onnotice: () => {} },
  );
  const [fsync] = await sql`show fsync`;
  const [sync] = await sql`show synchronous_commit`;
  await sql.end();
  line("embedded fsync", `fsync=${fsync.fsync} synchronous_commit=${sync.synchronous_commit}`);

  // 2. a second instance sharing A's PostgreSQL, then A stops
  const portB = await freePort();
  const b = start("B", portB);
  if (!(await waitHealthy(portB))) throw new Error(`instance B did not start:\n${b.output()}`);
  a.child.kill("SIGTERM");
  await a.exited;
  const samples = [];
  const until = Date.now() + 8000;
  while (Date.now() < until) {
    const res = await raw(`http://127.0.0.1:${portB}`, "/api/v1/rates", { timeoutMs: 5000 });
    samples.push(res.status);
    await sleep(250);
  }
  const last = samples.slice(-8);
  line(
    "shared PostgreSQL, owner stops",
    `B /api/v1/rates over 8 s: ${summarize(samples)}; last 2 s ${last.every((s) => s === 200) ? "all 200 (serving)" : summarize(last)}`,
  );
  b.child.kill("SIGTERM");
  await b.exited;
  await sleep(500);
  let leftover = "none";
  try {
    const pid = Number(readFileSync(`${args.data}/pg/postmaster.pid`, "utf8").split("\n")[0]);
    process.kill(pid, 0);
    leftover = `postmaster ${pid} still running`;
    process.kill(pid, "SIGTERM");
  } catch {}
  line("after the last instance stops", `PostgreSQL left running: ${leftover}`);

  // 4. the database down
  const deadPort = await freePort();
  const portC = await freePort();
  const c = start("C", portC, [], {
    DATABASE_URL: `postgres://abacus:x@127.0.0.1:${deadPort}/abacus`,
    AUTH_SECRET: SECRET,
    // required with an external DATABASE_URL (without it the server now refuses to start, by name)
    RECEIPT_SIGNING_KEY: generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  });
  const cUntil = Date.now() + 60_000;
  while (Date.now() < cUntil && !/ready on/.test(c.output())) await sleep(200);
  const base = `http://127.0.0.1:${portC}`;
  // A correctly signed (but unknown) session cookie, so pages and /api/me reach the database.
  const token = "lifecycleprobetoken";
  const signature = createHmac("sha256", SECRET).update(token).digest("base64");
  const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
  for (const [method, path, body] of [
    ["GET", "/api/me", undefined],
    ["GET", "/api/v1/rates", undefined],
    ["POST", "/api/v1/calculate", Buffer.from('{"expression":"1+2"}')],
    ["GET", "/api/v1/convert?amount=1&from=EUR&to=USD", undefined],
    ["GET", "/api/health", undefined],
  ]) {
    const res = await raw(base, path, {
      method,
      body,
      headers: { cookie, "content-type": "application/json" },
      timeoutMs: 30_000,
    });
    line(`db down: ${method} ${path}`, `${res.status} ${res.text.slice(0, 110) || "(empty body)"}`);
  }
  // What a person sees: the page in Chromium, with the signed session cookie.
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "better-auth.session_token", value: cookie.split("=")[1], url: base }]);
    const page = await context.newPage();
    for (const path of ["/dashboard", "/user-profile", "/pricing"]) {
      const response = await page.goto(`${base}${path}`, { timeout: 30_000 });
      await page.waitForTimeout(2000);
      const heading = (
        await page
          .locator("h1")
          .first()
          .textContent({ timeout: 5000 })
          .catch(() => "")
      )?.trim();
      line(`db down: page ${path}`, `${response?.status()} h1 "${heading}"`);
    }
  } finally {
    await browser.close();
  }
  c.child.kill("SIGTERM");
  await c.exited;
} finally {
  for (const child of children) child.kill("SIGTERM");
}

function summarize(statuses) {
  const counts = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return Object.entries(counts)
    .map(([s, n]) => `${n}x${s}`)
    .join(", ");
}
