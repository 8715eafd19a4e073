import "server-only";
import { and, count, desc, eq, ilike, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { SHEET_ROW_LIMITS } from "@/core/notebook/limits";
import type { Result } from "@/core/result";
import type { Db } from "@/server/db/client";
import { sheets, user } from "@/server/db/schema";
import type { SheetFields } from "../schemas";

import type { SavedSheet, SheetSummary } from "./types";

export type { SavedSheet, SheetSummary };

export const SHEET_CAP_ERROR = `This organization has ${SHEET_ROW_LIMITS.perOrganization} sheets, the most it can keep. Delete some to make room.`;
export const SHEET_GONE_ERROR = "That sheet no longer exists: someone in your organization deleted it.";

/** How long a deleted sheet can still be brought back before it is purged. */
const UNDO_WINDOW = "1 day";

const live = (organizationId: string) =>
  and(eq(sheets.organizationId, organizationId), isNull(sheets.deletedAt));

const summary = {
  id: sheets.id,
  title: sheets.title,
  updatedAt: sheets.updatedAt,
  updatedByName: user.name,
};

/** The organization's sheets, the last edited first; a search matches the title or the text. */
export async function listSheets(db: Db, organizationId: string, q = ""): Promise<SheetSummary[]> {
  const term = q.trim();
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select(summary)
    .from(sheets)
    .leftJoin(user, eq(user.id, sheets.updatedBy))
    .where(
      term
        ? and(live(organizationId), or(ilike(sheets.title, pattern), ilike(sheets.body, pattern)))
        : live(organizationId),
    )
    .orderBy(desc(sheets.updatedAt), desc(sheets.id))
    .limit(SHEET_ROW_LIMITS.listed);
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}

export async function getSheet(db: Db, organizationId: string, id: string): Promise<SavedSheet | null> {
  const [row] = await db
    .select({ ...summary, body: sheets.body, precision: sheets.precision, rounding: sheets.rounding })
    .from(sheets)
    .leftJoin(user, eq(user.id, sheets.updatedBy))
    .where(and(live(organizationId), eq(sheets.id, id)));
  return row ? { ...row, updatedAt: row.updatedAt.toISOString() } : null;
}

async function lockOrganization(tx: Pick<Db, "execute">, organizationId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sheets:${organizationId}`}, 0))`);
}

async function hasRoom(tx: Db, organizationId: string): Promise<boolean> {
  const [row] = await tx.select({ n: count() }).from(sheets).where(live(organizationId));
  return (row?.n ?? 0) < SHEET_ROW_LIMITS.perOrganization;
}

/** A new sheet, within the organization's cap (the lock makes the count and the insert one step). */
export async function createSheet(
  db: Db,
  organizationId: string,
  userId: string,
  fields: SheetFields,
): Promise<Result<SavedSheet>> {
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    if (!(await hasRoom(tx as unknown as Db, organizationId))) return { ok: false, error: SHEET_CAP_ERROR };
    const [row] = await tx
      .insert(sheets)
      .values({ organizationId, ...fields, createdBy: userId, updatedBy: userId })
      .returning({ id: sheets.id, updatedAt: sheets.updatedAt });
    if (!row) return { ok: false, error: "The sheet could not be saved." };
    const [who] = await tx.select({ name: user.name }).from(user).where(eq(user.id, userId));
    return {
      ok: true,
      data: {
        ...fields,
        id: row.id,
        updatedAt: row.updatedAt.toISOString(),
        updatedByName: who?.name ?? null,
      },
    };
  });
}

/** Saves an edit (any member may edit); the last save wins. */
export async function updateSheet(
  db: Db,
  organizationId: string,
  userId: string,
  id: string,
  fields: SheetFields,
): Promise<Result<{ updatedAt: string }>> {
  const [row] = await db
    .update(sheets)
    .set({ ...fields, updatedBy: userId, updatedAt: sql`now()` })
    .where(and(live(organizationId), eq(sheets.id, id)))
    .returning({ updatedAt: sheets.updatedAt });
  if (!row) return { ok: false, error: SHEET_GONE_ERROR };
  return { ok: true, data: { updatedAt: row.updatedAt.toISOString() } };
}

/** Deletes a sheet (undo brings it back for a day); purges sheets deleted before that. */
export async function deleteSheet(db: Db, organizationId: string, id: string): Promise<Result> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sheets)
      .set({ deletedAt: sql`now()` })
      .where(and(live(organizationId), eq(sheets.id, id)))
      .returning({ id: sheets.id });
    await tx
      .delete(sheets)
      .where(
        and(
          eq(sheets.organizationId, organizationId),
          isNotNull(sheets.deletedAt),
          lt(sheets.deletedAt, sql`now() - interval '${sql.raw(UNDO_WINDOW)}'`),
        ),
      );
    return row ? { ok: true, data: undefined } : { ok: false, error: SHEET_GONE_ERROR };
  });
}

/** Undo of a delete, within the cap. */
export async function restoreSheet(db: Db, organizationId: string, id: string): Promise<Result> {
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    if (!(await hasRoom(tx as unknown as Db, organizationId))) return { ok: false, error: SHEET_CAP_ERROR };
    const [row] = await tx
      .update(sheets)
      .set({ deletedAt: null })
      .where(and(eq(sheets.organizationId, organizationId), eq(sheets.id, id), isNotNull(sheets.deletedAt)))
      .returning({ id: sheets.id });
    return row
      ? { ok: true, data: undefined }
      : { ok: false, error: "That sheet can no longer be restored." };
  });
}
