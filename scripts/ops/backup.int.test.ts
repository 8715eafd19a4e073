import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { create as createTar, extract } from "tar";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { verifyReceipt } from "@/core/receipts/receipt";
import { processCheckout } from "@/features/billing/server/checkout";
import {
  loadSigningKey,
  publishedKeys,
  rotateReceiptKey,
  toReceiptKeys,
} from "@/features/billing/server/receipt-keys";
import { saveCalculation } from "@/features/history/service";
import { writeAudit } from "@/server/audit";
import { openArchive } from "@/server/backup/archive";
import { createBackup, listTables, qualified, quoteIdent } from "@/server/backup/backup";
import type { InstanceSecrets } from "@/server/backup/manifest";
import { migrateUpTo, restoreBackup } from "@/server/backup/restore";
import { CODE_MIGRATIONS, latestCodeMigration } from "@/server/backup/schema-version";
import * as schema from "@/server/db/schema";
import { createTestProvider } from "@/server/payments/test-provider";
import { client, createTestAuth, signUp } from "../../tests/support/auth";
import { activeSubscription, createTestDatabase } from "../../tests/support/db";

const run = promisify(execFile);
const base = process.env.DATABASE_URL ?? "";
let source: Awaited<ReturnType<typeof createTestDatabase>>;
let work: string;
let secrets: InstanceSecrets;
let archive: string;
const databases: string[] = [];

/** An empty database (no schema at all), as on a new machine; dropped after the file. */
async function emptyDatabase() {
  const parentPid = inject("templateDatabase").split("_").pop();
  const name = `abacus_test_${parentPid}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Every table's rows, in key order, as PostgreSQL's own JSON: what must survive a round trip. */
async function contents(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const out: Record<string, string> = {};
    for (const t of await listTables(sql)) {
      const order = (t.primaryKey.length ? t.primaryKey : t.columns).map((c) => `x.${quoteIdent(c)}::text`);
      const [row] = await sql.unsafe<{ rows: string }[]>(
        `select coalesce(jsonb_agg(to_jsonb(x) order by ${order.join(", ")})::text, '[]') as rows from ${qualified(t.schema, t.name)} x`,
      );
      out[`${t.schema}.${t.name}`] = row?.rows ?? "";
    }
    const sequences = await sql<{ name: string; v: string | null }[]>`
      select schemaname || '.' || sequencename as name, last_value::text as v from pg_sequences
      where schemaname in ('public', 'drizzle') order by 1`;
    for (const s of sequences) out[`sequence ${s.name}`] = String(s.v);
    return out;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function count(url: string, table: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${quoteIdent(table)}`);
  await sql.end();
  return row?.n ?? 0;
}

/** A realistic workload through the product's own code: accounts, organizations, checkout, history, audit. */
async function workload() {
  const db = source.db;
  const auth = createTestAuth(db);
  const rates = null;
  for (let i = 1; i <= 3; i++) {
    const owner = await signUp(auth, db, `owner${i}@example.com`, { ip: `10.7.0.${i}`, name: `Owner ${i}` });
    const org = (await auth.api.createOrganization({
      headers: client(`10.7.0.${i}`, owner.cookie),
      body: { name: `Backup Org ${i}`, slug: `backup-org-${i}` },
    })) as { id: string; name: string };
    await db.insert(schema.subscriptions).values(activeSubscription(org.id, "pro"));
    const checked = checkCard(
      { number: "4242424242424242", expiry: "12/30", cvc: "123" },
      new Date("2026-11-23"),
    );
    if (!checked.ok) throw new Error("test card refused");
    const outcome = await processCheckout(db, createTestProvider(), rates, {
      organization: { id: org.id, name: org.name },
      userId: owner.id,
      idempotencyKey: crypto.randomUUID(),
      plan: "team",
      interval: "monthly",
      currency: "USD",
      billing: { name: `Buyer ${i} "quoted"\ttab\\slash`, country: "DE", vatId: null },
      card: checked.card,
    });
    expect(outcome).toMatchObject({ status: "paid" });
    for (const expression of ["0.1 + 0.2", "1/3 * 3", `${i}e-30 + 7`]) {
      const saved = await saveCalculation(db, org.id, owner.id, {
        mode: "decimal",
        expression,
        precision: 30,
        rounding: "half-even",
        notation: "plain",
        note: `line one\nline two ü ${i}`,
      });
      expect(saved.ok).toBe(true);
    }
    await writeAudit(
      db,
      { id: owner.id, email: `owner${i}@example.com` },
      {
        action: "user.ban",
        targetType: "user",
        targetId: owner.id,
        targetLabel: `owner${i}@example.com`,
        before: { banned: false },
        after: { banned: true, reason: 'a "quoted" reason' },
      },
    );
  }
}

beforeAll(async () => {
  source = await createTestDatabase();
  work = mkdtempSync(path.join(tmpdir(), "abacus-backup-test-"));
  const key = loadSigningKey();
  secrets = {
    authSecret: randomBytes(32).toString("base64url"),
    receiptSigningKey: key.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  };
  await workload();
  archive = path.join(work, "instance.tar.gz");
  await createBackup(source.sql, { out: archive, secrets, appVersion: "test" });
}, 120_000);

afterAll(async () => {
  await source?.drop();
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  for (const name of databases) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(work, { recursive: true, force: true });
});

describe("backup and restore", () => {
  let restored: string;

  it("round-trips every table's rows and sequences into an empty database", async () => {
    const before = await contents(source.url);
    for (const table of ["user", "organization", "orders", "receipts", "saved_calculations", "audit_log"])
      expect(await count(source.url, table), table).toBeGreaterThan(0);
    restored = await emptyDatabase();
    const result = await restoreBackup(restored, archive);
    expect(result).toMatchObject({ from: latestCodeMigration().tag, to: latestCodeMigration().tag });
    expect(result.secrets).toEqual(secrets);
    const after = await contents(restored);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) expect(after[name], name).toBe(before[name]);
  });

  it("verifies a receipt issued before the backup against the restored instance's published keys", async () => {
    const sql = postgres(restored, { max: 2, onnotice: () => {} });
    const db = drizzle(sql, { schema });
    try {
      const [receipt] = await db.select().from(schema.receipts).limit(1);
      if (!receipt) throw new Error("no receipt restored");
      expect(
        verifyReceipt(receipt.payload, receipt.signature, toReceiptKeys(await publishedKeys(db))),
      ).toMatchObject({
        valid: true,
        kid: receipt.kid,
      });
      // Also once the restored instance signs with a key of its own (a new machine, a new key).
      await rotateReceiptKey(db);
      const keys = toReceiptKeys(await publishedKeys(db));
      expect(keys.length).toBe(2);
      expect(verifyReceipt(receipt.payload, receipt.signature, keys)).toMatchObject({ valid: true });
    } finally {
      await sql.end();
    }
  });

  it("refuses to restore into a database that holds data, unless forced", async () => {
    const target = await emptyDatabase();
    await migrateUpTo(target, path.resolve("drizzle"));
    const sql = postgres(target, { max: 1, onnotice: () => {} });
    await sql`insert into "user" (id, name, email) values ('someone', 'Someone', 'someone@example.com')`;
    await sql.end();
    await expect(restoreBackup(target, archive)).rejects.toThrow(/already holds data \(user\)/);
    expect(await count(target, "user")).toBe(1);
    await restoreBackup(target, archive, { force: true });
    expect(await contents(target)).toEqual(await contents(source.url));
  });

  it("restores into a database that was only migrated (reference data is not data)", async () => {
    const target = await emptyDatabase();
    await migrateUpTo(target, path.resolve("drizzle"));
    await restoreBackup(target, archive);
    expect(await count(target, "orders")).toBe(await count(source.url, "orders"));
  });
});

describe("while the instance serves", () => {
  it("takes consistent snapshots, one after another, while writers keep committing", async () => {
    const busy = await createTestDatabase();
    const writer = postgres(busy.url, { max: 2, onnotice: () => {} });
    let writing = true;
    let commits = 0;
    // Each commit writes two rows: a consistent snapshot holds an even number of them.
    const loop = (async () => {
      while (writing) {
        await writer.begin(async (tx) => {
          for (const half of ["first", "second"])
            await tx`insert into audit_log (actor_id, actor_email, action, target_type, target_label)
                     values ('writer', 'writer@example.com', 'fx.edit', 'fx_rates', ${half})`;
        });
        commits += 1;
      }
    })();
    try {
      for (let i = 0; i < 8; i++) {
        const made = await Promise.race([
          createBackup(busy.sql, { out: path.join(work, `busy-${i}.tar.gz`), secrets, appVersion: "t" }),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`backup ${i} hung (${commits} commits so far)`)), 20_000),
          ),
        ]);
        const audit = made.manifest.tables.find((t) => t.name === "audit_log");
        expect(audit?.rows ?? 1).toSatisfy((n: number) => n % 2 === 0);
      }
      expect(commits).toBeGreaterThan(0);
    } finally {
      writing = false;
      await loop;
      await writer.end();
      await busy.drop();
    }
  }, 240_000);
});

describe("refusals", () => {
  it("refuses an archive with one byte changed, anywhere", async () => {
    const bytes = readFileSync(archive);
    const unpacked = gunzipSync(bytes);
    // A few bits of a deflate stream mean nothing (an unused code length, the last byte's padding):
    // flipped, the archive unpacks to the very same bytes, so it says nothing else. Each place tried
    // moves on to the next byte until the flip changes what the archive holds (or breaks it).
    const flipped = (at: number) => {
      const tampered = Buffer.from(bytes);
      tampered[at] = (tampered[at] ?? 0) ^ 0x01;
      return tampered;
    };
    const changesContent = (tampered: Buffer) => {
      try {
        return !gunzipSync(tampered).equals(unpacked);
      } catch {
        return true;
      }
    };
    for (const start of [20, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 12]) {
      let at = start;
      while (!changesContent(flipped(at))) at += 1;
      const tampered = flipped(at);
      const file = path.join(work, `tampered-${at}.tar.gz`);
      writeFileSync(file, tampered);
      await expect(openArchive(file), `byte ${at}`).rejects.toThrow(/damaged|changed/);
    }
  });

  /** Unpacks the archive, changes one byte of one member, packs it again as a valid gzip'd tar. */
  async function repacked(member: string, change: (data: Buffer) => void) {
    const dir = mkdtempSync(path.join(work, "repack-"));
    await extract({ file: archive, cwd: dir });
    const data = readFileSync(path.join(dir, member));
    change(data);
    writeFileSync(path.join(dir, member), data);
    const file = path.join(work, `repacked-${randomBytes(4).toString("hex")}.tar.gz`);
    const opened = await openArchive(archive);
    await opened.close();
    const { manifest } = opened;
    await createTar({ file, cwd: dir, gzip: true }, [
      "manifest.json",
      "manifest.sig",
      manifest.secrets.file,
      ...manifest.tables.map((t) => t.file),
    ]);
    return file;
  }

  it("refuses table data changed by one byte inside an otherwise valid archive", async () => {
    const file = await repacked("tables/public.orders.copy", (data) => {
      const at = data.indexOf("USD");
      data[at] = "E".charCodeAt(0);
    });
    await expect(openArchive(file)).rejects.toThrow(/Table public\.orders does not match the manifest/);
    await expect(restoreBackup(await emptyDatabase(), file)).rejects.toThrow(/does not match the manifest/);
  });

  it("refuses a manifest changed by one byte (its signature no longer verifies)", async () => {
    const file = await repacked("manifest.json", (data) => {
      const at = data.indexOf('"rows":') + 7;
      data[at] = data[at] === 0x31 ? 0x32 : 0x31;
    });
    await expect(openArchive(file)).rejects.toThrow(/signature does not verify/);
  });

  it("refuses an archive not signed by the expected key", async () => {
    await expect(openArchive(archive, { expectKid: "not-this-instance" })).rejects.toThrow(
      /not by the expected/,
    );
  });

  it("refuses an archive whose schema is newer than the code", async () => {
    const future = await createTestDatabase();
    try {
      await future.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', ${latestCodeMigration().when + 1000})`;
      const file = path.join(work, "future.tar.gz");
      await createBackup(future.sql, { out: file, secrets, appVersion: "future" });
      const target = await emptyDatabase();
      await expect(restoreBackup(target, file)).rejects.toThrow(/newer than this code/);
      expect(await contents(target)).toEqual({});
    } finally {
      await future.drop();
    }
  });
});

describe("schema versions and secrets", () => {
  it("migrates an archive of an older schema forward after restoring it", async () => {
    const older = CODE_MIGRATIONS.at(-2);
    if (!older) throw new Error("needs two migrations");
    const old = await emptyDatabase();
    await migrateUpTo(old, path.resolve("drizzle"), older);
    const sql = postgres(old, { max: 1, onnotice: () => {} });
    await sql`insert into "user" (id, name, email) values ('early', 'Early Bird', 'early@example.com')`;
    const file = path.join(work, "older.tar.gz");
    const made = await createBackup(sql, { out: file, secrets, appVersion: "old" });
    await sql.end();
    expect(made.manifest.schema.tag).toBe(older.tag);
    const target = await emptyDatabase();
    const result = await restoreBackup(target, file);
    expect(result).toMatchObject({ from: older.tag, to: latestCodeMigration().tag });
    expect(await count(target, "user")).toBe(1);
    const check = postgres(target, { max: 1, onnotice: () => {} });
    const [last] = await check<
      { when: string }[]
    >`select max(created_at)::text as when from drizzle.__drizzle_migrations`;
    await check.end();
    expect(Number(last?.when)).toBe(latestCodeMigration().when);
  });

  it("seals the secrets with a passphrase: unreadable without it, refused with a wrong one", async () => {
    const file = path.join(work, "sealed.tar.gz");
    await createBackup(source.sql, {
      out: file,
      secrets,
      passphrase: "correct horse battery staple",
      appVersion: "t",
    });
    expect(readFileSync(file).includes(Buffer.from(secrets.authSecret))).toBe(false);
    const closed = await openArchive(file);
    expect(closed.secrets).toBeNull();
    await closed.close();
    await expect(openArchive(file, { passphrase: "wrong horse battery staple" })).rejects.toThrow(
      /Wrong passphrase/,
    );
    const opened = await openArchive(file, { passphrase: "correct horse battery staple" });
    expect(opened.secrets).toEqual(secrets);
    await opened.close();
  });

  it("runs as the npm scripts do, against DATABASE_URL, with the secrets handed back as an env file", async () => {
    const tsx = path.resolve("node_modules/.bin/tsx");
    const env = {
      ...process.env,
      DATABASE_URL: source.url,
      DATABASE_MODE: "external",
      ABACUS_DATA_DIR: "",
      AUTH_SECRET: secrets.authSecret,
      RECEIPT_SIGNING_KEY: secrets.receiptSigningKey.replaceAll("\n", "\\n"),
    };
    const file = path.join(work, "cli.tar.gz");
    const made = await run(tsx, ["scripts/ops/backup.ts", "backup", "--out", file], { env });
    expect(made.stdout).toMatch(/backup: .*cli\.tar\.gz: \d+ tables, \d+ rows, schema \d{4}_\w+/);
    const verified = await run(tsx, ["scripts/ops/backup.ts", "verify", file], { env });
    expect(verified.stdout).toMatch(/signature and \d+ table hashes good/);
    const target = await emptyDatabase();
    const envFile = path.join(work, "restored.env");
    await run(tsx, ["scripts/ops/backup.ts", "restore", file, "--secrets-out", envFile], {
      env: { ...env, DATABASE_URL: target },
    });
    expect(await contents(target)).toEqual(await contents(source.url));
    expect(readFileSync(envFile, "utf8")).toContain(`AUTH_SECRET=${secrets.authSecret}\n`);
    const again = run(tsx, ["scripts/ops/backup.ts", "restore", file], {
      env: { ...env, DATABASE_URL: target },
    });
    await expect(again).rejects.toMatchObject({ stderr: expect.stringMatching(/already holds data/) });
  });
});
