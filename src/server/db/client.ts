import "server-only";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { APP_POOL_GLOBAL, type AppPoolStats } from "@/core/http/edge-contract";
import { getEnv } from "../env";
import * as schema from "./schema";

function connect() {
  const env = getEnv();
  const sql = postgres(env.DATABASE_URL, {
    max: env.DATABASE_POOL_SIZE,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
  });
  const stats: AppPoolStats = { size: env.DATABASE_POOL_SIZE, active: 0, waited: 0 };
  countPoolUse(sql, stats);
  return { sql, db: drizzle(sql, { schema }), stats };
}

/**
 * Counts the pool's use for `/metrics` (postgres.js exposes no pool figures): every query and
 * transaction the app starts through `sql.unsafe` and `sql.begin` (all Drizzle uses) is `active`
 * from its start until it settles. postgres.js gives each query a connection of its own while one
 * is free, so the ones beyond the pool's size are waiting; `waited` counts them as they start.
 */
export function countPoolUse(sql: Sql, stats: AppPoolStats): void {
  const start = () => {
    stats.active++;
    if (stats.active > stats.size) stats.waited++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      stats.active--;
    };
  };
  const unsafe = sql.unsafe;
  // postgres.js's `begin` sends its BEGIN through `sql.unsafe`: the transaction is counted once.
  let beginning = false;
  sql.unsafe = ((...args: Parameters<Sql["unsafe"]>) => {
    const query = unsafe(...args);
    if (beginning) {
      beginning = false;
      return query;
    }
    // A postgres.js query runs when it is first awaited (`then`): counted from then until it settles.
    const then = query.then;
    let counted = false;
    // biome-ignore lint/suspicious/noThenProperty: a postgres.js query is a promise that starts on `then`
    query.then = function (this: typeof query, onFulfilled, onRejected) {
      if (!counted) {
        counted = true;
        const end = start();
        then.call(this, end, end);
      }
      return then.call(this, onFulfilled, onRejected);
    } as typeof query.then;
    return query;
  }) as unknown as Sql["unsafe"];
  const begin = sql.begin;
  sql.begin = ((...args: unknown[]) => {
    const end = start();
    beginning = true;
    try {
      return (begin as (...a: unknown[]) => Promise<unknown>).apply(sql, args).finally(end);
    } finally {
      beginning = false;
    }
  }) as unknown as Sql["begin"];
}

type Connection = ReturnType<typeof connect>;
// One pool per server process, kept across hot reloads in development.
// The server in front of Next.js (src/edge) closes it there after a graceful shutdown, and reads its
// counts for /metrics.
const holder = globalThis as typeof globalThis & { [APP_POOL_GLOBAL]?: Connection };

export function getConnection(): Connection {
  holder[APP_POOL_GLOBAL] ??= connect();
  return holder[APP_POOL_GLOBAL];
}

export function getDb() {
  return getConnection().db;
}

export type Db = Connection["db"];
/** A transaction handle, as passed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
