#!/usr/bin/env node
// Probes two low-severity audit findings over HTTP against a running server with the demo seed, and
// prints what the server answered (run it before and after a change to compare):
//
// - organizations: the demo owner asks POST /api/auth/organization/create `--orgs` times;
// - account deletion: the demo owner (only owner of Demo Company and of what it just created) and
//   the demo admin (the only platform admin) each ask POST /api/auth/delete-user with their password.
//   Where the server allows it, that account is gone: run on a throwaway database.
//
//   ABACUS_E2E_PAGES=1 npx next build
//   PORT=3304 node scripts/db/run-with-db.mjs --data .test-data/probe --fresh --migrate --seed node dist/server.mjs &
//   node bench/low-findings-probe.mjs --url http://127.0.0.1:3304
import { loopbackOnly, parseArgs, raw } from "./lib/probe-kit.mjs";

const args = parseArgs(process.argv.slice(2), {
  url: "http://127.0.0.1:3304",
  orgs: "8",
  password: "abacus-demo-2026",
});
const origin = loopbackOnly(args.url);
const json = (value) => Buffer.from(JSON.stringify(value));
const post = (path, body, cookie) =>
  raw(origin, path, {
    method: "POST",
    headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
    body: json(body),
  });
const cookieOf = (headers) =>
  (headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
const message = (text) => {
  try {
    const body = JSON.parse(text);
    return body.error?.message ?? body.message ?? "";
  } catch {
    return text.slice(0, 120);
  }
};

async function signIn(email) {
  const res = await post("/api/auth/sign-in/email", { email, password: args.password });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${message(res.text)}`);
  return cookieOf(res.headers);
}

const owner = await signIn("owner@abacus.local");
const admin = await signIn("admin@abacus.local");

const tag = Date.now().toString(36);
const statuses = [];
let refusal = "";
for (let i = 1; i <= Number(args.orgs); i++) {
  const res = await post(
    "/api/auth/organization/create",
    { name: `Probe ${i}`, slug: `probe-${tag}-${i}` },
    owner,
  );
  statuses.push(res.status);
  if (res.status !== 200 && !refusal) refusal = message(res.text);
}
const created = statuses.filter((s) => s === 200).length;
console.log(`organizations  asked ${statuses.length}, created ${created}  statuses ${statuses.join(" ")}`);
if (refusal) console.log(`               refusal: ${refusal}`);

for (const [who, cookie] of [
  ["sole owner", owner],
  ["last admin", admin],
]) {
  const res = await post("/api/auth/delete-user", { password: args.password }, cookie);
  const outcome = res.status === 200 ? "DELETED" : `refused: ${message(res.text)}`;
  console.log(`delete-user    ${who.padEnd(11)} status ${res.status}  ${outcome}`);
}
