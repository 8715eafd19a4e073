import "server-only";
import { getTableColumns, type SQL, type SQLChunk, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "@/server/db/client";

type Row<T extends PgTable> = T["$inferInsert"];
type Key<T extends PgTable> = keyof T["_"]["columns"] & string;

/**
 * A PostgreSQL array literal of text elements (`{"a","b\\"c",NULL}`: quotes and backslashes
 * escaped), sent as one text parameter that the statement casts to the column's array type
 * (postgres.js would not send a JavaScript array without knowing its type).
 */
export function arrayLiteral(values: readonly (string | null)[]): string {
  const element = (v: string | null) => (v === null ? "NULL" : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return `{${values.map(element).join(",")}}`;
}

/**
 * The statement that inserts many rows into `table` with one array parameter per column
 * (`insert … select * from unnest($1::uuid[], $2::text[], …)`): its text does not grow with the
 * rows, so building it costs the same for 1 row or 100 (a `values (…), (…)` list costs a chunk per
 * value). `keys` are the columns given, each row's values mapped as the column maps them; `extra`
 * adds columns whose value is one SQL expression for every row (`now()`). `suffix` follows the
 * select (`on conflict …`).
 */
export function unnestInsert<T extends PgTable>(
  table: T,
  rows: readonly Row<T>[],
  keys: readonly Key<T>[],
  options: { extra?: Record<string, SQL>; suffix?: SQL } = {},
): SQL {
  const columns = getTableColumns(table);
  const names: SQLChunk[] = [];
  const arrays: SQL[] = [];
  for (const key of keys) {
    const column = columns[key];
    if (!column) throw new Error(`No column ${key}`);
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === null || value === undefined) return null;
      const mapped = column.mapToDriverValue(value);
      if (mapped instanceof Date) return mapped.toISOString();
      return typeof mapped === "string" ? mapped : String(mapped);
    });
    names.push(sql.identifier(column.name));
    arrays.push(sql`${arrayLiteral(values)}::${sql.raw(column.getSQLType())}[]`);
  }
  const extra = Object.entries(options.extra ?? {});
  for (const [name] of extra) names.push(sql.identifier(name));
  const selected =
    extra.length > 0
      ? sql`u.*, ${sql.join(
          extra.map(([, value]) => value),
          sql`, `,
        )}`
      : sql`u.*`;
  return sql`insert into ${table} (${sql.join(names, sql`, `)})
    select ${selected} from unnest(${sql.join(arrays, sql`, `)}) as u ${options.suffix ?? sql``}`;
}

/** Inserts the rows with `unnestInsert`, in the caller's transaction. */
export async function insertMany<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: readonly Row<T>[],
  keys: readonly Key<T>[],
  options: { extra?: Record<string, SQL>; suffix?: SQL } = {},
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(unnestInsert(table, rows, keys, options));
}
