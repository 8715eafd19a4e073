#!/usr/bin/env node
// Better Auth's own endpoints as an attacker would use them, against production builds (each started
// the README's way on a fresh embedded database with the demo accounts, TRUST_PROXY=1 so the probe
// can speak for several client addresses), reading the database for what happened:
//
//   node bench/auth-surface-probe.mjs [--dist .next]... [--port 3331] [--only surface,impersonation,admin,mail]
//
// - surface: how many of Better Auth's paths answer anything but 404 at /api/auth/* (no cookie);
// - impersonation: an admin impersonates the demo owner (through the admin page's action, and over
//   HTTP), then tries to add a passkey, change the address and create an API key; audit rows counted;
// - admin: set-user-password, update-user {email, emailVerified}, set-role on oneself (the last admin);
// - mail: 60 password-reset requests for one address from 60 clients, and 30 from one client, over
//   HTTP and through the forgot-password form's action; reset mails written to the outbox counted.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import {
  embeddedDatabaseUrl,
  freePort,
  log,
  ROOT,
  startAbacus,
  stop,
  stopAllOnExit,
  waitFor,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", multiple: true, default: [".next"] },
    only: { type: "string", default: "" },
    password: { type: "string", default: "abacus-demo-2026" },
    /** First port to start servers on (one per --dist, counting up); a free one when unset. */
    port: { type: "string" },
  },
});
const only = new Set(args.only.split(",").filter(Boolean));
const wanted = (group) => only.size === 0 || only.has(group);

/** Every path in the surface table (src/server/auth/surface.ts), with parameters filled in. */
const SURFACE_PATHS = [
  ...readFileSync(path.join(ROOT, "src/server/auth/surface.ts"), "utf8").matchAll(/^\s+"(\/[^"]+)":/gm),
].map((m) => m[1].replace(":id", "google").replace(":token", "abc"));

function client(base, dist) {
  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, dist, "server/server-reference-manifest.json"), "utf8"),
  );
  const actionId = (name) => Object.entries(manifest.node).find(([, v]) => v.exportedName === name)?.[0];
  const call = async (
    pathname,
    { method = "GET", body, cookie = "", ip = "10.88.0.1", headers = {} } = {},
  ) => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      redirect: "manual",
      headers: {
        origin: base,
        "x-forwarded-for": ip,
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, setCookie: response.headers.getSetCookie() };
  };
  /** A server action, called as the page's form calls it (Next-Action header, arguments as JSON). */
  const action = async (name, input, { cookie = "", ip = "10.88.0.1" } = {}) => {
    const id = actionId(name);
    if (!id) return { status: "no-action", text: "", setCookie: [] };
    const res = await call("/sign-in", {
      method: "POST",
      body: JSON.stringify([input]),
      cookie,
      ip,
      headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
    });
    const ok = /"ok":true/.test(res.text);
    const error = /"error":"([^"]*)"/.exec(res.text)?.[1];
    return { ...res, ok, error };
  };
  return { call, action };
}

const jar = (cookie, setCookie) => {
  const map = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf("=")), p]),
  );
  for (const line of setCookie) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(line) || pair.endsWith("=")) map.delete(name);
    else map.set(name, pair);
  }
  return [...map.values()].join("; ");
};

async function probe(base, dist, sql) {
  const { call, action } = client(base, dist);
  const rows = [];
  const report = (group, name, outcome) => {
    rows.push({ group, name, outcome });
    console.log(`${dist.padEnd(14)} ${group.padEnd(13)} ${name.padEnd(58)} ${outcome}`);
  };
  const signIn = async (email, ip = "10.88.0.1") => {
    const res = await call("/api/auth/sign-in/email", {
      method: "POST",
      body: { email, password: args.password },
      ip,
    });
    if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${res.text.slice(0, 200)}`);
    return jar("", res.setCookie);
  };
  const idOf = async (email) => (await sql`select id from "user" where email = ${email}`)[0]?.id;

  if (wanted("surface")) {
    let open = 0;
    const opened = [];
    for (const p of SURFACE_PATHS) {
      const get = await call(`/api/auth${p}`);
      const post = await call(`/api/auth${p}`, { method: "POST", body: {} });
      if (get.status !== 404 || post.status !== 404) {
        open++;
        opened.push(p);
      }
    }
    report(
      "surface",
      `Better Auth paths answering other than 404 (of ${SURFACE_PATHS.length})`,
      `${open}: ${opened.join(" ")}`,
    );
  }

  if (wanted("impersonation")) {
    const admin = await signIn("admin@abacus.local");
    const ownerId = await idOf("owner@abacus.local");
    const audits = async () =>
      (
        await sql`select count(*)::int as n from audit_log where action in ('user.impersonate','user.stop-impersonating')`
      )[0].n;
    const auditBefore = await audits();
    const http = await call("/api/auth/admin/impersonate-user", {
      method: "POST",
      body: { userId: ownerId },
      cookie: admin,
    });
    report("impersonation", "POST /api/auth/admin/impersonate-user", `${http.status}`);
    if (http.status === 200) {
      const stopped = await call("/api/auth/admin/stop-impersonating", {
        method: "POST",
        body: {},
        cookie: jar(admin, http.setCookie),
      });
      report("impersonation", "  ...and POST /api/auth/admin/stop-impersonating", `${stopped.status}`);
    }
    report(
      "impersonation",
      "  audit rows written by the HTTP start and stop",
      `${(await audits()) - auditBefore}`,
    );

    const started = await action("impersonateAction", { userId: ownerId }, { cookie: admin });
    const imp = jar(admin, started.setCookie);
    report(
      "impersonation",
      "impersonateAction (the admin page) as admin -> owner",
      started.ok ? "started" : `refused: ${started.error}`,
    );
    const pkHttp = await call("/api/auth/passkey/generate-register-options", { cookie: imp });
    report("impersonation", "  GET /api/auth/passkey/generate-register-options", `${pkHttp.status}`);
    const pkAction = await action("passkeyOptionsAction", {}, { cookie: imp });
    report(
      "impersonation",
      "  passkeyOptionsAction (passkey registration options)",
      pkAction.ok ? "options issued" : `refused: ${pkAction.error}`,
    );
    const emailHttp = await call("/api/auth/change-email", {
      method: "POST",
      body: { newEmail: "attacker@evil.test" },
      cookie: imp,
    });
    report("impersonation", "  POST /api/auth/change-email", `${emailHttp.status}`);
    const emailAction = await action("changeEmailAction", { email: "attacker2@evil.test" }, { cookie: imp });
    report(
      "impersonation",
      "  changeEmailAction",
      emailAction.ok ? "confirmation sent" : `refused: ${emailAction.error}`,
    );
    const keysBefore = (await sql`select count(*)::int as n from api_keys`)[0].n;
    const keyAction = await action("createApiKeyAction", { name: "planted" }, { cookie: imp });
    const keysAfter = (await sql`select count(*)::int as n from api_keys`)[0].n;
    report(
      "impersonation",
      "  createApiKeyAction",
      `${keyAction.ok ? "created" : `refused: ${keyAction.error}`} (keys +${keysAfter - keysBefore})`,
    );
    const stop = await action("stopImpersonatingAction", {}, { cookie: imp });
    report("impersonation", "stopImpersonatingAction", stop.ok ? "stopped" : `refused: ${stop.error}`);
    const rows =
      await sql`select action from audit_log where action in ('user.impersonate','user.stop-impersonating') order by id`;
    report(
      "impersonation",
      "audit rows in all (start, stop)",
      rows.map((r) => r.action).join(", ") || "none",
    );
  }

  if (wanted("admin")) {
    const admin = await signIn("admin@abacus.local");
    const adminId = await idOf("admin@abacus.local");
    const memberId = await idOf("member@abacus.local");
    const hashBefore = (await sql`select password from account where user_id = ${memberId}`)[0]?.password;
    const setPw = await call("/api/auth/admin/set-user-password", {
      method: "POST",
      body: { userId: memberId, newPassword: "attacker-chosen-passphrase-1" },
      cookie: admin,
    });
    const hashAfter = (await sql`select password from account where user_id = ${memberId}`)[0]?.password;
    report(
      "admin",
      "POST /api/auth/admin/set-user-password (member)",
      `${setPw.status}, password ${hashAfter === hashBefore ? "unchanged" : "CHANGED"}`,
    );
    await sql`update "user" set email_verified = false where id = ${memberId}`;
    const upd = await call("/api/auth/admin/update-user", {
      method: "POST",
      body: { userId: memberId, data: { email: "taken-over@evil.test", emailVerified: true } },
      cookie: admin,
    });
    const member = (await sql`select email, email_verified from "user" where id = ${memberId}`)[0];
    report(
      "admin",
      "POST /api/auth/admin/update-user {email, emailVerified}",
      `${upd.status}, now ${member.email} verified=${member.email_verified}`,
    );
    await sql`update "user" set email = 'member@abacus.local', email_verified = true where id = ${memberId}`;
    const admins = (await sql`select count(*)::int as n from "user" where role = 'admin'`)[0].n;
    const role = await call("/api/auth/admin/set-role", {
      method: "POST",
      body: { userId: adminId, role: "user" },
      cookie: admin,
    });
    const after = (await sql`select role from "user" where id = ${adminId}`)[0]?.role;
    report(
      "admin",
      `POST /api/auth/admin/set-role self -> user (admins: ${admins})`,
      `${role.status}, role now ${after}`,
    );
    if (after !== "admin") await sql`update "user" set role = 'admin' where id = ${adminId}`;
  }

  if (wanted("mail")) {
    const victim = "owner@abacus.local";
    const resets = async () =>
      (
        await sql`select count(*)::int as n from mail_outbox where "to" = ${victim} and kind = 'reset-password'`
      )[0].n;
    for (const via of ["http", "action"]) {
      await sql`delete from rate_limit_events where bucket like 'mail-%'`;
      const before = await resets();
      const statuses = new Map();
      const started = performance.now();
      for (let i = 0; i < 60; i++) {
        const ip = `10.89.${via === "http" ? 1 : 2}.${i + 1}`;
        const res =
          via === "http"
            ? await call("/api/auth/request-password-reset", {
                method: "POST",
                body: { email: victim, redirectTo: "/" },
                ip,
              })
            : await action("forgotPasswordAction", { email: victim }, { ip });
        const key = via === "http" ? res.status : res.ok ? "ok" : `refused`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // mail is written after the answer
      report(
        "mail",
        `60 resets for one address from 60 clients (${via})`,
        `${JSON.stringify(Object.fromEntries(statuses))} in ${seconds} s; reset mails ${(await resets()) - before}`,
      );

      await sql`delete from rate_limit_events where bucket like 'mail-%'`;
      const one = new Map();
      for (let i = 0; i < 30; i++) {
        const email = `stranger-${via}-${i}@example.com`;
        const ip = "10.89.9.9";
        const res =
          via === "http"
            ? await call("/api/auth/request-password-reset", {
                method: "POST",
                body: { email, redirectTo: "/" },
                ip,
              })
            : await action("forgotPasswordAction", { email }, { ip });
        const key = via === "http" ? res.status : res.ok ? "ok" : `refused`;
        one.set(key, (one.get(key) ?? 0) + 1);
      }
      report("mail", `30 reset requests from one client (${via})`, JSON.stringify(Object.fromEntries(one)));
    }
  }
  return rows;
}

async function main() {
  stopAllOnExit();
  for (const [index, dist] of args.dist.entries()) {
    const name = path.basename(dist);
    const port = args.port ? Number(args.port) + index : await freePort();
    const dataDir = `.test-data/probe-surface-${name.replace(/^\./, "")}`;
    const entry = startAbacus({
      port,
      name: `abacus ${name}`,
      dataDir,
      distDir: dist,
      env: { TRUST_PROXY: "1", AUTH_SIGN_IN_LIMIT: "1000" },
      logFile: path.join(ROOT, `bench/results/auth-surface-${name}.log`),
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, { entry });
    const sql = postgres(embeddedDatabaseUrl(dataDir), { max: 2, onnotice: () => {} });
    try {
      await probe(base, dist, sql);
    } finally {
      await sql.end({ timeout: 5 });
      await stop(entry);
    }
  }
  log("done");
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
