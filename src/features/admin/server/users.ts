import "server-only";
import { and, asc, count, desc, eq, exists, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { PlatformRole } from "@/core/auth/roles";
import { plural } from "@/core/plural";
import type { Result } from "@/core/result";
import { type AuditActor, writeAudit } from "@/server/audit";
import { NO_USER_ERROR, SELF_ERROR, userLabel } from "@/server/auth/impersonation";
import type { Db, Tx } from "@/server/db/client";
import { member, organization, session, user } from "@/server/db/schema";

/**
 * User management for platform admins: the list behind /admin/users and every change an admin can
 * make to an account. Each change re-checks the acting admin inside its transaction, enforces the
 * self and last-admin rules there (with the admin rows locked, so two admins acting at once cannot
 * leave the instance without one) and writes its audit row in the same transaction.
 */

export const USER_SORTS = ["created", "name", "email", "role"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export { PLATFORM_ROLES as PLATFORM_ROLE_VALUES } from "@/core/auth/roles";
export type PlatformRoleValue = PlatformRole;

export type UserQuery = {
  q?: string;
  role?: PlatformRoleValue;
  banned?: boolean;
  org?: string;
  sort: UserSort;
  dir: "asc" | "desc";
  page: number;
  pageSize: number;
};

export type AdminUserRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  createdAt: string;
  organizations: string[];
  sessions: number;
};

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listUsers(db: Db, query: UserQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
  const where: SQL[] = [];
  if (query.q) {
    const text = or(ilike(user.name, escapeLike(query.q)), ilike(user.email, escapeLike(query.q)));
    if (text) where.push(text);
  }
  if (query.role) where.push(eq(user.role, query.role));
  if (query.banned !== undefined) where.push(eq(user.banned, query.banned));
  if (query.org)
    where.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(member)
          .where(and(eq(member.userId, user.id), eq(member.organizationId, query.org))),
      ),
    );
  const filter = where.length ? and(...where) : undefined;
  const column = { created: user.createdAt, name: user.name, email: user.email, role: user.role }[query.sort];
  const order = query.dir === "asc" ? asc(column) : desc(column);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        banned: user.banned,
        banReason: user.banReason,
        banExpires: user.banExpires,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(filter)
      .orderBy(order, asc(user.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(user).where(filter),
  ]);
  const ids = rows.map((r) => r.id);
  const [orgs, sessions] = ids.length
    ? await Promise.all([
        db
          .select({ userId: member.userId, name: organization.name })
          .from(member)
          .innerJoin(organization, eq(organization.id, member.organizationId))
          .where(inArray(member.userId, ids))
          .orderBy(asc(organization.name)),
        db
          .select({ userId: session.userId, n: count() })
          .from(session)
          .where(and(inArray(session.userId, ids), sql`${session.expiresAt} > now()`))
          .groupBy(session.userId),
      ])
    : [[], []];
  return {
    total: totalRow?.n ?? 0,
    rows: rows.map((r) => ({
      ...r,
      banExpires: r.banExpires?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      organizations: orgs.filter((o) => o.userId === r.id).map((o) => o.name),
      sessions: sessions.find((s) => s.userId === r.id)?.n ?? 0,
    })),
  };
}

/** Organizations to filter by (the first 500 by name). */
export async function listOrganizationChoices(db: Db) {
  return db
    .select({ id: organization.id, name: organization.name })
    .from(organization)
    .orderBy(asc(organization.name))
    .limit(500);
}

export type AdminOutcome = Result;

type Target = typeof user.$inferSelect;

export { NO_USER_ERROR, SELF_ERROR };
export const LAST_ADMIN_ERROR = "This is the last admin: make someone else an admin first.";
export const NOT_ADMIN_ERROR = "Not found.";

/**
 * Runs `change` for `targetId` in a transaction that holds every admin row locked, after checking the
 * actor is still an admin and, for changes that take an admin away (`removesAdmin`), that the target
 * is not the actor and not the last active admin.
 */
async function withTarget(
  db: Db,
  actor: AuditActor,
  targetId: string,
  rules: { selfAllowed: boolean; removesAdmin: (target: Target) => boolean },
  change: (tx: Tx, target: Target) => Promise<AdminOutcome>,
): Promise<AdminOutcome> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: user.id, banned: user.banned })
      .from(user)
      .where(eq(user.role, "admin"))
      .orderBy(asc(user.id))
      .for("update");
    if (!admins.some((a) => a.id === actor.id && !a.banned) || actor.impersonatedBy)
      return { ok: false, error: NOT_ADMIN_ERROR };
    const [target] = await tx.select().from(user).where(eq(user.id, targetId)).for("update");
    if (!target) return { ok: false, error: NO_USER_ERROR };
    if (!rules.selfAllowed && target.id === actor.id) return { ok: false, error: SELF_ERROR };
    if (rules.removesAdmin(target)) {
      if (target.id === actor.id) return { ok: false, error: SELF_ERROR };
      const others = admins.filter((a) => !a.banned && a.id !== target.id);
      if (others.length === 0) return { ok: false, error: LAST_ADMIN_ERROR };
    }
    return change(tx, target);
  });
}

const isActiveAdmin = (t: Target) => t.role === "admin" && !t.banned;
const label = userLabel;

export async function setUserRole(
  db: Db,
  actor: AuditActor,
  targetId: string,
  role: PlatformRoleValue,
): Promise<AdminOutcome> {
  return withTarget(
    db,
    actor,
    targetId,
    { selfAllowed: false, removesAdmin: (t) => isActiveAdmin(t) && role !== "admin" },
    async (tx, target) => {
      if (target.role === role)
        return { ok: true, data: undefined, message: `${target.name} is already ${article(role)}.` };
      await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, target.id));
      await writeAudit(tx, actor, {
        action: "user.set-role",
        targetType: "user",
        targetId: target.id,
        targetLabel: label(target),
        before: { role: target.role },
        after: { role },
      });
      return { ok: true, data: undefined, message: `${target.name} is now ${article(role)}.` };
    },
  );
}

const article = (role: string) => (role === "admin" ? "an admin" : "a user");

export async function banUser(
  db: Db,
  actor: AuditActor,
  targetId: string,
  input: { reason: string; expiresAt: Date | null },
): Promise<AdminOutcome> {
  return withTarget(
    db,
    actor,
    targetId,
    { selfAllowed: false, removesAdmin: isActiveAdmin },
    async (tx, target) => {
      await tx
        .update(user)
        .set({ banned: true, banReason: input.reason, banExpires: input.expiresAt, updatedAt: new Date() })
        .where(eq(user.id, target.id));
      // A ban ends every session at once, impersonations of the user included.
      const ended = await tx
        .delete(session)
        .where(eq(session.userId, target.id))
        .returning({ id: session.id });
      await writeAudit(tx, actor, {
        action: "user.ban",
        targetType: "user",
        targetId: target.id,
        targetLabel: label(target),
        before: { banned: target.banned, banReason: target.banReason, banExpires: target.banExpires },
        after: {
          banned: true,
          banReason: input.reason,
          banExpires: input.expiresAt?.toISOString() ?? null,
          sessionsEnded: ended.length,
        },
      });
      return { ok: true, data: undefined, message: `${target.name} is banned and signed out everywhere.` };
    },
  );
}

export async function unbanUser(db: Db, actor: AuditActor, targetId: string): Promise<AdminOutcome> {
  return withTarget(
    db,
    actor,
    targetId,
    { selfAllowed: false, removesAdmin: () => false },
    async (tx, target) => {
      if (!target.banned) return { ok: true, data: undefined, message: `${target.name} is not banned.` };
      await tx
        .update(user)
        .set({ banned: false, banReason: null, banExpires: null, updatedAt: new Date() })
        .where(eq(user.id, target.id));
      await writeAudit(tx, actor, {
        action: "user.unban",
        targetType: "user",
        targetId: target.id,
        targetLabel: label(target),
        before: { banned: true, banReason: target.banReason, banExpires: target.banExpires },
        after: { banned: false },
      });
      return { ok: true, data: undefined, message: `${target.name} can sign in again.` };
    },
  );
}

/** Ends every session of a user (an admin may end their own: they are signed out too). */
export async function revokeUserSessions(db: Db, actor: AuditActor, targetId: string): Promise<AdminOutcome> {
  return withTarget(
    db,
    actor,
    targetId,
    { selfAllowed: true, removesAdmin: () => false },
    async (tx, target) => {
      const ended = await tx
        .delete(session)
        .where(eq(session.userId, target.id))
        .returning({ id: session.id });
      await writeAudit(tx, actor, {
        action: "user.revoke-sessions",
        targetType: "user",
        targetId: target.id,
        targetLabel: label(target),
        before: { sessions: ended.length },
        after: { sessions: 0 },
      });
      return {
        ok: true,
        data: undefined,
        message: `Ended ${plural(ended.length, "session")} of ${target.name}.`,
      };
    },
  );
}

/** Deletes an account; `confirmEmail` must repeat the account's email exactly. */
export async function deleteUser(
  db: Db,
  actor: AuditActor,
  targetId: string,
  confirmEmail: string,
): Promise<AdminOutcome> {
  return withTarget(
    db,
    actor,
    targetId,
    { selfAllowed: false, removesAdmin: isActiveAdmin },
    async (tx, target) => {
      if (confirmEmail.trim().toLowerCase() !== target.email.toLowerCase())
        return { ok: false, error: `Type ${target.email} to confirm.` };
      const memberships = await tx
        .select({ org: member.organizationId, role: member.role })
        .from(member)
        .where(eq(member.userId, target.id));
      // Sessions, accounts and memberships go with the user (foreign keys cascade).
      await tx.delete(user).where(eq(user.id, target.id));
      await writeAudit(tx, actor, {
        action: "user.delete",
        targetType: "user",
        targetId: target.id,
        targetLabel: label(target),
        before: { name: target.name, email: target.email, role: target.role, memberships },
        after: null,
      });
      return { ok: true, data: undefined, message: `${target.name}'s account is deleted.` };
    },
  );
}

export async function userEmail(db: Db, id: string): Promise<string | null> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, id));
  return row?.email ?? null;
}
