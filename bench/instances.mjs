#!/usr/bin/env node
// Two Abacus instances on one PostgreSQL behind nginx (round robin, no sticky sessions), and the
// journeys that must hold when the app runs on several machines.
//
//   node bench/instances.mjs [--dist .next] [--keep-config]
//
// Everything listens on loopback: PostgreSQL (embedded, data in .test-data/instances), instance A and
// instance B (`node dist/server.mjs` through run-with-db.mjs, sharing one AUTH_SECRET and TRUST_PROXY=1),
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
//   5. a double-submitted checkout (the browser's server-action request, sent twice at once), the two
//      submits on different instances, is charged once: one order, one successful payment
//   6. stopping one instance under load loses no request (nginx retries idempotent requests)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import autocannon from "autocannon";
import postgres from "postgres";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";
import {
  embeddedDatabaseUrl,
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

const databaseUrl = () => embeddedDatabaseUrl(DATA);

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

  async function doubleCheckout() {
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const context = await browser.newContext({ baseURL: lb });
      const signIn = await context.request.post("/api/auth/sign-in/email", {
        data: { email: "owner@abacus.local", password: "abacus-demo-2026" },
        headers: { Origin: lb },
      });
      if (!signIn.ok()) return [false, `demo owner sign-in: HTTP ${signIn.status()}`];
      const page = await context.newPage();
      let captured;
      await page.route(
        (url) => url.pathname === "/checkout",
        async (route) => {
          if (route.request().method() !== "POST") return route.continue();
          captured ??= {
            headers: await route.request().allHeaders(),
            body: route.request().postDataBuffer(),
          };
          await route.abort();
        },
      );
      // Team: the demo organization already has Pro
      await page.goto("/checkout?plan=team&interval=monthly&currency=EUR");
      await page.getByLabel("Country").click();
      await page.getByRole("combobox", { name: "Search countries" }).fill("Germany");
      await page.getByRole("option", { name: "Germany", exact: true }).click();
      await page.getByLabel("Card number").fill("4242424242424242");
      await page.getByLabel("Expiry (MM/YY)").fill("12/30");
      await page.getByLabel("Security code").fill("123");
      await page.getByRole("button", { name: /^Pay / }).click();
      for (let i = 0; i < 100 && !captured; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!captured) return [false, "the Pay button sent no server action"];
      const headers = Object.fromEntries(
        Object.entries(captured.headers).filter(
          ([name]) => !/^(host|content-length|connection)$/i.test(name),
        ),
      );
      const submit = () =>
        call("/checkout", { method: "POST", headers, body: captured.body }).then((answer) => ({
          ...answer,
          paid: /Payment received|already has this plan/.test(answer.text),
        }));
      const answers = await Promise.all([submit(), submit()]);
      const key = /"idempotencyKey":"([0-9a-f-]{36})"/.exec(captured.body?.toString() ?? "")?.[1];
      const [row] = await sql`
        select count(distinct o.id)::int as orders,
               count(p.id) filter (where p.status = 'succeeded')::int as charges
        from orders o left join payments p on p.order_id = o.id
        where o.idempotency_key = ${key ?? ""}`;
      const landed = answers.map((a) => `${a.via} ${a.status}${a.paid ? " paid" : ""}`).join(", ");
      const ok =
        key !== undefined &&
        new Set(answers.map((a) => a.via)).size === 2 &&
        answers.every((a) => a.status === 200 && a.paid) &&
        row.orders === 1 &&
        row.charges === 1;
      return [
        ok,
        `two submits of key ${key?.slice(0, 8) ?? "?"}…: ${landed}; ${row.orders} order, ${row.charges} charge`,
      ];
    } finally {
      await browser.close();
    }
  }

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

  // 4b. /pricing, which each instance keeps in memory per FX version (src/edge/page-cache.ts): cached
  // on both, then a rate change is on both instances' very next page.
  const proPrice = (text) => /data-testid="price-pro"[^>]*>([^<]*)</.exec(text)?.[1];
  const pricing = async (instance) => {
    const answer = await callOn(instance, "/pricing?currency=EUR");
    return { price: proPrice(answer.text), cached: answer.response.headers.has("age") };
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

  // 5. The double-submitted checkout: the browser's own submit (a server action, one idempotency key)
  // captured once and sent twice at once through nginx, so that round robin lands the two on different
  // instances; exactly one order and one successful payment may exist for that key, and both answers
  // must be a success (the second one the first one's result, not a second charge).
  check("double-submitted checkout charged once across instances", ...(await doubleCheckout()));

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
