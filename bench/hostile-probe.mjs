#!/usr/bin/env node
// Replays the attacks an outside audit found against a running production server on loopback, one after
// another, and prints for each: status, time, the server's peak RSS and CPU seconds during the
// attack, and `/api/health` latency (p99 and max) sampled while it ran.
//
//   npx next build
//   PORT=3304 node scripts/db/run-with-db.mjs --data .test-data/probe --fresh --migrate --seed node dist/server.mjs &
//   node bench/hostile-probe.mjs --url http://127.0.0.1:3304 [--only monitoring,redirect,...]
//
// It signs in with the seeded demo accounts (embedded database only), so run it on a fresh probe
// database. Every attack has a client-side timeout; the script ends by itself.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { fmt, listenerPid, loopbackOnly, parseArgs, raw, startMonitor } from "./lib/probe-kit.mjs";

const args = parseArgs(process.argv.slice(2), {
  url: "http://127.0.0.1:3304",
  only: "",
  manifest: "",
  password: "abacus-demo-2026",
});
const origin = loopbackOnly(args.url);
const port = Number(new URL(origin).port || 80);
const pid = listenerPid(port);
const only = new Set(args.only.split(",").filter(Boolean));
const results = [];

async function attack(group, name, run) {
  if (only.size > 0 && !only.has(group)) return;
  const stop = startMonitor(origin, pid);
  const started = performance.now();
  let outcome;
  try {
    outcome = await run();
  } catch (error) {
    outcome = { status: "error", note: String(error?.message ?? error) };
  }
  const ms = performance.now() - started;
  // Let the health sampler see the tail of the attack (e.g. logging after the answer).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const m = await stop();
  const row = { group, name, ...outcome, ms, ...m };
  results.push(row);
  console.log(
    `${group.padEnd(10)} ${name.padEnd(46)} status ${String(outcome.status).padEnd(12)} ${fmt(ms).padStart(7)} ms` +
      `  rss ${fmt(m.peakRssMb).padStart(5)} MB  cpu ${fmt(m.cpuSeconds, 2).padStart(6)} s` +
      `  health p99 ${fmt(m.healthP99).padStart(6)} ms max ${fmt(m.healthMax).padStart(6)} ms` +
      (outcome.note ? `  ${outcome.note}` : ""),
  );
}

const json = (value) => Buffer.from(JSON.stringify(value));
const cookieOf = (headers) =>
  (headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");

async function signIn(email) {
  const res = await raw(origin, "/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: json({ email, password: args.password }),
  });
  return { res, cookie: cookieOf(res.headers) };
}

// ---- 1. /monitoring envelopes with huge item counts
async function monitoringTarget() {
  const res = await fetch(`${origin}/api/monitoring/config`);
  const config = await res.json();
  return { dsn: config.dsn, tunnel: config.tunnel };
}
function manyItems(dsn, count, withReplay, first = "") {
  const parts = [`${JSON.stringify({ dsn, sent_at: new Date().toISOString() })}\n`, first];
  if (withReplay)
    parts.push(`${JSON.stringify({ type: "replay_event" })}\n${JSON.stringify({ segment_id: 1 })}\n`);
  const item = `${JSON.stringify({ type: "event" })}\n{}\n`;
  parts.push(item.repeat(count));
  return Buffer.from(parts.join(""));
}
await attack("monitoring", "22,000 event items (440 KB)", async () => {
  const { dsn, tunnel } = await monitoringTarget();
  const body = manyItems(dsn, 22_000, false);
  const res = await raw(origin, tunnel, { method: "POST", body, headers: { "content-type": "text/plain" } });
  return { status: res.status, note: `${(body.length / 1024).toFixed(0)} KB` };
});
await attack("monitoring", "450,000 items + replay_event (9 MB)", async () => {
  const { dsn, tunnel } = await monitoringTarget();
  const body = manyItems(dsn, 450_000, true);
  const res = await raw(origin, tunnel, { method: "POST", body, headers: { "content-type": "text/plain" } });
  return { status: res.status, note: `${(body.length / 1024 / 1024).toFixed(1)} MB` };
});

// The SDK's parser reads `"length":0` as "up to the next newline": a counter that walked it as a
// binary item of 0 bytes saw 2 items and let the parser read all 450,000 (0.9 s CPU, 110 MB).
await attack("monitoring", '"length":0 first item + 450,000 items (9 MB)', async () => {
  const { dsn, tunnel } = await monitoringTarget();
  const body = manyItems(dsn, 450_000, false, `${JSON.stringify({ type: "event", length: 0 })}\n{}\n`);
  const res = await raw(origin, tunnel, { method: "POST", body, headers: { "content-type": "text/plain" } });
  return { status: res.status, note: `${(body.length / 1024 / 1024).toFixed(1)} MB` };
});

// ---- 2. open redirect after sign-in
await attack("redirect", "signed-in /sign-in|/sign-up ?redirect_url=…", async () => {
  const { cookie } = await signIn("owner@abacus.local");
  const payloads = [
    "/.//evil.com",
    "/..//evil.com",
    "/%2e//evil.com",
    "/a/..//evil.com",
    "/%2e%2e//evil.com",
  ];
  const leaks = [];
  for (const page of ["/sign-in", "/sign-up"]) {
    for (const payload of payloads) {
      const res = await raw(origin, `${page}?redirect_url=${encodeURIComponent(payload)}`, {
        headers: { cookie },
      });
      const location = res.headers.location ?? "";
      if (location.startsWith("//") || /^https?:\/\/evil/.test(location))
        leaks.push(`${page} ${payload} -> ${location}`);
    }
  }
  return { status: `${leaks.length}/10 open`, note: leaks.slice(0, 2).join("; ") };
});

// ---- 3. Better Auth endpoints past the app's validation
// (update-user and organization/create are server-only: the product calls them from server actions.)
await attack("auth", "sign-up with a 60,000,000-char name", async () => {
  const body = Buffer.from(
    `{"name":"${"x".repeat(60_000_000)}","email":"huge@abacus.local","password":"a-long-passphrase-9"}`,
  );
  const res = await raw(origin, "/api/auth/sign-up/email", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", origin },
  });
  return { status: res.status, note: res.text.slice(0, 80) };
});
await attack("auth", "sign-up with a 20 KB name", async () => {
  const res = await raw(origin, "/api/auth/sign-up/email", {
    method: "POST",
    body: json({
      name: "n".repeat(20_000),
      email: `wide${Date.now()}@abacus.local`,
      password: "a-long-passphrase-9",
    }),
    headers: { "content-type": "application/json", origin },
  });
  return { status: res.status, note: res.text.slice(0, 80) };
});
await attack("auth", "update-user and organization/create from a browser", async () => {
  const { cookie } = await signIn("member@abacus.local");
  const headers = { "content-type": "application/json", origin, cookie };
  const update = await raw(origin, "/api/auth/update-user", {
    method: "POST",
    body: json({ name: "m" }),
    headers,
  });
  const create = await raw(origin, "/api/auth/organization/create", {
    method: "POST",
    body: json({ name: "n", slug: `s${Date.now()}` }),
    headers,
  });
  return { status: `${update.status}/${create.status}`, note: "both server-only: 404 expected" };
});

// ---- 4. /api/v1/calculate with a 100 MB body, alone and 16 at once
const big = Buffer.from(`{"expression":"1 + 2","pad":"${"p".repeat(100 * 1024 * 1024)}"}`);
await attack("calculate", "one 100 MB body", async () => {
  const res = await raw(origin, "/api/v1/calculate", {
    method: "POST",
    body: big,
    headers: { "content-type": "application/json" },
  });
  return { status: res.status, note: res.text.slice(0, 60) };
});
await attack("calculate", "16 x 100 MB bodies at once", async () => {
  const all = await Promise.all(
    Array.from({ length: 16 }, () =>
      raw(origin, "/api/v1/calculate", {
        method: "POST",
        body: big,
        headers: { "content-type": "application/json" },
      }),
    ),
  );
  const counts = {};
  for (const r of all) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return {
    status: Object.entries(counts)
      .map(([s, n]) => `${n}x${s}`)
      .join(","),
  };
});

// ---- 5. session tokens in bodies, HSTS
await attack("tokens", "token in sign-in / get-session / list-sessions", async () => {
  const { res, cookie } = await signIn("owner@abacus.local");
  const session = await raw(origin, "/api/auth/get-session", { headers: { cookie } });
  const list = await raw(origin, "/api/auth/list-sessions", { headers: { cookie } });
  const has = (r) => (/"token"\s*:/.test(r.text) ? "token" : "none");
  return {
    status: `${res.status}/${session.status}/${list.status}`,
    note: `sign-in ${has(res)}, get-session ${has(session)}, list-sessions ${has(list)}; HSTS ${res.headers["strict-transport-security"] ? "yes" : "no"}`,
  };
});

// ---- 6. forwarded host and malformed Origin on a server action
function actionId() {
  const dir = args.manifest || process.env.NEXT_DIST_DIR || ".next";
  const manifest = JSON.parse(readFileSync(`${dir}/server/server-reference-manifest.json`, "utf8"));
  const entry = Object.entries(manifest.node).find(([, v]) => v.exportedName === "signOutAction");
  return entry?.[0];
}
await attack("origin", "action with Origin evil.com + X-Forwarded-Host", async () => {
  const res = await raw(origin, "/contact", {
    method: "POST",
    body: Buffer.from("[]"),
    headers: {
      "next-action": actionId(),
      "content-type": "text/plain;charset=UTF-8",
      origin: "https://evil.com",
      "x-forwarded-host": "evil.com",
      accept: "text/x-component",
    },
  });
  const ran = res.status === 200 && String(res.headers["content-type"]).includes("text/x-component");
  return { status: res.status, note: ran ? "action ran" : "refused" };
});
await attack("origin", "Origin http://localhost:PORT.evil.com", async () => {
  const res = await raw(origin, "/contact", {
    method: "POST",
    body: Buffer.from("[]"),
    headers: {
      "next-action": actionId(),
      "content-type": "text/plain;charset=UTF-8",
      origin: `http://localhost:${port}.evil.com`,
    },
  });
  return { status: res.status, note: res.text.slice(0, 60).replace(/\s+/g, " ") };
});

// ---- 7. the edge's path, replay bytes and its own answers
/** A request with the path exactly as given: `raw` goes through `new URL`, which resolves dot segments. */
function asIs(path, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: new URL(origin).hostname,
        port,
        path,
        method,
        headers: { ...headers, ...(body ? { "content-length": body.length } : {}) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, headers: {} }));
    req.end(body);
  });
}
const tally = (statuses) => {
  const counts = new Map();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status || "none"}×${n}`).join(" ");
};
const securityNote = (res) =>
  `CSP ${res.headers["content-security-policy"] ? "yes" : "no"}, nosniff ${res.headers["x-content-type-options"] ? "yes" : "no"}`;

await attack("replies", "the edge's own 413 / 400 / 403 / 429", async () => {
  const notes = [];
  const tooBig = await asIs("/api/views", { method: "POST", body: Buffer.alloc(5000, 0x61) });
  notes.push(`413: ${securityNote(tooBig)}`);
  const badOrigin = await asIs("/contact", { headers: { origin: "http://[" } });
  notes.push(`${badOrigin.status}: ${securityNote(badOrigin)}`);
  const action = await asIs("/contact", {
    method: "POST",
    body: Buffer.from("[]"),
    headers: { "next-action": actionId(), origin: "https://evil.com", "content-type": "text/plain" },
  });
  notes.push(`${action.status}: ${securityNote(action)}`);
  // The anonymous API limit (60 a minute), then the edge's repetition of its 429.
  let refused;
  for (let i = 0; i < 70; i++) {
    const res = await asIs("/api/v1/convert?from=USD&to=EUR&amount=1", { headers: { "x-probe": String(i) } });
    if (res.status === 429) refused = res;
  }
  notes.push(
    `429: ${refused ? `${securityNote(refused)}, RateLimit-Limit ${refused.headers["ratelimit-limit"] ?? "-"}, -Remaining ${refused.headers["ratelimit-remaining"] ?? "-"}, -Reset ${refused.headers["ratelimit-reset"] ?? "-"}` : "none"}`,
  );
  return { status: "see note", note: notes.join("; ") };
});

await attack("dots", "100 x GET /_next/static/%2e%2e/%2e%2e/api/me, 32 at once", async () => {
  const statuses = [];
  for (let round = 0; round < 100 / 32; round++) {
    const batch = await Promise.all(
      Array.from({ length: 32 }, () =>
        asIs("/_next/static/%2e%2e/%2e%2e/api/me", { headers: { cookie: "a=1" } }),
      ),
    );
    statuses.push(...batch.map((r) => r.status));
  }
  return {
    status: tally(statuses),
    note: "200 = routed by Next.js past the gate; 400 = refused at the edge",
  };
});
await attack("dots", "POST /_next/static/../../api/auth/sign-in/email, 200 KB", async () => {
  const res = await asIs("/_next/static/../../api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: Buffer.from(JSON.stringify({ email: "x@example.com", password: "p".repeat(200_000) })),
  });
  return {
    status: res.status,
    note: "the auth body cap (64 KiB) is the edge's only when the path is read as Next.js routes it",
  };
});

async function replayFlood(size, seconds) {
  const { dsn, tunnel } = await monitoringTarget();
  const body = Buffer.concat([
    Buffer.from(
      `${JSON.stringify({ dsn })}\n${JSON.stringify({ type: "replay_recording", length: size })}\n`,
    ),
    Buffer.alloc(size, 0x61),
    Buffer.from("\n"),
  ]);
  const statuses = [];
  let accepted = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const res = await raw(origin, tunnel, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain" },
      timeoutMs: 30_000,
    });
    statuses.push(res.status);
    if (res.status === 200) accepted += body.length;
  }
  return {
    status: tally(statuses),
    note: `${(accepted / 1024 / 1024).toFixed(1)} MB accepted in ${seconds} s`,
  };
}
await attack("replay", "replay_recording-only envelopes of 10 MB for 20 s", () =>
  replayFlood(10_000_000, 20),
);
await attack("replay", "replay_recording-only envelopes of 1.9 MB for 20 s", () =>
  replayFlood(1_900_000, 20),
);

console.log(`\n${JSON.stringify(results)}`);
