import "server-only";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
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
  return { sql, db: drizzle(sql, { schema }) };
}

type Connection = ReturnType<typeof connect>;
// One pool per server process, kept across hot reloads in development.
const holder = globalThis as typeof globalThis & { __abacusDb?: Connection };

export function getConnection(): Connection {
  holder.__abacusDb ??= connect();
  return holder.__abacusDb;
}

export function getDb() {
  return getConnection().db;
}

export type Db = Connection["db"];
/** A transaction handle, as passed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
