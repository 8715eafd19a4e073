import "server-only";
import { APIError, getSessionFromCtx } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { MANAGER_ROLES, memberRoleOf } from "@/core/auth/roles";
import type { Db } from "../db/client";
import { member } from "../db/schema";
import { memberLimitProblem } from "../plan-limits";

/** Better Auth's own code for the member limit at acceptance, so both refusals read alike. */
export const MEMBER_LIMIT_CODE = "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED";

type InviteContext = Parameters<typeof getSessionFromCtx>[0] & { path?: string; body?: unknown };

/**
 * For `hooks.before` on `/organization/invite-member` (HTTP and `auth.api.createInvitation` alike):
 * the plan's member cap, counting members and pending invitations, as the app's invite action
 * checks it (Better Auth's `membershipLimit` only runs at acceptance). Checked only for a manager
 * of the organization, so nobody else learns its plan or size; anyone else is refused by Better
 * Auth's endpoint as before.
 */
export async function enforceInviteLimit(db: Db, ctx: InviteContext): Promise<void> {
  if (ctx.path !== "/organization/invite-member") return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return;
  const body = (ctx.body ?? {}) as { organizationId?: unknown };
  const organizationId =
    typeof body.organizationId === "string"
      ? body.organizationId
      : (session.session as { activeOrganizationId?: string | null }).activeOrganizationId;
  if (!organizationId) return;
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, session.user.id)));
  if (!row || !MANAGER_ROLES.includes(memberRoleOf(row.role))) return;
  const problem = await memberLimitProblem(db, organizationId, { countPending: true });
  if (problem) throw new APIError("FORBIDDEN", { message: problem, code: MEMBER_LIMIT_CODE });
}
