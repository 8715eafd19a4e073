import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/support/db";
import { appliedSchemaVersion } from "./applied";
import { CODE_MIGRATIONS, latestCodeMigration, schemaVersionLabel } from "./schema-version";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

it("names the last applied migration, what is pending, and a schema newer than the code", async () => {
  const latest = latestCodeMigration();
  const current = await appliedSchemaVersion(t.db);
  expect(current).toMatchObject({ tag: latest.tag, pending: 0, newerThanCode: false });
  expect(schemaVersionLabel(current)).toBe(
    `${latest.tag} (${CODE_MIGRATIONS.length} of ${CODE_MIGRATIONS.length} migrations)`,
  );

  await t.sql`delete from drizzle.__drizzle_migrations where created_at = ${latest.when}`;
  const behind = await appliedSchemaVersion(t.db);
  expect(behind).toMatchObject({ tag: CODE_MIGRATIONS.at(-2)?.tag, pending: 1 });
  expect(schemaVersionLabel(behind)).toMatch(/1 of \d+ migrations pending/);

  await t.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('later', ${latest.when + 1})`;
  const ahead = await appliedSchemaVersion(t.db);
  expect(ahead).toMatchObject({ tag: null, newerThanCode: true });
  expect(schemaVersionLabel(ahead)).toMatch(/^Newer than this code/);

  await t.sql`drop schema drizzle cascade`;
  expect(await appliedSchemaVersion(t.db)).toBeNull();
  expect(schemaVersionLabel(null)).toBe("No migration applied");
});
