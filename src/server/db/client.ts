import "server-only";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { APP_POOL_GLOBAL } from "@/core/http/edge-contract";
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
// The server in front of Next.js (src/edge) closes it there after a graceful shutdown.
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
