#!/usr/bin/env node
// Two Abacus instances on one PostgreSQL behind nginx (round robin, no sticky sessions), and the
// journeys that must hold when the app runs on several machines.
//
//   node bench/instances.mjs [--dist .next] [--keep-config]
//
// Everything listens on loopback: PostgreSQL (embedded, data in .test-data/instances), instance A and
// instance B (`node server.mjs` through run-with-db.mjs, sharing one AUTH_SECRET and TRUST_PROXY=1),
// and Debian's nginx (`/usr/sbin/nginx`, its own config and temp folders in a temporary directory).
// nginx adds an X-Abacus-Upstream header naming the instance that answered, so each journey can
// check which instance did what. Exit status 0 when every journey passes. Stops everything it started.
//
// Journeys:
//   1. round robin: consecutive requests alternate between the two instances
//   2. sign in through one instance, act through the other (read the account, sign out), and the
//      sign-out made on one is seen by the other
//   3. the anonymous API limit (60 a minute per client) is exact across instances: of 75 calls
//      alternating between A and B, sequential and then concurrent, exactly 60 are allowed
//   4. FX rates changed in one transaction with the version bump (what ratesChanged() does) are served
//      by both instances at once, with no restart: their per-instance caches check the version
//   4b. /pricing, kept in memory per instance and FX version, shows a rate change on both at once
//   5. SLOT: a double-submitted checkout, the two submits on different instances, is charged once
//      (needs the checkout another issue builds; reported as not available until /api/checkout exists)
//   6. stopping one instance under load loses no request (nginx retries idempotent requests)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import {
  ensureAbacusBuild,
  freePort,
  log,
  start,
  startAbacus,
  stop,
  stopAll,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: ".next" },
    "keep-config": { type: "boolean", default: false },
  },
});

const DATA = ".test-data/instances";
const DEMO = { email: "owner@abacus.local", password: "abacus-demo-2026" };

/**
 * The nginx configuration of the test, also shown in the docs ("Running several instances").
 * Round robin is nginx's default; there is no ip_hash or sticky cookie.
 */
export function nginxConfig({ listen, upstreams, dir }) {
  return `# Abacus behind nginx: round robin over the app instances, no sticky sessions.
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;

events { worker_connections 1024; }

http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream abacus {
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 32;
  }

  server {
    listen ${listen};
    client_max_body_size 12m;  # the largest body Abacus accepts is a 10 MB replay envelope

    location / {
      proxy_pass http://abacus;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # Appends the client's address; the instances run with TRUST_PROXY=1 and take that last entry.
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Only idempotent requests are retried on the other instance when one is down (nginx default).
      proxy_next_upstream error timeout http_502 http_503;
      add_header X-Abacus-Upstream $upstream_addr always;
    }
  }
}
`;
}

function databaseUrl() {
  const state = JSON.parse(readFileSync(path.join(DATA, "postgres.json"), "utf8"));
  const port = readFileSync(path.join(DATA, "pg/postmaster.pid"), "utf8").split("\n")[3];
  return `postgres://${state.user}:${encodeURIComponent(state.password)}@127.0.0.1:${port}/${state.database}`;
}

const results = [];
function check(journey, ok, detail) {
  results.push({ journey, ok, detail });
  log(`${ok === null ? "SLOT" : ok ? "PASS" : "FAIL"}  ${journey}: ${detail}`);
}

async function main() {
  stopAllOnExit();
  ensureAbacusBuild(args.dist);
  const [portA, portB, portLb] = [await freePort(), await freePort(), await freePort()];
  const lb = `http://127.0.0.1:${portLb}`;
  const dir = path.join(tmpdir(), `abacus-instances-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const shared = {
    // One secret for all instances: sessions and keyed client hashes must agree.
    AUTH_SECRET: `instances-test-${"x".repeat(40)}`,
    APP_URL: lb,
    TRUST_PROXY: "1",
  };
  const upstreamName = { [`127.0.0.1:${portA}`]: "A", [`127.0.0.1:${portB}`]: "B" };

  // A starts PostgreSQL (fresh, migrated, seeded); B shares the server already running on that folder.
  const a = startAbacus({
    name: "instance A",
    port: portA,
    dataDir: DATA,
    distDir: args.dist,
    env: shared,
    logFile: path.join(dir, "a.log"),
  });
  await waitFor(`http://127.0.0.1:${portA}/api/health`, { entry: a });
  const b = startAbacus({
    name: "instance B",
    port: portB,
    dataDir: DATA,
    fresh: false,
    distDir: args.dist,
    env: shared,
    logFile: path.join(dir, "b.log"),
  });
  await waitFor(`http://127.0.0.1:${portB}/api/health`, { entry: b });
  writeFileSync(
    path.join(dir, "nginx.conf"),
    nginxConfig({ listen: `127.0.0.1:${portLb}`, upstreams: Object.keys(upstreamName), dir }),
  );
  const nginx = start("nginx", "/usr/sbin/nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
    logFile: path.join(dir, "nginx.out"),
  });
  await waitFor(`${lb}/api/health`, { entry: nginx });
  log(`A on :${portA}, B on :${portB}, nginx on ${lb}; logs in ${dir}`);
  const sql = postgres(databaseUrl(), { max: 2, onnotice: () => {} });

  const via = (response) => upstreamName[response.headers.get("x-abacus-upstream")] ?? "?";
  const call = async (pathname, init = {}) => {
    const response = await fetch(`${lb}${pathname}`, { redirect: "manual", ...init });
    const text = await response.text();
    return { response, status: response.status, text, via: via(response) };
  };
  /** Repeats a request until the given instance answers it (round robin: at most a few tries). */
  const callOn = async (instance, pathname, init) => {
    for (let i = 0; i < 6; i++) {
      const answer = await call(pathname, init);
      if (answer.via === instance) return answer;
    }
    throw new Error(`instance ${instance} never answered ${pathname}`);
  };

  // 1. Round robin.
  const seen = [];
  for (let i = 0; i < 6; i++) seen.push((await call("/api/health")).via);
  check(
    "round robin",
    seen.every((v, i) => i === 0 || v !== seen[i - 1]),
    `6 health checks answered by ${seen.join(" ")}`,
  );

  // 2. Sign in on one, act on the other.
  try {
    const origin = { origin: lb, "content-type": "application/json" };
    const signIn = await call("/api/auth/sign-in/email", {
      method: "POST",
      headers: origin,
      body: JSON.stringify(DEMO),
    });
    const cookie = (signIn.response.headers.getSetCookie?.() ?? [])
      .map((c) => c.split(";")[0])
      .filter((c) => c.includes("session"))
      .join("; ");
    const other = signIn.via === "A" ? "B" : "A";
    const me = await callOn(other, "/api/me", { headers: { cookie } });
    const email = me.status === 200 ? JSON.parse(me.text)?.user?.email : undefined;
    const signOut = await callOn(other, "/api/auth/sign-out", {
      method: "POST",
      headers: { ...origin, cookie },
      body: "{}",
    });
    const after = await callOn(signIn.via, "/api/me", { headers: { cookie } });
    check(
      "sign in on one instance, act on the other",
      signIn.status === 200 &&
        Boolean(cookie) &&
        email === DEMO.email &&
        signOut.status === 200 &&
        after.text === "null",
      `signed in on ${signIn.via} (${signIn.status}); ${other} knew the session (${email ?? me.text.slice(0, 80)}); ` +
        `signed out on ${other} (${signOut.status}); ${signIn.via} then answered /api/me with ${after.text.slice(0, 40)}`,
    );
  } catch (error) {
    check("sign in on one instance, act on the other", false, String(error));
  }

  // 3. The anonymous API limit, exact across instances: sequential, then concurrent.
  const calc = {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ expression: "1 + 1" }),
  };
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
  const sequential = [];
  for (let i = 0; i < 75; i++) sequential.push(await call("/api/v1/calculate", calc));
  const tally = (answers) => {
    const count = (status, instance) =>
      answers.filter((x) => x.status === status && (!instance || x.via === instance)).length;
    return {
      allowed: count(200),
      refused: count(429),
      text: `200: A ${count(200, "A")} + B ${count(200, "B")}; 429: A ${count(429, "A")} + B ${count(429, "B")}`,
    };
  };
  const s = tally(sequential);
  check("API limit exact across instances (sequential)", s.allowed === 60 && s.refused === 15, s.text);
  // The instances repeat a refusal from memory for up to 10 s before asking the database again:
  // wait that out, so the burst starts from a clean state on both.
  log("waiting 11 s for the instances' remembered refusals to lapse before the concurrent burst");
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
  const burst = await Promise.all(Array.from({ length: 75 }, () => call("/api/v1/calculate", calc)));
  const c = tally(burst);
  check("API limit exact across instances (75 at once)", c.allowed === 60 && c.refused === 15, c.text);

  // 4. FX rates changed: both instances serve the new rates at once.
  const [{ rate: usd }] = await sql`select rate::text as rate from fx_rates where currency = 'USD'`;
  for (const instance of ["A", "B"]) await callOn(instance, "/api/v1/rates");
  const changed = usd === "1.2345" ? "1.2346" : "1.2345";
  await sql.begin(async (tx) => {
    await tx`update fx_rates set rate = ${changed} where currency = 'USD'`;
    // What ratesChanged() in src/server/fx.ts does, in the same transaction.
    await tx`insert into fx_rates_version (id, version) values (1, 1)
             on conflict (id) do update set version = fx_rates_version.version + 1, changed_at = now()`;
  });
  const served = {};
  for (const instance of ["A", "B"]) {
    served[instance] = JSON.parse((await callOn(instance, "/api/v1/rates")).text).rates?.USD;
  }
  check(
    "FX change seen by every instance at once",
    served.A === changed && served.B === changed,
    `USD ${usd} → ${changed}; A serves ${served.A}, B serves ${served.B}`,
  );

  // 4b. /pricing, which each instance keeps in memory per FX version (scripts/page-cache.mjs): cached
  // on both, then a rate change is on both instances' very next page.
  const proPrice = (text) => /data-testid="price-pro"[^>]*>([^<]*)</.exec(text)?.[1];
  const pricing = async (instance) => {
    const answer = await callOn(instance, "/pricing?currency=EUR");
    return { price: proPrice(answer.text), cached: answer.response.headers.get("x-abacus-cache") === "hit" };
  };
  const pageRate = usd === "2" ? "3" : "2";
  const setUsd = (rate) =>
    sql.begin(async (tx) => {
      await tx`update fx_rates set rate = ${rate} where currency = 'USD'`;
      await tx`insert into fx_rates_version (id, version) values (1, 1)
               on conflict (id) do update set version = fx_rates_version.version + 1, changed_at = now()`;
    });
  await setUsd(pageRate === "2" ? "3" : "2");
  const warm = {};
  for (const instance of ["A", "B"]) {
    await pricing(instance);
    warm[instance] = await pricing(instance);
  }
  await setUsd(pageRate);
  const fresh = {};
  for (const instance of ["A", "B"]) fresh[instance] = await pricing(instance);
  // $12 a month: 1 EUR = 2 USD gives €6, 1 EUR = 3 USD gives €4.
  const expected = pageRate === "2" ? "€6" : "€4";
  check(
    "/pricing cached per instance, never stale after an FX change",
    warm.A.cached && warm.B.cached && fresh.A.price === expected && fresh.B.price === expected,
    `before: A ${warm.A.price} (${warm.A.cached ? "cached" : "rendered"}), B ${warm.B.price} (${warm.B.cached ? "cached" : "rendered"}); ` +
      `after USD → ${pageRate}: A ${fresh.A.price}, B ${fresh.B.price} (expected ${expected})`,
  );

  // 5. SLOT: the double-submitted checkout.
  const probe = await call("/api/checkout", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  check(
    "double-submitted checkout charged once across instances",
    null,
    probe.status === 404
      ? "not available: there is no checkout endpoint yet (another issue builds it); see the SLOT in bench/instances.mjs"
      : `checkout endpoint answers ${probe.status}: fill in the SLOT in bench/instances.mjs`,
  );
  // SLOT (checkout): sign in, submit the same checkout twice at once with one idempotency key so the
  // two land on different instances (callOn "A" and callOn "B" in Promise.all), then check in the
  // database that exactly one payment/charge row exists for that key and both answers agree.

  // 6. Stop B under load: nginx sends its share to A; no request is lost.
  const load = autocannon({ url: `${lb}/api/health`, connections: 10, duration: 8 });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await stop(b);
  const loaded = await load;
  const lost = loaded.errors + loaded.timeouts + loaded.non2xx;
  check(
    "stopping one instance under load",
    lost === 0,
    `${loaded.requests.total} health checks over 8 s, B stopped after 3 s: ${loaded["2xx"]} answered 200, ${lost} lost`,
  );

  await sql.end({ timeout: 5 });
  await stopAll();
  if (!args["keep-config"]) rmSync(dir, { recursive: true, force: true });
  const failed = results.filter((r) => r.ok === false);
  console.log(
    [
      `Two instances behind nginx ${new Date().toISOString()}:`,
      ...results.map((r) => `- ${r.ok === null ? "SLOT" : r.ok ? "PASS" : "FAIL"} ${r.journey}: ${r.detail}`),
    ].join("\n"),
  );
  process.exit(failed.length ? 1 : 0);
}

// Run only as a script: importing this file (e.g. for its exports) starts nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch(async (error) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  });
}
