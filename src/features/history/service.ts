import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import { hasRoom, planOf, upgradeFor } from "@/core/billing/plans";
import { type HistoryCsvRow, historyCsv } from "@/core/history/csv";
import { recomputeSaved } from "@/core/history/recompute";
import type { Db } from "@/server/db/client";
import { savedCalculations, user } from "@/server/db/schema";
import { loadRatesOrNull } from "@/server/fx";
import { organizationPlan } from "@/server/plan-limits";
import { getSecrets } from "@/server/secrets";
import { SAVE_LIMITS } from "./limits";
import { HISTORY_PAGE_SIZE, type SaveCalculationInput } from "./schemas";

type Result<T> = { ok: true; data: T } | { ok: false; error: string };

export function savedLimitMessage(planId: string): string {
  const plan = planOf(planId);
  const next = upgradeFor(
    plan.id,
    (limits) =>
      limits.savedCalculations === null || limits.savedCalculations > (plan.limits.savedCalculations ?? 0),
  );
  const limit = plan.limits.savedCalculations ?? 0;
  return `This organization has saved ${limit.toLocaleString("en-US")} calculations, the most the ${plan.name} plan keeps.${next ? ` Upgrade to ${next.name} on the pricing page to keep more, or delete some on the dashboard.` : " Delete some on the dashboard."}`;
}

const live = (organizationId: string) =>
  and(eq(savedCalculations.organizationId, organizationId), isNull(savedCalculations.deletedAt));

export async function countSaved(db: Db, organizationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(savedCalculations).where(live(organizationId));
  return row?.n ?? 0;
}

/**
 * Saves a calculation to an organization's history within its plan's limit. The result kept is the
 * one the server works out from the expression and its settings (the engine's time budget bounds
 * it), never one the client sent. An advisory lock on the organization makes the check and the
 * insert one step, so concurrent saves cannot pass it.
 */
export async function saveCalculation(
  db: Db,
  organizationId: string,
  userId: string,
  input: SaveCalculationInput,
): Promise<Result<{ id: string }>> {
  const { notation, ...definition } = input;
  const computed = recomputeSaved({ ...definition, notation }, await loadRatesOrNull(db), {
    resultChars: SAVE_LIMITS.result,
    currencies: SAVE_LIMITS.currencies,
  });
  if (!computed.ok) return computed;
  const values = { ...definition, result: computed.result, currencies: computed.currencies };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`saved:${organizationId}`}, 0))`);
    const planId = await organizationPlan(tx, organizationId);
    const [row] = await tx.select({ n: count() }).from(savedCalculations).where(live(organizationId));
    if (!hasRoom(planOf(planId).limits.savedCalculations, row?.n ?? 0)) {
      return { ok: false, error: savedLimitMessage(planId) };
    }
    const [saved] = await tx
      .insert(savedCalculations)
      .values({ organizationId, userId, ...values })
      .returning({ id: savedCalculations.id });
    if (!saved) return { ok: false, error: "The calculation could not be saved." };
    return { ok: true, data: { id: saved.id } };
  });
}

export type SavedCalculation = {
  id: string;
  mode: "decimal" | "currency";
  expression: string;
  result: string;
  precision: number;
  rounding: string;
  currencies: string[];
  note: string;
  createdAt: Date;
  savedBy: string;
  savedById: string | null;
};

function search(q: string) {
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(savedCalculations.expression, pattern),
    ilike(savedCalculations.result, pattern),
    ilike(savedCalculations.note, pattern),
  );
}

/** One page of an organization's history, newest first, filtered on the server. */
export async function listSaved(
  db: Db,
  organizationId: string,
  query: { q: string; page: number },
): Promise<{ rows: SavedCalculation[]; total: number; page: number; pages: number }> {
  const where = and(live(organizationId), search(query.q));
  const [totalRow] = await db.select({ n: count() }).from(savedCalculations).where(where);
  const total = totalRow?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const rows = await db
    .select({
      id: savedCalculations.id,
      mode: savedCalculations.mode,
      expression: savedCalculations.expression,
      result: savedCalculations.result,
      precision: savedCalculations.precision,
      rounding: savedCalculations.rounding,
      currencies: savedCalculations.currencies,
      note: savedCalculations.note,
      createdAt: savedCalculations.createdAt,
      savedBy: sql<string>`coalesce(${user.name}, '')`,
      savedById: savedCalculations.userId,
    })
    .from(savedCalculations)
    .leftJoin(user, eq(user.id, savedCalculations.userId))
    .where(where)
    .orderBy(desc(savedCalculations.createdAt), desc(savedCalculations.id))
    .limit(HISTORY_PAGE_SIZE)
    .offset((page - 1) * HISTORY_PAGE_SIZE);
  return { rows, total, page, pages };
}

/** Who deletes or restores: members act only on the calculations they saved, owners and admins on any. */
export type HistoryActor = { userId: string; ownOnly: boolean };

// The undo of a delete is a token handed to whoever deleted, bound to them, the calculation and the
// instant of that delete: nobody else can undo it, and it stops working once the row is restored or
// deleted again by someone else.
function undoMac(organizationId: string, id: string, userId: string, deletedAtMs: number): Buffer {
  return createHmac("sha256", getSecrets().authSecret)
    .update(["history-undo", organizationId, id, userId, String(deletedAtMs)].join("\0"))
    .digest();
}

function undoToken(organizationId: string, id: string, userId: string, deletedAt: Date): string {
  const ms = deletedAt.getTime();
  return `${ms}.${undoMac(organizationId, id, userId, ms).toString("base64url")}`;
}

/** The instant of the delete a token undoes, when the token is this user's for this calculation. */
function undoneDelete(organizationId: string, id: string, userId: string, token: string): Date | null {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const ms = Number(match[1]);
  const given = Buffer.from(match[2] ?? "", "base64url");
  const expected = undoMac(organizationId, id, userId, ms);
  return given.length === expected.length && timingSafeEqual(given, expected) ? new Date(ms) : null;
}

/**
 * Deletes (recoverably) one calculation of this organization, as `by` may: members only the ones
 * they saved, owners and admins any. Answers the undo token for `by`, or null when nothing was deleted.
 */
export async function deleteSaved(
  db: Db,
  organizationId: string,
  id: string,
  by: HistoryActor,
): Promise<string | null> {
  const deletedAt = new Date();
  const rows = await db
    .update(savedCalculations)
    .set({ deletedAt })
    .where(
      and(
        eq(savedCalculations.id, id),
        live(organizationId),
        by.ownOnly ? eq(savedCalculations.userId, by.userId) : undefined,
      ),
    )
    .returning({ id: savedCalculations.id });
  return rows.length === 1 ? undoToken(organizationId, id, by.userId, deletedAt) : null;
}

export const UNDO_NOT_YOURS = "Only whoever deleted this calculation can undo that.";

/**
 * Undoes a delete: only with the token that delete gave, only by the one it was given to, and only
 * while they may still delete the calculation. Within the plan's limit (another save may have taken
 * the place meanwhile).
 */
export async function restoreSaved(
  db: Db,
  organizationId: string,
  id: string,
  by: HistoryActor & { undo: string },
): Promise<Result<null>> {
  const deletedAt = undoneDelete(organizationId, id, by.userId, by.undo);
  if (!deletedAt) return { ok: false, error: UNDO_NOT_YOURS };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`saved:${organizationId}`}, 0))`);
    const planId = await organizationPlan(tx, organizationId);
    const [row] = await tx.select({ n: count() }).from(savedCalculations).where(live(organizationId));
    if (!hasRoom(planOf(planId).limits.savedCalculations, row?.n ?? 0)) {
      return { ok: false, error: savedLimitMessage(planId) };
    }
    const restored = await tx
      .update(savedCalculations)
      .set({ deletedAt: null })
      .where(
        and(
          eq(savedCalculations.id, id),
          eq(savedCalculations.organizationId, organizationId),
          eq(savedCalculations.deletedAt, deletedAt),
          by.ownOnly ? eq(savedCalculations.userId, by.userId) : undefined,
        ),
      )
      .returning({ id: savedCalculations.id });
    return restored.length === 1 ? { ok: true, data: null } : { ok: false, error: "Nothing to undo." };
  });
}

const EXPORT_BATCH = 500;

/**
 * The whole history as CSV, streamed: rows are read in batches of 500 by keyset (created_at, id),
 * so memory stays flat however long the history is.
 */
export function streamHistoryCsv(db: Db, organizationId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // The cursor is the last row's id; comparing against its stored timestamp keeps PostgreSQL's
  // microseconds (a JavaScript Date would round them to milliseconds).
  let cursor: string | null = null;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const after = cursor
        ? sql`(${savedCalculations.createdAt}, ${savedCalculations.id}) < (select c.created_at, c.id from ${savedCalculations} c where c.id = ${cursor})`
        : undefined;
      const rows = await db
        .select({
          id: savedCalculations.id,
          createdAt: savedCalculations.createdAt,
          mode: savedCalculations.mode,
          expression: savedCalculations.expression,
          result: savedCalculations.result,
          precision: savedCalculations.precision,
          rounding: savedCalculations.rounding,
          currencies: savedCalculations.currencies,
          note: savedCalculations.note,
          savedBy: sql<string>`coalesce(${user.name}, '')`,
        })
        .from(savedCalculations)
        .leftJoin(user, eq(user.id, savedCalculations.userId))
        .where(and(live(organizationId), after))
        .orderBy(desc(savedCalculations.createdAt), desc(savedCalculations.id))
        .limit(EXPORT_BATCH);
      const csvRows: HistoryCsvRow[] = rows.map((r) => ({ ...r, savedAt: r.createdAt }));
      const text = historyCsv(csvRows, first);
      first = false;
      if (text) controller.enqueue(encoder.encode(text));
      const last = rows.at(-1);
      if (rows.length < EXPORT_BATCH || !last) controller.close();
      else cursor = last.id;
    },
  });
}
