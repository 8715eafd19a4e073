import "server-only";
import { asc, eq } from "drizzle-orm";
import { cache } from "react";
import type { MeSummary } from "@/core/auth/me";
import { getViewer, type Viewer } from "@/server/authz";
import { type Db, getDb } from "@/server/db/client";
import { member, organization } from "@/server/db/schema";

export type { MeSummary };

export async function loadMeSummary(db: Db, viewer: Viewer): Promise<MeSummary> {
  const organizations = await db
    .select({ id: organization.id, name: organization.name, slug: organization.slug, role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, viewer.user.id))
    .orderBy(asc(organization.name));
  const active = organizations.some((o) => o.id === viewer.activeOrganizationId)
    ? viewer.activeOrganizationId
    : null;
  return {
    user: {
      name: viewer.user.name,
      email: viewer.user.email,
      isAdmin: viewer.user.role === "admin",
      onboarded: viewer.user.onboardingStep === "done",
    },
    impersonating: viewer.impersonatedBy !== null,
    activeOrganizationId: active,
    organizations,
  };
}

/** The signed-in user's summary for this request (null when signed out), read once per request. */
export const currentMeSummary = cache(async (): Promise<MeSummary | null> => {
  const viewer = await getViewer();
  return viewer ? loadMeSummary(getDb(), viewer) : null;
});
