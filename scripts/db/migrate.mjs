// Applies the committed SQL migrations in ./drizzle (made by drizzle-kit) to a database.
// Used by run-with-db.mjs before the app or a test run starts; safe to run concurrently
// (drizzle's migrator takes no lock, so we take an advisory lock around it).
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

const MIGRATION_LOCK = 7_362_001;

export async function migrateDatabase(url, folder = path.resolve("drizzle")) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: folder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("migrate: DATABASE_URL is not set (run it through scripts/db/run-with-db.mjs)");
    process.exit(1);
  }
  migrateDatabase(url).then(
    () => console.log("migrations applied"),
    (error) => {
      console.error("migrate:", error.message);
      process.exit(1);
    },
  );
}
