import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, demo, uniqueEmail } from "./auth-helpers";
import { scanServerLog } from "./log-hygiene";

// The real server's logs (dist/server.mjs, its own port, the suite's database) over a journey that
// handles every kind of secret: a password typed at sign-up, a session cookie, an API key, a test
// card number and mailed tokens (in a query and in a path). None of them may appear in what it
// printed; each request is one JSON line whose id the answer carries.

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

test("request lines carry the answer's X-Request-Id and no secret", async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn("node", ["dist/server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", APP_URL: origin },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  try {
    await expect.poll(() => output, { timeout: 60_000 }).toContain("ready on");
    const json = { "content-type": "application/json", origin };

    const password = `Typed-${randomBytes(9).toString("base64url")}`;
    await fetch(`${origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "Logs", email: uniqueEmail("logs"), password }),
    });

    const signedIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: demo.owner, password: DEMO_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const cookieValue = cookie.split("=").slice(1).join("=");
    expect(cookieValue.length).toBeGreaterThan(10);
    const me = await fetch(`${origin}/api/me`, { headers: { cookie } });
    expect(me.status).toBe(200);

    const apiKey = `abk_${randomBytes(24).toString("base64url")}`;
    const keyed = await fetch(`${origin}/api/v1/rates`, { headers: { authorization: `Bearer ${apiKey}` } });
    const card = "4242424242424242";
    await fetch(`${origin}/api/v1/calculate`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ expression: `${card} + 0`, cardNumber: card }),
    });
    await fetch(`${origin}/pricing?card=${card}`);
    const token = randomBytes(24).toString("base64url");
    await fetch(`${origin}/api/auth/verify-email?token=${token}`, { redirect: "manual" });
    await fetch(`${origin}/api/auth/reset-password/${token}`, { redirect: "manual" });

    // Everything it printed, up to its exit.
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    // Every line it printed is a JSON record (the app's console output and graphile-worker's too),
    // but for the plain [mail] lines a local instance prints for the person at the terminal.
    const secrets = new Map(
      Object.entries({ password, cookieValue, apiKey, card, token }).map(([k, v]) => [v, k]),
    );
    expect(scanServerLog(output, { always: secrets, mailed: new Map() })).toEqual([]);
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => line.path)).toContain("/api/v1/rates");
    const id = keyed.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requests.find((line) => line.reqId === id)).toMatchObject({
      method: "GET",
      path: "/api/v1/rates",
    });

    for (const [what, secret] of Object.entries({ password, cookieValue, apiKey, card, token })) {
      expect(output.includes(secret), `${what} in the logs`).toBe(false);
    }
  } finally {
    child.kill("SIGTERM");
  }
});

test("the log check finds a line that is not JSON, a secret, and a mailed token outside a [mail] line", () => {
  const record = (msg: string) => JSON.stringify({ level: "info", time: "2026-11-28T06:00:00.000Z", msg });
  const log = [
    record("request"),
    "plain text from somewhere",
    record("signed in with hunter2-unusual-passphrase"),
    "[mail] Reset your password (to a@example.com): http://x/reset/tok-0123456789abcdef",
    record("GET /reset/tok-0123456789abcdef"),
    record("cookie better-auth.session_token=abc.def"),
    "[mail] Welcome (to b@example.com): hunter2-unusual-passphrase",
    "",
  ].join("\n");
  const findings = scanServerLog(log, {
    always: new Map([["hunter2-unusual-passphrase", "a password"]]),
    mailed: new Map([["tok-0123456789abcdef", "a mailed token"]]),
  });
  expect(findings.map((f) => [f.line, f.what])).toEqual([
    [2, "a line that is not a JSON log record"],
    [3, "a password"],
    [5, "a mailed token"],
    [6, "a session cookie"],
    [7, "a password"],
  ]);
});
