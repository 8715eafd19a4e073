import "server-only";
import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db } from "./db/client";
import { auditLog } from "./db/schema";

/** Everything an admin can do, each written to the audit log. */
export const AUDIT_ACTIONS = [
  "user.set-role",
  "user.ban",
  "user.unban",
  "user.revoke-sessions",
  "user.delete",
  "user.impersonate",
  "user.stop-impersonating",
  "fx.edit",
  "fx.import",
  "contact.set-handled",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor = { id: string; email: string; impersonatedBy?: string | null };

export type AuditEntry = {
  action: AuditAction;
  targetType: "user" | "fx_rates" | "contact_message";
  targetId?: string | null;
  targetLabel?: string | null;
  before?: unknown;
  after?: unknown;
};

type Tx = Pick<Db, "insert">;

/** Writes one audit row; call it in the same transaction as the change it records. */
export async function writeAudit(tx: Tx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    impersonatedBy: actor.impersonatedBy ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    targetLabel: entry.targetLabel ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export type AuditQuery = { action?: AuditAction; q?: string; page: number; pageSize: number };

export type AuditRow = {
  id: string;
  at: string;
  actorEmail: string;
  action: string;
  targetLabel: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
};

/** The audit log, newest first, filtered by action and by a text in the actor or the target. */
export async function listAuditLog(db: Db, query: AuditQuery): Promise<{ rows: AuditRow[]; total: number }> {
  const where: SQL[] = [];
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const text = or(
      ilike(auditLog.actorEmail, like),
      ilike(auditLog.targetLabel, like),
      eq(auditLog.targetId, query.q),
    );
    if (text) where.push(text);
  }
  const filter = where.length ? and(...where) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(filter)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(auditLog).where(filter),
  ]);
  return {
    total: totalRow?.n ?? 0,
    rows: rows.map((r) => ({
      id: r.id.toString(),
      at: r.at.toISOString(),
      actorEmail: r.actorEmail,
      action: r.action,
      targetLabel: r.targetLabel,
      targetId: r.targetId,
      before: r.before,
      after: r.after,
    })),
  };
}
