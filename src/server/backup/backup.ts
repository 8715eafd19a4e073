import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";
import { create as createTar } from "tar";
import { BackupError } from "./errors";
import {
  FORMAT,
  type InstanceSecrets,
  MANIFEST,
  type Manifest,
  manifestBytes,
  SECRETS_PLAIN,
  SECRETS_SEALED,
  type SequenceEntry,
  SIGNATURE,
  signerOf,
  signManifest,
  type TableEntry,
  tableFile,
} from "./manifest";
import { CODE_MIGRATIONS, LAST_MIGRATION_SQL, MIGRATIONS_TABLE_SQL } from "./schema-version";
import { seal } from "./seal";

type Sql = postgres.Sql | postgres.TransactionSql;

/** The schemas an Abacus database uses: the app's tables and drizzle's migration journal. */
export const SCHEMAS = ["public", "drizzle"] as const;

// COPY's text output depends on these settings; both ends fix them so a round trip is exact.
export async function fixOutputSettings(tx: Sql): Promise<void> {
  await tx.unsafe(
    "set local datestyle = 'ISO, MDY'; set local timezone = 'UTC'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3; set local bytea_output = 'hex'",
  );
}

export interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
  primaryKey: string[];
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (schema: string, name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;

/** Every ordinary table of the Abacus schemas, with its stored (not generated) columns. */
export async function listTables(tx: Sql): Promise<TableInfo[]> {
  const rows = await tx<{ schema: string; name: string; columns: string[]; pk: string[] | null }[]>`
    select n.nspname as schema, c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      (select array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, ord)
                    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.ord)
       from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ${tx([...SCHEMAS])}
    order by n.nspname, c.relname`;
  return rows.map((r) => ({ schema: r.schema, name: r.name, columns: r.columns, primaryKey: r.pk ?? [] }));
}

/** The last applied migration's timestamp, or null when drizzle never ran on this database. */
export async function lastMigration(tx: Sql): Promise<number | null> {
  const [exists] = await tx.unsafe<{ exists: boolean }[]>(MIGRATIONS_TABLE_SQL);
  if (!exists?.exists) return null;
  const [row] = await tx.unsafe<{ when: string }[]>(LAST_MIGRATION_SQL);
  return row ? Number(row.when) : null;
}

/** Streams through, hashing and counting lines (one per row in COPY text format). */
function digestStream() {
  const hash = createHash("sha256");
  const state = { bytes: 0, rows: 0 };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      state.bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) state.rows += 1;
      done(null, chunk);
    },
  });
  return { transform, result: () => ({ ...state, sha256: hash.digest("hex") }) };
}

/**
 * Rows in primary-key order (every column when there is none), so two backups of the same data
 * are byte for byte the same.
 */
function copyOutQuery(t: TableInfo): string {
  const cols = t.columns.map(quoteIdent).join(", ");
  const order = (t.primaryKey.length > 0 ? t.primaryKey : t.columns).map((c) => `${quoteIdent(c)}::text`);
  return `copy (select ${cols} from ${qualified(t.schema, t.name)} order by ${order.join(", ")}) to stdout`;
}

export interface BackupOptions {
  out: string;
  secrets: InstanceSecrets;
  passphrase?: string;
  appVersion: string;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
}

/**
 * Writes a backup archive of the database behind `sql`: one REPEATABLE READ READ ONLY transaction
 * (a consistent snapshot; the instance keeps serving, writers are not blocked), COPY … TO STDOUT
 * per table, then a gzip'd tar of the manifest (signed with the instance's Ed25519 receipt key),
 * the table data and the instance secrets. The archive appears under `out` only when complete.
 */
export async function createBackup(sql: postgres.Sql, options: BackupOptions): Promise<BackupResult> {
  const out = path.resolve(options.out);
  const { key, signer } = signerOf(options.secrets.receiptSigningKey);
  const work = await mkdtemp(path.join(path.dirname(out), ".abacus-backup-"));
  const partial = `${out}.partial-${process.pid}`;
  try {
    await mkdir(path.join(work, "tables"), { mode: 0o700 });
    const snapshot = await sql.begin("isolation level repeatable read read only", async (tx) => {
      await fixOutputSettings(tx);
      const [version] = await tx<{ v: string }[]>`select current_setting('server_version') as v`;
      const when = await lastMigration(tx);
      if (when === null) throw new BackupError("The database has no applied migrations: nothing to back up.");
      const tables: TableEntry[] = [];
      for (const t of await listTables(tx)) {
        if (!/^[a-z_][a-z0-9_]*$/.test(t.name))
          throw new BackupError(`Table ${t.schema}.${t.name} has a name this format cannot carry.`);
        const file = tableFile(t.schema, t.name);
        const digest = digestStream();
        const readable = await tx.unsafe(copyOutQuery(t)).readable();
        await pipeline(readable, digest.transform, createWriteStream(path.join(work, file), { mode: 0o600 }));
        // postgres.js pauses the socket when a COPY chunk fills the stream's buffer; if the copy's
        // end arrived in that same chunk the socket stays paused and the connection never reads
        // again (a known bug, open upstream): the next statement hangs. The stream's own read
        // hook resumes the socket, so call it once the copy is complete.
        readable._read(0);
        tables.push({ schema: t.schema, name: t.name, file, columns: t.columns, ...digest.result() });
      }
      // After the snapshot is taken: a sequence read now is at or past every value the data holds.
      const sequences = await tx<SequenceEntry[]>`
        select schemaname as schema, sequencename as name, last_value::text as "lastValue"
        from pg_sequences where schemaname in ${tx([...SCHEMAS])} order by schemaname, sequencename`;
      return { serverVersion: version?.v ?? "unknown", when, tables, sequences: [...sequences] };
    });

    const plain = Buffer.from(JSON.stringify(options.secrets));
    const secretsFile = options.passphrase ? SECRETS_SEALED : SECRETS_PLAIN;
    const secretsBytes = options.passphrase
      ? Buffer.from(JSON.stringify(seal(plain, options.passphrase)))
      : plain;
    await writeFile(path.join(work, secretsFile), secretsBytes, { mode: 0o600 });

    const tag = CODE_MIGRATIONS.find((m) => m.when === snapshot.when)?.tag ?? null;
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      app: { version: options.appVersion },
      database: { serverVersion: snapshot.serverVersion },
      schema: { tag, when: snapshot.when },
      tables: snapshot.tables,
      sequences: snapshot.sequences,
      secrets: {
        file: secretsFile,
        encrypted: Boolean(options.passphrase),
        bytes: secretsBytes.length,
        sha256: createHash("sha256").update(secretsBytes).digest("hex"),
      },
      signer,
    };
    const bytes = manifestBytes(manifest);
    await writeFile(path.join(work, MANIFEST), bytes);
    await writeFile(path.join(work, SIGNATURE), `${signManifest(bytes, key)}\n`);

    await createTar({ file: partial, cwd: work, gzip: true, portable: true }, [
      MANIFEST,
      SIGNATURE,
      secretsFile,
      ...manifest.tables.map((t) => t.file),
    ]);
    await chmod(partial, 0o600);
    await rename(partial, out);
    return { file: out, bytes: (await stat(out)).size, manifest };
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}
