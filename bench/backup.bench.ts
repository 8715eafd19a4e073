// Backup size and time, verification time and restore time for a realistic workload, and how many
// writes the instance committed while the backup ran (it must keep serving).
//
//   node scripts/db/run-with-db.mjs --data .test-data/backup-bench --fresh --migrate \
//     npx tsx bench/backup.bench.ts [--orgs 1000]
//
// Per organization: 3 users with an account and a session, 3 memberships, a subscription, 5 paid
// orders with a payment and a signed receipt (a real Ed25519 signature over a ~1 KB payload),
// 20 saved calculations and 5 audit rows. Runs on whatever server DATABASE_URL names; the restore
// goes into a scratch database on the same server, dropped at the end.
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openArchive } from "../src/server/backup/archive";
import { createBackup } from "../src/server/backup/backup";
import { signerOf } from "../src/server/backup/manifest";
import { restoreBackup } from "../src/server/backup/restore";

const flag = process.argv.indexOf("--orgs");
const orgs = Math.min(20_000, Math.max(10, Number(flag > 0 ? process.argv[flag + 1] : 1000)));
const url = process.env.DATABASE_URL;
if (!url) throw new Error("run through scripts/db/run-with-db.mjs");

const pem = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const { signer } = signerOf(pem);
const secrets = { authSecret: randomBytes(32).toString("base64url"), receiptSigningKey: pem };
const sql = postgres(url, { max: 4, onnotice: () => {} });
const time = async <T>(fn: () => Promise<T>) => {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
};

async function workload() {
  await sql`insert into receipt_keys (kid, public_key_pem) values (${signer.kid}, ${"(bench)"})`;
  const key = signerOf(pem).key;
  for (let o = 0; o < orgs; o += 50) {
    const batch = Array.from({ length: Math.min(50, orgs - o) }, (_, i) => o + i);
    await sql.begin(async (tx) => {
      for (const n of batch) {
        const org = `org-${n}`;
        await tx`insert into organization (id, name, slug) values (${org}, ${`Company ${n} GmbH`}, ${`company-${n}`})`;
        for (let u = 0; u < 3; u++) {
          const id = `user-${n}-${u}`;
          await tx`insert into "user" (id, name, email, email_verified) values (${id}, ${`Person ${n}.${u}`}, ${`p${n}.${u}@example.com`}, true)`;
          await tx`insert into account (id, account_id, provider_id, user_id, password) values (${`acc-${id}`}, ${id}, 'credential', ${id}, ${`$scrypt$${randomBytes(48).toString("hex")}`})`;
          await tx`insert into session (id, token, user_id, expires_at, ip_address, user_agent) values (${`s-${id}`}, ${randomBytes(24).toString("base64url")}, ${id}, now() + interval '7 days', '203.0.113.7', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0')`;
          await tx`insert into member (id, organization_id, user_id, role) values (${`m-${id}`}, ${org}, ${id}, ${u === 0 ? "owner" : "member"})`;
        }
        await tx`insert into subscriptions (organization_id, plan, interval, currency, status, current_period_start, current_period_end)
          values (${org}, 'team', 'monthly', 'EUR', 'active', now(), now() + interval '30 days')`;
        for (let k = 0; k < 5; k++) {
          const [order] = await tx<
            { id: string }[]
          >`insert into orders (organization_id, user_id, idempotency_key, plan, interval, currency, subtotal_minor, net_minor, tax_minor, total_minor, tax_rate, tax_treatment, base_price_usd, fx_rate, billing_name, billing_country, status)
            values (${org}, ${`user-${n}-0`}, ${randomBytes(16).toString("hex")}, 'team', 'monthly', 'EUR', 2900, 2900, 551, 3451, '19', 'standard', '29.00', '0.8634', ${`Company ${n} GmbH`}, 'DE', 'paid') returning id`;
          if (!order) throw new Error("no order");
          await tx`insert into payments (order_id, provider, status, amount_minor, currency, card_brand, card_last4) values (${order.id}, 'test', 'succeeded', 3451, 'EUR', 'Visa', '4242')`;
          const payload = JSON.stringify({
            kid: signer.kid,
            number: `R-${n}-${k}`,
            order: order.id,
            lines: "x".repeat(900),
          });
          await tx`insert into receipts (order_id, organization_id, receipt_number, kid, payload, signature) values (${order.id}, ${org}, ${`R-${n}-${k}`}, ${signer.kid}, ${payload}, ${sign(null, Buffer.from(payload), key).toString("base64")})`;
        }
        for (let c = 0; c < 20; c++)
          await tx`insert into saved_calculations (organization_id, user_id, mode, expression, result, precision, rounding, note)
            values (${org}, ${`user-${n}-${c % 3}`}, 'decimal', ${`${c}/7 + 0.1 * ${n}`}, ${`${(c / 7 + 0.1 * n).toFixed(28)}`}, 30, 'half-even', ${`note ${c}`})`;
        for (let a = 0; a < 5; a++)
          await tx`insert into audit_log (actor_id, actor_email, action, target_type, target_id, before, after)
            values (${`user-${n}-0`}, ${`p${n}.0@example.com`}, 'user.set-role', 'user', ${`user-${n}-1`}, ${sql.json({ role: "user" })}, ${sql.json({ role: "admin" })})`;
      }
    });
  }
}

const work = mkdtempSync(path.join(tmpdir(), "abacus-backup-bench-"));
const scratch = `abacus_backup_bench_${process.pid}`;
try {
  const made = await time(workload);
  const [size] = await sql<{ s: string }[]>`select pg_size_pretty(pg_database_size(current_database())) as s`;
  console.log(`workload: ${orgs} organizations in ${(made.ms / 1000).toFixed(1)} s; database ${size?.s}`);

  // Writers keep committing while the backup runs.
  let writes = 0;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      await sql`insert into audit_log (actor_id, actor_email, action, target_type) values ('bench', 'bench@example.com', 'fx.edit', 'fx_rates')`;
      writes += 1;
    }
  })();
  const file = path.join(work, "bench.tar.gz");
  const backup = await time(() => createBackup(sql, { out: file, secrets, appVersion: "bench" }));
  writing = false;
  await writer;
  const rows = backup.value.manifest.tables.reduce((n, t) => n + t.rows, 0);
  const raw = backup.value.manifest.tables.reduce((n, t) => n + t.bytes, 0);
  console.log(
    `backup: ${rows} rows, ${(raw / 1e6).toFixed(1)} MB of COPY data -> ${(backup.value.bytes / 1e6).toFixed(2)} MB archive in ${(backup.ms / 1000).toFixed(2)} s; ${writes} writes committed meanwhile`,
  );
  const verify = await time(async () => (await openArchive(file)).close());
  console.log(`verify: ${(verify.ms / 1000).toFixed(2)} s`);
  await sql.unsafe(`create database ${scratch}`);
  const target = new URL(url);
  target.pathname = `/${scratch}`;
  const restore = await time(() => restoreBackup(target.toString(), file));
  console.log(
    `restore: ${(restore.ms / 1000).toFixed(2)} s (verify, schema, load, foreign keys, migrations)`,
  );
} finally {
  await sql.unsafe(`drop database if exists ${scratch} with (force)`);
  await sql.end();
  rmSync(work, { recursive: true, force: true });
}
