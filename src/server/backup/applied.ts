import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  describeSchemaVersion,
  LAST_MIGRATION_SQL,
  MIGRATIONS_TABLE_SQL,
  type SchemaVersion,
} from "./schema-version";

/** The schema version of the app's database: its last applied migration, read from drizzle's journal table. */
export async function appliedSchemaVersion(db: Db): Promise<SchemaVersion | null> {
  const [exists] = await db.execute<{ exists: boolean }>(sql.raw(MIGRATIONS_TABLE_SQL));
  if (!exists?.exists) return null;
  const [row] = await db.execute<{ when: string }>(sql.raw(LAST_MIGRATION_SQL));
  return describeSchemaVersion(row ? Number(row.when) : null);
}
