import "server-only";
import { APIError } from "better-auth/api";
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { member, organization } from "../db/schema";

/**
 * How many organizations one account may own (ORGANIZATIONS_PER_USER). Each organization has its
 * own free quota, so without a cap one account could multiply it at will. Owning is what counts:
 * being invited into other organizations never stops anyone from creating their own. Every path
 * that creates an organization (the app's onboarding and organization forms, and Better Auth's
 * `POST /api/auth/organization/create`) runs through Better Auth's create endpoint, which calls
 * both checks below.
 */
export const DEFAULT_ORGANIZATIONS_PER_USER = 5;

/** Better Auth's own code for this refusal, so every caller sees one code. */
export const ORGANIZATION_LIMIT_CODE = "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS";

export function organizationLimitMessage(limit: number): string {
  return `You already own ${limit === 1 ? "an organization" : `${limit} organizations`}, the most one account can own here. Delete one you no longer use, or make someone else its owner, then try again.`;
}

function refuse(limit: number): never {
  throw new APIError("FORBIDDEN", {
    message: organizationLimitMessage(limit),
    code: ORGANIZATION_LIMIT_CODE,
  });
}

/** For the organization plugin's `organizationLimit`: refuses before anything is written. */
export function organizationLimit(db: Db, limit: number) {
  return async (user: { id: string }): Promise<boolean> => {
    const [row] = await db
      .select({ n: count() })
      .from(member)
      .where(and(eq(member.userId, user.id), eq(member.role, "owner")));
    if ((row?.n ?? 0) >= limit) refuse(limit);
    return false;
  };
}

/**
 * For `organizationHooks.afterCreateOrganization`: the check above and Better Auth's insert are not
 * one transaction, so concurrent creates could all pass it. Counted again once the new owner row
 * exists, one request at a time (an advisory lock on the user): if the user now owns more than
 * `limit`, the new organization is removed again (its membership goes with it) and the request
 * refused. Ranking by creation time instead is not enough: a row stamped earlier can be inserted
 * later, after a younger one already counted itself within the limit, and both would stay.
 * Serialised, every organization that was kept is visible to every later count, so the cap holds
 * exactly; a row not yet decided may be counted too, which can only refuse, never over-admit.
 */
export function keepWithinOrganizationLimit(db: Db, limit: number) {
  return async ({ organization: created, user }: { organization: { id: string }; user: { id: string } }) => {
    const over = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`org-owner:${user.id}`}, 0))`);
      const [row] = await tx
        .select({ n: count() })
        .from(member)
        .where(and(eq(member.userId, user.id), eq(member.role, "owner")));
      if ((row?.n ?? 0) <= limit) return false;
      await tx.delete(organization).where(eq(organization.id, created.id));
      return true;
    });
    if (over) refuse(limit);
  };
}
