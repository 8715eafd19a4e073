import journal from "../../../drizzle/meta/_journal.json";

/**
 * The schema version of a database is the last drizzle migration applied to it (drizzle records
 * each applied migration's journal timestamp in `drizzle.__drizzle_migrations`). The code's own
 * migrations are the journal built into it.
 */
export interface Migration {
  index: number;
  tag: string;
  /** The journal's `when`: what drizzle stores as `created_at` and orders migrations by. */
  when: number;
}

export const CODE_MIGRATIONS: readonly Migration[] = journal.entries.map((e) => ({
  index: e.idx,
  tag: e.tag,
  when: e.when,
}));

export function latestCodeMigration(): Migration {
  const last = CODE_MIGRATIONS.at(-1);
  if (!last) throw new Error("The code has no migrations");
  return last;
}

export interface SchemaVersion {
  /** The journal tag, or null when the database is ahead of this code (a migration it does not know). */
  tag: string | null;
  index: number | null;
  when: number;
  /** Migrations of this code not yet applied. */
  pending: number;
  newerThanCode: boolean;
}

/** Describes the last applied migration's timestamp (null: none applied). */
export function describeSchemaVersion(when: number | null): SchemaVersion | null {
  if (when === null) return null;
  const known = CODE_MIGRATIONS.find((m) => m.when === when);
  const newerThanCode = when > latestCodeMigration().when;
  return {
    tag: known?.tag ?? null,
    index: known?.index ?? null,
    when,
    pending: CODE_MIGRATIONS.filter((m) => m.when > when).length,
    newerThanCode,
  };
}

/** For people: `0008_dashboard`, with what is pending or unknown. */
export function schemaVersionLabel(version: SchemaVersion | null): string {
  if (!version) return "No migration applied";
  if (!version.tag)
    return version.newerThanCode
      ? `Newer than this code (migration of ${new Date(version.when).toISOString()})`
      : `Unknown migration of ${new Date(version.when).toISOString()}`;
  const total = CODE_MIGRATIONS.length;
  const applied = (version.index ?? 0) + 1;
  return version.pending === 0
    ? `${version.tag} (${applied} of ${total} migrations)`
    : `${version.tag} (${version.pending} of ${total} migrations pending)`;
}

/** SQL that reads the last applied migration's timestamp; no row when drizzle never ran. */
export const LAST_MIGRATION_SQL = `select created_at::text as "when" from drizzle.__drizzle_migrations order by created_at desc limit 1`;

export const MIGRATIONS_TABLE_SQL = `select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`;
