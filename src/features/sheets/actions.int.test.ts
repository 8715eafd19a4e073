import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHEET_ROW_LIMITS } from "@/core/notebook/limits";
import type { ActionEnvironment, ServerAction } from "@/server/action";
import { createAuth } from "@/server/auth/auth";
import { member, organization, session, sheets } from "@/server/db/schema";
import { confirmedSession } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import * as sheetActions from "./actions";
import type { SavedSheet, SheetSummary } from "./server/types";

// The actions run for real: a real Better Auth session in the request's cookie, a real database,
// the membership re-read by the action wrapper on every call.

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3999";
const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};

async function signUp(key: string) {
  const account = await confirmedSession(auth, t.db, key);
  ids[key] = account.id;
  cookies[key] = account.cookie;
}

async function activate(key: string, organizationId: string | null) {
  await t.db
    .update(session)
    .set({ activeOrganizationId: organizationId })
    .where(eq(session.userId, ids[key] ?? ""));
}

const environment = (key: string | null): ActionEnvironment => ({
  db: t.db,
  auth,
  headers: new Headers({ origin, ...(key ? { cookie: cookies[key] ?? "" } : {}) }),
  setCookies: async () => {},
});

const byName = new Map(Object.entries(sheetActions));

/** The sheet actions, run as `key` (null: signed out). */
function as(key: string | null) {
  const run = (name: keyof typeof sheetActions) => (input: unknown) =>
    (byName.get(name) as ServerAction<unknown>).using(environment(key))(input);
  return {
    list: (q = "") =>
      run("listSheetsAction")({ q }) as Promise<{ ok: boolean; data?: SheetSummary[]; error?: string }>,
    open: (id: string) =>
      run("openSheetAction")({ id }) as Promise<{ ok: boolean; data?: SavedSheet; error?: string }>,
    create: (input: unknown) =>
      run("createSheetAction")(input) as Promise<{
        ok: boolean;
        data?: SavedSheet;
        error?: string;
        fieldErrors?: Record<string, string>;
      }>,
    update: (input: unknown) =>
      run("updateSheetAction")(input) as Promise<{
        ok: boolean;
        error?: string;
        fieldErrors?: Record<string, string>;
      }>,
    remove: (id: string) => run("deleteSheetAction")({ id }) as Promise<{ ok: boolean; error?: string }>,
    restore: (id: string) => run("restoreSheetAction")({ id }) as Promise<{ ok: boolean; error?: string }>,
  };
}

const fields = (over: Record<string, unknown> = {}) => ({
  title: "Budget",
  body: "# Budget\nrent = 1,250 EUR\nfood = 420 EUR\nsubtotal",
  precision: 20,
  rounding: "half-even",
  ...over,
});

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createAuth(t.db, {
    baseURL: origin,
    trustedOrigins: [origin],
    secret: "integration-test-secret-integration-test-secret",
    secureCookies: false,
    signInLimit: 1000,
    signUpLimit: 1000,
  });
  for (const key of ["ada", "bob", "eve", "cap"]) await signUp(key);
  await t.db.insert(organization).values([
    { id: "org-a", name: "A", slug: "a" },
    { id: "org-b", name: "B", slug: "b" },
    { id: "org-cap", name: "Cap", slug: "cap" },
  ]);
  await t.db.insert(member).values([
    { id: "m1", organizationId: "org-a", userId: ids.ada ?? "", role: "owner" },
    { id: "m2", organizationId: "org-a", userId: ids.bob ?? "", role: "member" },
    { id: "m3", organizationId: "org-b", userId: ids.eve ?? "", role: "owner" },
    { id: "m4", organizationId: "org-cap", userId: ids.cap ?? "", role: "owner" },
  ]);
  await activate("ada", "org-a");
  await activate("bob", "org-a");
  await activate("eve", "org-b");
  await activate("cap", "org-cap");
});
afterAll(async () => {
  await t.drop();
});

describe("sheet actions", () => {
  it("saves a sheet that every member of the organization reads and edits", async () => {
    const created = await as("ada").create(fields());
    expect(created.ok).toBe(true);
    const id = created.data?.id ?? "";
    expect(created.data?.updatedByName).toBe("ada");

    const seen = await as("bob").open(id);
    expect(seen.data?.body).toBe(fields().body);
    expect(seen.data?.updatedByName).toBe("ada");

    expect((await as("bob").update({ id, ...fields({ body: "1 + 1", rounding: "down" }) })).ok).toBe(true);
    const after = await as("ada").open(id);
    expect(after.data).toMatchObject({
      body: "1 + 1",
      rounding: "down",
      updatedByName: "bob",
      title: "Budget",
    });
    const [row] = await t.db.select().from(sheets).where(eq(sheets.id, id));
    expect(row?.createdBy).toBe(ids.ada);
    expect(row?.updatedBy).toBe(ids.bob);
  });

  it("refuses non-members, other organizations and the signed out, and leaves the sheet alone", async () => {
    const created = await as("ada").create(fields({ title: "A's secret" }));
    const id = created.data?.id ?? "";
    expect((await as("eve").open(id)).ok).toBe(false);
    expect((await as("eve").update({ id, ...fields({ body: "hacked" }) })).ok).toBe(false);
    expect((await as("eve").remove(id)).ok).toBe(false);
    expect((await as("eve").list()).data?.some((s) => s.id === id)).toBe(false);
    expect((await as("eve").list("secret")).data).toEqual([]);
    const signedOut = await as(null).open(id);
    expect(signedOut).toMatchObject({ ok: false, error: expect.stringContaining("Sign in") });
    // a member whose active organization is another one sees that one's sheets only
    await activate("bob", null);
    expect((await as("bob").open(id)).ok).toBe(false);
    await activate("bob", "org-a");
    expect((await as("ada").open(id)).data?.body).toBe(fields().body);
  });

  it("refuses a removed member at once", async () => {
    const id = (await as("ada").create(fields({ title: "Before" }))).data?.id ?? "";
    await t.db.delete(member).where(eq(member.id, "m2"));
    expect((await as("bob").open(id)).ok).toBe(false);
    expect((await as("bob").update({ id, ...fields({ body: "x" }) })).ok).toBe(false);
    await t.db
      .insert(member)
      .values({ id: "m2", organizationId: "org-a", userId: ids.bob ?? "", role: "member" });
    expect((await as("bob").open(id)).ok).toBe(true);
  });

  it("validates title, body size, precision and rounding, and writes nothing when invalid", async () => {
    const before = (await t.db.select().from(sheets)).length;
    const long = await as("ada").create(fields({ title: "x".repeat(SHEET_ROW_LIMITS.titleChars + 1) }));
    expect(long.ok).toBe(false);
    expect(long.fieldErrors?.title).toContain("200");
    // multi-byte characters: under the cap in characters, over it in bytes
    const big = await as("ada").create(fields({ body: "€".repeat(SHEET_ROW_LIMITS.bodyBytes / 3 + 1) }));
    expect(big.fieldErrors?.body).toContain("64 KB");
    expect((await as("ada").create(fields({ precision: 0 }))).fieldErrors?.precision).toBeDefined();
    expect((await as("ada").create(fields({ rounding: "sideways" }))).fieldErrors?.rounding).toBeDefined();
    expect((await as("ada").update({ id: "not-a-uuid", ...fields() })).fieldErrors?.id).toBeDefined();
    expect((await t.db.select().from(sheets)).length).toBe(before);
    // exactly at the byte cap is accepted (the database's CHECK agrees with the schema)
    const edge = await as("ada").create(fields({ body: "a".repeat(SHEET_ROW_LIMITS.bodyBytes) }));
    expect(edge.ok).toBe(true);
    await as("ada").remove(edge.data?.id ?? "");
  });

  it("lists the last edited first and searches titles and text", async () => {
    const a = (await as("ada").create(fields({ title: "Trip to Lisbon", body: "hotel = 3 * 120 EUR" }))).data
      ?.id;
    const b = (await as("ada").create(fields({ title: "Quote 100%_done", body: "taxi" }))).data?.id;
    const list = (await as("bob").list()).data ?? [];
    expect(list[0]?.id).toBe(b);
    expect(list[1]?.id).toBe(a);
    expect((await as("bob").list("lisbon")).data?.map((s) => s.id)).toEqual([a]);
    expect((await as("bob").list("HOTEL")).data?.map((s) => s.id)).toEqual([a]);
    // % and _ are matched literally
    expect((await as("bob").list("100%_")).data?.map((s) => s.id)).toEqual([b]);
    expect((await as("bob").list("0%x")).data).toEqual([]);
    expect((await as("bob").list("q".repeat(101))).ok).toBe(false);
  });

  it("deletes with undo, by any member", async () => {
    const id = (await as("ada").create(fields({ title: "Undo me" }))).data?.id ?? "";
    expect((await as("bob").remove(id)).ok).toBe(true);
    expect((await as("ada").open(id)).ok).toBe(false);
    expect((await as("ada").list()).data?.some((s) => s.id === id)).toBe(false);
    expect((await as("ada").update({ id, ...fields() })).ok).toBe(false);
    expect((await as("eve").restore(id)).ok).toBe(false);
    expect((await as("bob").restore(id)).ok).toBe(true);
    expect((await as("ada").open(id)).data?.title).toBe("Undo me");
    expect((await as("ada").restore(id)).ok).toBe(false);
  });

  it("purges sheets deleted more than a day ago on the next delete", async () => {
    const old = (await as("ada").create(fields({ title: "Old" }))).data?.id ?? "";
    await as("ada").remove(old);
    await t.db
      .update(sheets)
      .set({ deletedAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(sheets.id, old));
    const other = (await as("ada").create(fields({ title: "Other" }))).data?.id ?? "";
    await as("ada").remove(other);
    expect(await t.db.select().from(sheets).where(eq(sheets.id, old))).toEqual([]);
    expect((await as("ada").restore(old)).ok).toBe(false);
    expect((await as("ada").restore(other)).ok).toBe(true);
  });

  it("caps the sheets per organization with a clear message, deleted ones not counting", async () => {
    await t.db.insert(sheets).values(
      Array.from({ length: SHEET_ROW_LIMITS.perOrganization - 1 }, (_, i) => ({
        organizationId: "org-cap",
        title: `s${i}`,
        precision: 20,
        rounding: "half-even" as const,
      })),
    );
    const last = await as("cap").create(fields());
    expect(last.ok).toBe(true);
    const over = await as("cap").create(fields());
    expect(over).toMatchObject({ ok: false, error: expect.stringContaining("500 sheets") });
    expect((await as("cap").remove(last.data?.id ?? "")).ok).toBe(true);
    expect((await as("cap").create(fields())).ok).toBe(true);
    // the deleted one cannot come back while the organization is full
    expect((await as("cap").restore(last.data?.id ?? "")).error).toContain("500 sheets");
    // the list stays bounded
    expect((await as("cap").list()).data?.length).toBe(SHEET_ROW_LIMITS.listed);
  });
});
