import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organization } from "@/server/db/schema";
import { createTestDatabase } from "../../../../tests/support/db";
import { arrayLiteral, insertMany } from "./bulk";

let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("insertMany (one array parameter per column)", () => {
  it("writes every text exactly as given: quotes, backslashes, braces, commas, NULL, empty, newlines", async () => {
    const names = [
      'Müller "Quoted" GmbH',
      "back\\slash \\\\ double",
      "{braces}, commas, (parens)",
      "NULL",
      "",
      "line one\nline two\ttab",
      "trailing backslash \\",
      "emoji 🧾 and ' apostrophe",
    ];
    const rows = names.map((name, i) => ({ id: `bulk-${i}`, name, slug: `bulk-${i}` }));
    await t.db.transaction((tx) => insertMany(tx, organization, rows, ["id", "name", "slug"]));
    const read = await t.db
      .select({ id: organization.id, name: organization.name })
      .from(organization)
      .where(
        inArray(
          organization.id,
          rows.map((r) => r.id),
        ),
      );
    const byId = new Map(read.map((r) => [r.id, r.name]));
    expect(rows.map((r) => byId.get(r.id))).toEqual(names);
  });

  it("sends null as NULL, and a string that reads NULL as that string", () => {
    expect(arrayLiteral(["NULL", null, 'a"b', "c\\d"])).toBe('{"NULL",NULL,"a\\"b","c\\\\d"}');
  });
});
