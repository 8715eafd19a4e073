import "server-only";
import { APIError } from "better-auth/api";
import { and, asc, eq, ne, notExists } from "drizzle-orm";
import type { Db } from "../db/client";
import { member, organization, user } from "../db/schema";

/**
 * What must hold before an account deletes itself (Better Auth's `user.deleteUser.beforeDelete`,
 * which both the profile page's action and `POST /api/auth/delete-user` run after the password
 * check):
 *
 * - no organization may be left without an owner: memberships go with the account (foreign keys
 *   cascade), so the sole owner of an organization must first make someone else an owner or delete
 *   the organization;
 * - the instance may not be left without a platform admin (an active one: not banned), the rule the
 *   admin screens already apply to role changes, bans and deletions.
 */
export const ACCOUNT_DELETION_REFUSED = "ACCOUNT_DELETION_REFUSED";

const MAX_NAMED = 3;

function listOf(names: string[]): string {
  const shown = names.slice(0, MAX_NAMED).map((n) => `“${n}”`);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
}

/** Why this account may not be deleted now, or null when it may. */
export async function accountDeletionProblem(db: Db, userId: string): Promise<string | null> {
  const otherOwner = db
    .select({ id: member.id })
    .from(member)
    .where(
      and(eq(member.organizationId, organization.id), eq(member.role, "owner"), ne(member.userId, userId)),
    );
  const soleOwned = await db
    .select({ name: organization.name })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(member.role, "owner"), notExists(otherOwner)))
    .orderBy(asc(organization.name));
  if (soleOwned.length > 0) {
    const one = soleOwned.length === 1;
    return `You are the only owner of ${listOf(soleOwned.map((o) => o.name))}. Make another member ${one ? "its" : "their"} owner, or delete ${one ? "that organization" : "those organizations"}, before you delete your account.`;
  }
  const [self] = await db
    .select({ role: user.role, banned: user.banned })
    .from(user)
    .where(eq(user.id, userId));
  if (self?.role === "admin" && !self.banned) {
    const [other] = await db
      .select({ id: user.id })
      .from(user)
      .where(and(eq(user.role, "admin"), eq(user.banned, false), ne(user.id, userId)))
      .limit(1);
    if (!other) {
      return "You are the last platform admin. Make someone else an admin before you delete your account.";
    }
  }
  return null;
}

/** For `user.deleteUser.beforeDelete`: refuses with the reason, before anything is deleted. */
export function refuseUnsafeAccountDeletion(db: Db) {
  return async (target: { id: string }): Promise<void> => {
    const problem = await accountDeletionProblem(db, target.id);
    if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: ACCOUNT_DELETION_REFUSED });
  };
}
