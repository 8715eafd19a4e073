import "server-only";
import { eq } from "drizzle-orm";
import type { Result } from "@/core/result";
import type { AuditActor } from "../audit";
import type { Db } from "../db/client";
import { user } from "../db/schema";

/**
 * Who an admin may impersonate. It lives beside Better Auth's hooks, which enforce it on
 * `/admin/impersonate-user`; the administration feature shares the labels and messages.
 */

export const SELF_ERROR = "You cannot do that to your own account.";
export const NO_USER_ERROR = "That user no longer exists.";

/** How the audit log and the banner name a user. */
export const userLabel = (t: { name: string; email: string }) => `${t.name} <${t.email}>`;

/** The user an admin may impersonate: exists, not banned, not an admin, not the admin. */
export async function impersonationTarget(
  db: Db,
  actor: AuditActor,
  targetId: string,
): Promise<Result<{ id: string; label: string }>> {
  const [target] = await db.select().from(user).where(eq(user.id, targetId));
  if (!target) return { ok: false, error: NO_USER_ERROR };
  if (target.id === actor.id) return { ok: false, error: SELF_ERROR };
  if (target.role === "admin") return { ok: false, error: "Admins cannot be impersonated." };
  if (target.banned) return { ok: false, error: "A banned user cannot be impersonated; unban them first." };
  return { ok: true, data: { id: target.id, label: userLabel(target) } };
}
