/**
 * Does an answer's timing tell whether an address has an account? Measures, against a real
 * PostgreSQL, the median time of each account endpoint for an address that exists and one that
 * does not, alternating the two so load affects both alike:
 *
 *   node scripts/db/run-with-db.mjs --data .test-data/bench --fresh --migrate \
 *     npx tsx --conditions=react-server bench/auth-enumeration.bench.ts
 *
 * (`--conditions=react-server` makes `server-only` importable outside Next.js.) The answers
 * themselves are compared in src/server/auth/account-security.int.test.ts; this only reports times.
 */
import Module, { createRequire } from "node:module";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../src/server/db/schema";

// Under `--conditions=react-server` outside Next.js, `next/navigation` (imported by src/server/api.ts)
// would load its client build, which needs React's client API. Next itself gives server code the
// react-server build: do the same, then load the auth module.
const require = createRequire(import.meta.url);
const navigation = new Module(require.resolve("next/navigation"));
navigation.exports = require("next/dist/client/components/navigation.react-server");
navigation.loaded = true;
(Module as unknown as { _cache: Record<string, Module> })._cache[require.resolve("next/navigation")] =
  navigation;
const { createAuth } = await import("../src/server/auth/auth");
const { createMailer } = await import("../src/server/mail/outbox");

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const origin = "http://localhost:3999";
const url = process.env.DATABASE_URL;
if (!url) throw new Error("run through scripts/db/run-with-db.mjs (DATABASE_URL is not set)");
const sql = postgres(url, { max: 5, onnotice: () => {} });
const db = drizzle(sql, { schema });
// Mail is written after each answer (auth.ts, backgroundTasks); the bench waits for it between
// calls, outside the timed part, so one call's mail does not slow the next one down.
const mailer = createMailer(db);
const auth = createAuth(db, {
  mailer,
  baseURL: origin,
  trustedOrigins: [origin],
  secret: "bench-secret-bench-secret-bench-secret-0000",
  secureCookies: false,
  signInLimit: 100_000,
  signUpLimit: 100_000,
});
let ip = 0;
// A new client address each call, so no limit slows one side down.
const headers = (cookie?: string) => {
  ip += 1;
  return new Headers({
    "x-forwarded-for": `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
    origin,
    ...(cookie ? { cookie } : {}),
  });
};
const password = "a-long-unusual-passphrase";

const existing = "exists@example.com";
await auth.api.signUpEmail({ body: { name: "Exists", email: existing, password }, headers: headers() });
// A confirmed account (only those can sign in); how it got confirmed does not matter here.
await sql`update "user" set email_verified = true where email = ${existing}`;
const signedIn = await auth.api.signInEmail({
  body: { email: existing, password },
  headers: headers(),
  asResponse: true,
});
const cookie = signedIn.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
await auth.api.signUpEmail({
  body: { name: "Other", email: "taken@example.com", password },
  headers: headers(),
});

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run().catch(() => undefined);
  const elapsed = performance.now() - start;
  await mailer.flush();
  return elapsed;
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

let n = 0;
const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  [
    "sign-up",
    () => auth.api.signUpEmail({ body: { name: "X", email: existing, password }, headers: headers() }),
    () =>
      auth.api.signUpEmail({
        body: { name: "X", email: `new-${++n}@example.com`, password },
        headers: headers(),
      }),
  ],
  [
    "sign-in (wrong password)",
    () =>
      auth.api.signInEmail({ body: { email: existing, password: "not-the-password" }, headers: headers() }),
    () =>
      auth.api.signInEmail({
        body: { email: `ghost-${++n}@example.com`, password: "not-the-password" },
        headers: headers(),
      }),
  ],
  [
    "password reset request",
    () => auth.api.requestPasswordReset({ body: { email: existing }, headers: headers() }),
    () => auth.api.requestPasswordReset({ body: { email: `ghost-${++n}@example.com` }, headers: headers() }),
  ],
  [
    "email change",
    () => auth.api.changeEmail({ body: { newEmail: "taken@example.com" }, headers: headers(cookie) }),
    () => auth.api.changeEmail({ body: { newEmail: `free-${++n}@example.com` }, headers: headers(cookie) }),
  ],
];

console.log(`median of ${ROUNDS} calls each (ms)`);
console.log("endpoint                   known    unknown  difference");
// ONLY=reset,email runs the cases whose name contains one of the words.
const only = (process.env.ONLY ?? "").split(",").filter(Boolean);
for (const [name, known, unknown] of cases) {
  if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
  // One warm-up call each (errors are expected answers here).
  await time(known);
  await time(unknown);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(await time(known));
    b.push(await time(unknown));
  }
  const [ma, mb] = [median(a), median(b)];
  console.log(
    `${name.padEnd(26)} ${ma.toFixed(1).padStart(7)}  ${mb.toFixed(1).padStart(7)}  ${(((mb - ma) / Math.max(ma, mb)) * 100).toFixed(0).padStart(5)} %`,
  );
}
await sql.end();
