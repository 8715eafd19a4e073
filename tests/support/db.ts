import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { inject } from "vitest";
import * as schema from "@/server/db/schema";

/** A fresh database cloned from the migrated template, for one integration test file. */
export async function createTestDatabase() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set: run the tests with `npm run test:unit`.");
  const template = inject("templateDatabase");
  const parentPid = template.split("_").pop();
  const name = `abacus_test_${parentPid}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 5, onnotice: () => {} });
  const db = drizzle(sql, { schema });
  return {
    db,
    sql,
    url: url.toString(),
    async drop() {
      await sql.end({ timeout: 5 });
      const cleanup = postgres(base, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A subscription row that puts an organization on a paid plan for the next 30 days. */
export function activeSubscription(organizationId: string, plan: "pro" | "team") {
  const now = Date.now();
  return {
    organizationId,
    plan,
    interval: "monthly" as const,
    currency: "USD",
    status: "active" as const,
    currentPeriodStart: new Date(now),
    currentPeriodEnd: new Date(now + 30 * 86_400_000),
  };
}
