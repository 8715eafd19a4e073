import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { organization, subscriptions, user } from "@/server/db/schema";
import { activeSubscription, createTestDatabase } from "../../../tests/support/db";
import type { SaveCalculationInput } from "./schemas";
import {
  deleteSaved,
  type HistoryActor,
  listSaved,
  restoreSaved,
  saveCalculation,
  streamHistoryCsv,
  UNDO_NOT_YOURS,
} from "./service";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

const calc = (over: Partial<SaveCalculationInput> = {}): SaveCalculationInput => ({
  mode: "decimal",
  expression: "0.1 + 0.2",
  precision: 20,
  rounding: "half-even",
  notation: "plain",
  note: "",
  ...over,
});

const manager = (userId: string): HistoryActor => ({ userId, ownOnly: false });
const memberActor = (userId: string): HistoryActor => ({ userId, ownOnly: true });

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db as unknown as Db;
  await db.insert(user).values([
    { id: "u1", name: "Ada", email: "ada@example.com" },
    { id: "u2", name: "Bob", email: "bob@example.com" },
  ]);
  await db.insert(organization).values([
    { id: "org-a", name: "A", slug: "a" },
    { id: "org-b", name: "B", slug: "b" },
    { id: "org-small", name: "Small", slug: "small" },
  ]);
  await db.insert(subscriptions).values(activeSubscription("org-a", "pro"));
});
afterAll(async () => {
  await t.drop();
});

async function text(stream: ReadableStream<Uint8Array>) {
  return new Response(stream).text();
}

describe("saved calculations", () => {
  it("keeps each organization's history to itself", async () => {
    const a = await saveCalculation(db, "org-a", "u1", calc({ note: "A's secret" }));
    await saveCalculation(db, "org-b", "u2", calc({ note: "B's secret" }));
    if (!a.ok) throw new Error(a.error);
    const listB = await listSaved(db, "org-b", { q: "", page: 1 });
    expect(listB.rows.map((r) => r.note)).toEqual(["B's secret"]);
    expect((await listSaved(db, "org-b", { q: "A's", page: 1 })).total).toBe(0);
    // B cannot delete or restore A's calculation by its id.
    expect(await deleteSaved(db, "org-b", a.data.id, manager("u2"))).toBeNull();
    expect((await listSaved(db, "org-a", { q: "A's", page: 1 })).total).toBe(1);
    const undo = await deleteSaved(db, "org-a", a.data.id, manager("u1"));
    if (!undo) throw new Error("not deleted");
    expect(await restoreSaved(db, "org-b", a.data.id, { ...manager("u1"), undo })).toMatchObject({
      ok: false,
    });
    expect(await restoreSaved(db, "org-a", a.data.id, { ...manager("u1"), undo })).toEqual({
      ok: true,
      data: null,
    });
    // B's export has none of A's rows.
    expect(await text(streamHistoryCsv(db, "org-b"))).not.toContain("A's secret");
  });

  it("lets a member delete only what they saved when asked to", async () => {
    const saved = await saveCalculation(db, "org-a", "u1", calc({ note: "Ada's" }));
    if (!saved.ok) throw new Error(saved.error);
    expect(await deleteSaved(db, "org-a", saved.data.id, memberActor("u2"))).toBeNull();
    expect(await deleteSaved(db, "org-a", saved.data.id, memberActor("u1"))).toEqual(expect.any(String));
  });

  it("lets only whoever deleted a calculation undo it, with the token the delete gave them", async () => {
    const saved = await saveCalculation(db, "org-a", "u2", calc({ note: "Bob's own" }));
    if (!saved.ok) throw new Error(saved.error);
    const id = saved.data.id;
    const visible = async () => (await listSaved(db, "org-a", { q: "Bob's own", page: 1 })).total;
    // An owner (u1) deletes the member's (u2's) calculation: the member cannot bring it back,
    // neither with the owner's token nor with a made-up one, nor with no token at all.
    const ownerUndo = await deleteSaved(db, "org-a", id, manager("u1"));
    if (!ownerUndo) throw new Error("not deleted");
    const forged = `${ownerUndo.split(".")[0]}.${"A".repeat(43)}`;
    for (const undo of [ownerUndo, forged, ""]) {
      expect(await restoreSaved(db, "org-a", id, { ...memberActor("u2"), undo })).toEqual({
        ok: false,
        error: UNDO_NOT_YOURS,
      });
    }
    expect(await visible()).toBe(0);
    // The owner can undo their own delete.
    expect(await restoreSaved(db, "org-a", id, { ...manager("u1"), undo: ownerUndo })).toEqual({
      ok: true,
      data: null,
    });
    expect(await visible()).toBe(1);
    // The member deletes it and undoes that; an old token is spent once the row was restored and
    // deleted again by someone else.
    const memberUndo = await deleteSaved(db, "org-a", id, memberActor("u2"));
    if (!memberUndo) throw new Error("not deleted");
    expect(await restoreSaved(db, "org-a", id, { ...memberActor("u2"), undo: memberUndo })).toMatchObject({
      ok: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await deleteSaved(db, "org-a", id, manager("u1"))).toEqual(expect.any(String));
    expect(await restoreSaved(db, "org-a", id, { ...memberActor("u2"), undo: memberUndo })).toEqual({
      ok: false,
      error: "Nothing to undo.",
    });
    expect(await visible()).toBe(0);
  });

  it("keeps the result the server works out, not the one a client sends", async () => {
    const forged = {
      ...calc({ note: "forged" }),
      result: "0.4",
      currencies: ["XAU"],
    } as SaveCalculationInput;
    const saved = await saveCalculation(db, "org-a", "u1", forged);
    expect(saved).toMatchObject({ ok: true });
    const [row] = (await listSaved(db, "org-a", { q: "forged", page: 1 })).rows;
    expect(row).toMatchObject({ expression: "0.1 + 0.2", result: "0.3", currencies: [] });
    // Its settings count: precision, rounding and notation are the engine's inputs.
    await saveCalculation(
      db,
      "org-a",
      "u1",
      calc({ expression: "2/3", precision: 5, rounding: "down", note: "p5" }),
    );
    await saveCalculation(
      db,
      "org-a",
      "u1",
      calc({ expression: "2/3 * 1e30", notation: "scientific", note: "sci" }),
    );
    expect((await listSaved(db, "org-a", { q: "p5", page: 1 })).rows[0]?.result).toBe("0.66666");
    expect((await listSaved(db, "org-a", { q: "sci", page: 1 })).rows[0]?.result).toMatch(/^6\.6+7e\+29$/);
    // Money and conversions use the instance's exchange rates (the ECB snapshot of the migration).
    await saveCalculation(db, "org-a", "u1", calc({ expression: "12.50 EUR + 1.005 EUR", note: "money" }));
    expect((await listSaved(db, "org-a", { q: "money", page: 1 })).rows[0]).toMatchObject({
      result: "13.50 EUR",
      currencies: ["EUR"],
    });
    const conversion = calc({
      mode: "currency",
      expression: "100 USD in JPY\n100 USD in EUR",
      rounding: "half-even",
      note: "fx",
    });
    await saveCalculation(db, "org-a", "u1", { ...conversion, result: "¥1" } as SaveCalculationInput);
    expect((await listSaved(db, "org-a", { q: "fx", page: 1 })).rows[0]).toMatchObject({
      result: "¥15,664; €86.34",
      currencies: ["USD", "JPY", "EUR"],
    });
  });

  it("refuses to save what it cannot work out on its own, and says why", async () => {
    expect(await saveCalculation(db, "org-a", "u1", calc({ expression: "ans * 2" }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/must work on its own/),
    });
    expect(await saveCalculation(db, "org-a", "u1", calc({ expression: "1/0" }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This expression cannot be saved: Division by zero/),
    });
    expect(
      await saveCalculation(
        db,
        "org-a",
        "u1",
        calc({ mode: "currency", expression: "100 USD in JPY\n5 EUR in GBP" }),
      ),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/one line per target currency/) });
  });

  it("searches and pages on the server", async () => {
    for (let i = 0; i < 23; i++) await saveCalculation(db, "org-a", "u1", calc({ note: `batch ${i}` }));
    const first = await listSaved(db, "org-a", { q: "batch", page: 1 });
    expect(first).toMatchObject({ total: 23, pages: 3, page: 1 });
    expect(first.rows).toHaveLength(10);
    expect(first.rows[0]?.note).toBe("batch 22");
    const last = await listSaved(db, "org-a", { q: "batch", page: 9 });
    expect(last.page).toBe(3);
    expect(last.rows).toHaveLength(3);
    expect((await listSaved(db, "org-a", { q: "100%", page: 1 })).total).toBe(0);
  });

  it("stops at the plan's limit, explains it and offers the upgrade; undo respects it too", async () => {
    // Free keeps 100.
    const results = await Promise.all(
      Array.from({ length: 105 }, (_, i) => saveCalculation(db, "org-small", "u1", calc({ note: `n${i}` }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/Free plan.*Upgrade to Pro/) });
    const first = results.find((r) => r.ok);
    if (!first?.ok) throw new Error("nothing saved");
    const undo = await deleteSaved(db, "org-small", first.data.id, manager("u1"));
    if (!undo) throw new Error("not deleted");
    expect(await saveCalculation(db, "org-small", "u1", calc())).toMatchObject({ ok: true });
    expect(await restoreSaved(db, "org-small", first.data.id, { ...manager("u1"), undo })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Free plan/),
    });
  });

  it("exports every row as CSV with awkward notes quoted and formulas neutralised", async () => {
    const awkward = ["comma, here", 'a "quoted" word', "two\nlines", "=SUM(A1:A9)", "+1", "@cmd", "-2"];
    for (const note of awkward) await saveCalculation(db, "org-b", "u2", calc({ note, expression: "-1/2" }));
    const csv = await text(streamHistoryCsv(db, "org-b"));
    const parsed = Papa.parse<string[]>(csv.trimEnd(), { newline: "\r\n" });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header?.[7]).toBe("note");
    const notes = rows.map((r) => r[7]);
    expect(notes).toEqual(
      expect.arrayContaining([
        "comma, here",
        'a "quoted" word',
        "two\nlines",
        "'=SUM(A1:A9)",
        "'+1",
        "'@cmd",
        "'-2",
      ]),
    );
    expect(rows.every((r) => r[3] === "-0.5" || r[3] === "0.3")).toBe(true);
    expect(rows).toHaveLength(8);
  });

  it("streams a history longer than one batch without losing or repeating a row", async () => {
    // One statement: all 1,100 rows share one created_at, so the keyset must break ties by id.
    await t.sql`insert into saved_calculations (organization_id, user_id, mode, expression, result, precision, rounding, note)
      select 'org-b', 'u2', 'decimal', '1', '1', 20, 'half-even', 'bulk ' || g from generate_series(1, 1100) g`;
    const csv = await text(streamHistoryCsv(db, "org-b"));
    const rows = Papa.parse<string[]>(csv.trimEnd(), { newline: "\r\n" }).data.slice(1);
    const bulk = rows.filter((r) => r[7]?.startsWith("bulk "));
    expect(bulk).toHaveLength(1_100);
    expect(new Set(bulk.map((r) => r[7])).size).toBe(1_100);
  });
});
