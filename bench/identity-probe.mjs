/**
 * Probes a running instance, over HTTP as an attacker would, for the account-identity findings:
 * sign-up enumeration, sign-in of an unconfirmed account, a confirmation link that signs in,
 * enrolment on an unconfirmed account, and get-full-organization clearing the active organization.
 * It reads the outbox (the instance's mail) from the same database:
 *
 *   node scripts/db/run-with-db.mjs --data .test-data/probe --fresh --migrate --seed \
 *     sh -c 'PORT=3322 APP_URL=http://localhost:3322 node dist/server.mjs & sleep 20; \
 *            node bench/identity-probe.mjs http://localhost:3322; kill %1'
 *
 * Prints one line per finding: what the instance did.
 */
import postgres from "postgres";

const base = process.argv[2] ?? "http://localhost:3000";
const sql = postgres(process.env.DATABASE_URL, { max: 2, onnotice: () => {} });
const stamp = Date.now().toString(36);
const password = "a-long-unusual-passphrase";

async function call(path, { method = "POST", body, cookie = "" } = {}) {
  const response = await fetch(`${base}/api/auth${path}`, {
    method,
    redirect: "manual",
    headers: {
      origin: base,
      ...(body ? { "content-type": "application/json" } : {}),
      ...(cookie ? { cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const setCookies = response.headers.getSetCookie();
  const jar = setCookies.map((c) => c.split(";")[0]).filter((c) => !c.endsWith("="));
  return { status: response.status, text: await response.text(), jar, setCookies };
}
const hasSession = (r) => r.jar.some((c) => /session_token=./.test(c));

async function newestMail(to, kind) {
  for (let i = 0; i < 40; i++) {
    const [row] =
      await sql`select text from mail_outbox where "to" = ${to} and kind = ${kind} order by created_at desc limit 1`;
    if (row) return row.text;
    await new Promise((r) => setTimeout(r, 250));
  }
  return "";
}

// 8. Sign-up answers for an existing and a new address.
const existing = await call("/sign-up/email", {
  body: { name: "Probe", email: "owner@abacus.local", password },
});
const fresh = await call("/sign-up/email", {
  body: { name: "Probe", email: `probe-${stamp}@example.com`, password },
});
console.log(
  `sign-up: existing ${existing.status} ${existing.text} | new ${fresh.status} ${fresh.text} | identical: ${existing.text === fresh.text}`,
);

// 2a. The unconfirmed account signs in?
const unconfirmed = await call("/sign-in/email", { body: { email: `probe-${stamp}@example.com`, password } });
console.log(`unconfirmed sign-in: ${unconfirmed.status}, session: ${hasSession(unconfirmed)}`);

// 2b. send-verification-email with no session, then the mailed link: a session?
await call("/send-verification-email", { body: { email: `probe-${stamp}@example.com` } });
const text = await newestMail(`probe-${stamp}@example.com`, "verify-email");
const link = new URL(/(https?:\/\/\S+)/.exec(text)?.[1] ?? base);
let opened;
if (link.pathname.startsWith("/api/auth/")) {
  opened = await call(link.pathname.replace("/api/auth", "") + link.search, { method: "GET" });
} else {
  opened = await call("/email-confirmation/link", { body: { token: link.searchParams.get("token") } });
}
console.log(
  `link from send-verification-email: ${link.pathname} -> ${opened.status}, session: ${hasSession(opened)}`,
);

// 2c. Enrolment while unconfirmed: a session of an account marked unconfirmed (as before the rules).
const member = await call("/sign-in/email", {
  body: { email: "member@abacus.local", password: "abacus-demo-2026" },
});
const cookie = member.jar.join("; ");
await sql`update "user" set email_verified = false where email = 'member@abacus.local'`;
const enable = await call("/two-factor/enable", { body: { password: "abacus-demo-2026" }, cookie });
const register = await call("/passkey/generate-register-options", { method: "GET", cookie });
await sql`update "user" set email_verified = true, two_factor_enabled = false where email = 'member@abacus.local'`;
await sql`delete from two_factor where user_id = (select id from "user" where email = 'member@abacus.local')`;
console.log(`unconfirmed enrolment: two-factor/enable ${enable.status}, passkey options ${register.status}`);

// 14. get-full-organization for an organization one is not in: the active organization after it.
const [other] =
  await sql`insert into organization (id, name, slug) values (${`probe-${stamp}`}, 'Probe Org', ${`probe-org-${stamp}`}) returning id`;
const before = await call("/get-session", { method: "GET", cookie });
const denied = await call(`/organization/get-full-organization?organizationId=${other.id}`, {
  method: "GET",
  cookie,
});
const after = await call("/get-session", { method: "GET", cookie });
const active = (r) => JSON.parse(r.text || "null")?.session?.activeOrganizationId ?? null;
console.log(
  `get-full-organization (not a member): ${denied.status}; active organization ${active(before)} -> ${active(after)}`,
);
await sql`delete from organization where id = ${other.id}`;
await sql.end();
