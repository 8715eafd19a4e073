import { createReadStream } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openArchive } from "./archive";
import { fixOutputSettings, listTables, qualified, quoteIdent, SCHEMAS } from "./backup";
import { BackupError } from "./errors";
import type { InstanceSecrets, Manifest } from "./manifest";
import { CODE_MIGRATIONS, latestCodeMigration, type Migration } from "./schema-version";

// The same advisory lock as the migration script, so a restore never migrates beside a starting app.
const MIGRATION_LOCK = 7_362_001;

const connect = (url: string) => postgres(url, { max: 1, onnotice: () => {} });

/** Applies the migrations of `folder`, up to and including `upTo` when given. */
export async function migrateUpTo(url: string, folder: string, upTo?: Migration): Promise<void> {
  let migrationsFolder = folder;
  let scratch: string | null = null;
  if (upTo) {
    // drizzle applies whatever the journal lists: hand it a journal that ends at `upTo`.
    scratch = await mkdtemp(path.join(tmpdir(), "abacus-migrations-"));
    await cp(folder, scratch, { recursive: true });
    const journalPath = path.join(scratch, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { when: number }[] };
    journal.entries = journal.entries.filter((e) => e.when <= upTo.when);
    await writeFile(journalPath, JSON.stringify(journal));
    migrationsFolder = scratch;
  }
  const sql = connect(url);
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/** Tables that the migrations themselves fill (reference data), which do not make a database "used". */
async function tablesFilledByMigrations(folder: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of await readdir(folder)) {
    if (!file.endsWith(".sql")) continue;
    for (const m of (await readFile(path.join(folder, file), "utf8")).matchAll(/insert\s+into\s+"?(\w+)"?/gi))
      if (m[1]) names.add(m[1]);
  }
  return names;
}

/** The tables that hold rows, ignoring reference data the migrations insert. */
export async function tablesWithData(url: string, folder: string): Promise<string[]> {
  const seeded = await tablesFilledByMigrations(folder);
  const sql = connect(url);
  try {
    const used: string[] = [];
    for (const t of await listTables(sql)) {
      if (t.schema !== "public" || seeded.has(t.name)) continue;
      const [row] = await sql.unsafe<{ any: boolean }[]>(
        `select exists (select 1 from ${qualified(t.schema, t.name)}) as any`,
      );
      if (row?.any) used.push(t.name);
    }
    return used;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function dropAbacusTables(url: string): Promise<void> {
  const sql = connect(url);
  try {
    const tables = await listTables(sql);
    if (tables.length > 0)
      await sql.unsafe(
        `drop table if exists ${tables.map((t) => qualified(t.schema, t.name)).join(", ")} cascade`,
      );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The code migration an archive's schema is at; refuses a schema newer than (or unknown to) this code. */
export function archiveMigration(manifest: Manifest): Migration {
  const latest = latestCodeMigration();
  if (manifest.schema.when > latest.when)
    throw new BackupError(
      `The archive's schema (${manifest.schema.tag ?? "a later migration"}) is newer than this code's (${latest.tag}): restore it with the Abacus release that made it, or a newer one.`,
    );
  const known = CODE_MIGRATIONS.find((m) => m.when === manifest.schema.when);
  if (!known)
    throw new BackupError(
      `The archive's schema (${manifest.schema.tag ?? manifest.schema.when}) is not one of this code's migrations.`,
    );
  return known;
}

async function loadData(url: string, dir: string, manifest: Manifest): Promise<void> {
  const sql = connect(url);
  try {
    await sql.begin(async (tx) => {
      await fixOutputSettings(tx);
      const target = new Map((await listTables(tx)).map((t) => [`${t.schema}.${t.name}`, t]));
      for (const table of manifest.tables) {
        const found = target.get(`${table.schema}.${table.name}`);
        const missing = table.columns.filter((c) => !found?.columns.includes(c));
        if (!found || missing.length > 0)
          throw new BackupError(
            `The schema at ${manifest.schema.tag} has no ${found ? `column ${missing[0]} in ` : ""}table ${table.schema}.${table.name}.`,
          );
      }
      // Foreign keys go while the rows arrive (in any order, cycles and self-references alike) and
      // come back after, which checks every row at once, as pg_restore does.
      const fks = await tx<{ tbl: string; name: string; def: string }[]>`
        select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
        from pg_constraint
        where contype = 'f' and connamespace in (select oid from pg_namespace where nspname in ${tx([...SCHEMAS])})`;
      for (const fk of fks) await tx.unsafe(`alter table ${fk.tbl} drop constraint ${quoteIdent(fk.name)}`);
      await tx.unsafe(`truncate ${manifest.tables.map((t) => qualified(t.schema, t.name)).join(", ")}`);
      for (const table of manifest.tables) {
        const columns = table.columns.map(quoteIdent).join(", ");
        const writable = await tx
          .unsafe(`copy ${qualified(table.schema, table.name)} (${columns}) from stdin`)
          .writable();
        await pipeline(createReadStream(path.join(dir, table.file)), writable);
        const [count] = await tx.unsafe<{ n: string }[]>(
          `select count(*)::text as n from ${qualified(table.schema, table.name)}`,
        );
        if (Number(count?.n) !== table.rows)
          throw new BackupError(
            `Table ${table.schema}.${table.name} restored ${count?.n} rows, not ${table.rows}.`,
          );
      }
      for (const fk of fks)
        await tx.unsafe(`alter table ${fk.tbl} add constraint ${quoteIdent(fk.name)} ${fk.def}`);
      for (const s of manifest.sequences) {
        const name = qualified(s.schema, s.name);
        if (s.lastValue === null)
          await tx.unsafe(
            `select setval('${name.replaceAll("'", "''")}'::regclass, (select min_value from pg_sequences where schemaname = $1 and sequencename = $2), false)`,
            [s.schema, s.name],
          );
        else
          await tx.unsafe(`select setval('${name.replaceAll("'", "''")}'::regclass, $1::bigint, true)`, [
            s.lastValue,
          ]);
      }
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface RestoreOptions {
  /** Replace a database that holds data: every table of the Abacus schemas is dropped first. */
  force?: boolean;
  passphrase?: string;
  expectKid?: string;
  migrationsFolder?: string;
  workDir?: string;
  log?: (message: string) => void;
  /** Called once the archive is verified, before the database is touched; may refuse by throwing. */
  preflight?: (manifest: Manifest, secrets: InstanceSecrets | null) => void | Promise<void>;
}

export interface RestoreResult {
  manifest: Manifest;
  secrets: InstanceSecrets | null;
  /** The schema the archive was at, and the one the database is at now. */
  from: string;
  to: string;
}

/**
 * Restores an archive into the database at `url`: verifies it (signature, hashes, schema not newer
 * than the code), refuses a database that holds data unless `force`, builds the schema the archive
 * was taken at, loads every table in one transaction (all or nothing), then migrates forward.
 */
export async function restoreBackup(
  url: string,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const folder = options.migrationsFolder ?? path.resolve("drizzle");
  const archive = await openArchive(file, options);
  try {
    const { manifest } = archive;
    const at = archiveMigration(manifest);
    await options.preflight?.(manifest, archive.secrets);
    log(
      `archive verified: ${manifest.tables.length} tables, schema ${at.tag}, signed by ${manifest.signer.kid}`,
    );
    const used = await tablesWithData(url, folder);
    if (used.length > 0 && !options.force)
      throw new BackupError(
        `The database already holds data (${used.slice(0, 5).join(", ")}${used.length > 5 ? ", …" : ""}); restore refuses to overwrite it. Restore into an empty database, or pass --force to drop every Abacus table first.`,
      );
    await dropAbacusTables(url);
    await migrateUpTo(url, folder, at);
    await loadData(url, archive.dir, manifest);
    log(`data restored at schema ${at.tag}`);
    await migrateUpTo(url, folder);
    const latest = latestCodeMigration();
    if (latest.when !== at.when) log(`migrated forward from ${at.tag} to ${latest.tag}`);
    return { manifest, secrets: archive.secrets, from: at.tag, to: latest.tag };
  } finally {
    await archive.close();
  }
}
