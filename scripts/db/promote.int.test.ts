import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/db";

const run = promisify(execFile);
let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
  await t.sql`insert into "user" (id, name, email, email_verified)
    values ('u-promote', 'Pat Promote', 'pat@example.com', true), ('u-other', 'Olly Other', 'olly@example.com', true)`;
});
afterAll(async () => {
  await t.drop();
});

/** Runs a command against this file's database; resolves with its exit code and output. */
async function exec(command: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(command, args, {
      env: { ...process.env, DATABASE_URL: t.url },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function roleOf(email: string) {
  const [row] = await t.sql<{ role: string }[]>`select role from "user" where email = ${email}`;
  return row?.role;
}

describe("npm run user:promote", () => {
  it("makes the named user, and only them, a platform admin (email matched case-insensitively)", async () => {
    expect(await roleOf("pat@example.com")).toBe("user");
    const result = await exec("npm", ["run", "--silent", "user:promote", "--", "  PAT@Example.com "]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("pat@example.com is now a platform admin.");
    expect(await roleOf("pat@example.com")).toBe("admin");
    expect(await roleOf("olly@example.com")).toBe("user");
  });

  it("fails with exit code 1 and a hint for an unknown email, changing nothing", async () => {
    const result = await exec("node", ["scripts/db/promote.mjs", "nobody@example.com"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No user with the email nobody@example.com");
    expect(await roleOf("olly@example.com")).toBe("user");
  });

  it("fails with usage (exit code 2) without an email", async () => {
    const result = await exec("node", ["scripts/db/promote.mjs"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage: npm run user:promote -- <email>");
  });
});
