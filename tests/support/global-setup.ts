import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../scripts/db/migrate.mjs";

/**
 * One migrated template database per test run; each integration test file clones it
 * (`CREATE DATABASE … TEMPLATE …`, see ./db.ts). Runs against whatever DATABASE_URL names:
 * the embedded server that `npm run test:unit` starts, or an external PostgreSQL.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: run the tests with `npm run test:unit`.");
  const template = `abacus_template_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  await migrateDatabase(templateUrl.toString(), path.resolve("drizzle"));
  project.provide("templateDatabase", template);

  return async () => {
    // Drop the clones and the template made by this run.
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`abacus_test_${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers)
      await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
