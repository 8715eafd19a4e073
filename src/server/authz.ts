import "server-only";
import { and, eq } from "drizzle-orm";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import {
  MANAGER_ROLES,
  MEMBER_ROLES,
  type MemberRole,
  memberRoleOf,
  type PlatformRole,
  platformRoleOf,
} from "@/core/auth/roles";
import type { OnboardingStep } from "@/core/onboarding/steps";
import { getAuth } from "./auth";
import type { Auth } from "./auth/auth";
import { type Db, getDb } from "./db/client";
import { ServiceUnavailableError } from "./db/errors";
import { member, organization, user } from "./db/schema";
import { isOutage } from "./health";

/**
 * The guards: the single place where access is decided. Every page, server action and endpoint
 * calls one. Identity comes from the Better Auth session; the user's role, onboarding state and
 * organization membership are re-read from the database on every call, never trusted from what
 * the session remembers.
 */

export type { MemberRole };

export type Viewer = {
  sessionId: string;
  impersonatedBy: string | null;
  activeOrganizationId: string | null;
  user: {
    id: string;
    name: string;
    email: string;
    emailVerified: boolean;
    role: PlatformRole;
    onboardingStep: OnboardingStep;
  };
};

export type OrgViewer = Viewer & {
  org: { id: string; name: string; slug: string };
  memberRole: MemberRole;
};

/** Loads the viewer for a request's headers, or null when signed out (or the user is banned). */
export async function loadViewer(db: Db, auth: Auth, requestHeaders: Headers): Promise<Viewer | null> {
  const session = await auth.api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const [row] = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      role: user.role,
      banned: user.banned,
      onboardingStep: user.onboardingStep,
    })
    .from(user)
    .where(eq(user.id, session.user.id));
  if (!row || row.banned) return null;
  const s = session.session as typeof session.session & {
    activeOrganizationId?: string | null;
    impersonatedBy?: string | null;
  };
  return {
    sessionId: s.id,
    impersonatedBy: s.impersonatedBy ?? null,
    activeOrganizationId: s.activeOrganizationId ?? null,
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      emailVerified: row.emailVerified,
      role: platformRoleOf(row.role),
      onboardingStep: row.onboardingStep,
    },
  };
}

/** The viewer's membership in an organization, read from the database. */
export async function loadMembership(db: Db, userId: string, organizationId: string | null) {
  if (!organizationId) return null;
  const [row] = await db
    .select({ role: member.role, id: organization.id, name: organization.name, slug: organization.slug })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)));
  if (!row) return null;
  return { org: { id: row.id, name: row.name, slug: row.slug }, memberRole: memberRoleOf(row.role) };
}

/** The signed-in viewer of this request, or null. Cached for the request. */
export const getViewer = cache(async (): Promise<Viewer | null> => {
  // Reading the headers first marks the page dynamic before anything touches the database.
  const requestHeaders = await headers();
  try {
    return await loadViewer(getDb(), getAuth(), requestHeaders);
  } catch (error) {
    // Pages show "temporarily unavailable" for this one (error.tsx), API routes answer 503.
    if (await isOutage(error)) throw new ServiceUnavailableError(error);
    throw error;
  }
});

function signInRedirect(path: string): never {
  redirect(`/sign-in?redirect_url=${encodeURIComponent(path)}`);
}

/**
 * A signed-in user. Anonymous visitors go to sign-in and come back to `path`. Users who have not
 * finished onboarding are sent to it, unless the page is part of it (`allowOnboarding`).
 */
export async function requireUser(
  path: string,
  options: { allowOnboarding?: boolean } = {},
): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) signInRedirect(path);
  if (!options.allowOnboarding && viewer.user.onboardingStep !== "done") redirect("/onboarding");
  return viewer;
}

export const VERIFY_EMAIL_ERROR =
  "Confirm your email address first: use the link we sent you (you can send a new one from your profile).";

/** Whether the viewer has confirmed their email address (needed to buy, create API keys, join). */
export function hasVerifiedEmail(viewer: Viewer): boolean {
  return viewer.user.emailVerified;
}

/**
 * A signed-in user whose email address is verified: checkout, API keys and accepting invitations
 * need one. Others are sent to their profile, which explains how to confirm the address. For
 * server actions and endpoints, check `hasVerifiedEmail` and answer with VERIFY_EMAIL_ERROR.
 */
export async function requireVerifiedEmail(path: string, options: { allowOnboarding?: boolean } = {}) {
  const viewer = await requireUser(path, options);
  if (!hasVerifiedEmail(viewer))
    redirect(`/user-profile/verify-email?redirect_url=${encodeURIComponent(path)}`);
  return viewer;
}

/**
 * A member of the active organization with one of `roles`. A member with a lesser role gets the
 * 404 page; a user without an active organization is sent to pick or create one.
 */
export async function requireOrgRole(path: string, roles: readonly MemberRole[]): Promise<OrgViewer> {
  const viewer = await requireUser(path);
  const membership = await loadMembership(getDb(), viewer.user.id, viewer.activeOrganizationId);
  // No active organization (the user left or deleted it): somewhere to create or pick one.
  if (!membership) redirect("/organization-profile");
  if (!roles.includes(membership.memberRole)) notFound();
  return { ...viewer, ...membership };
}

/**
 * A platform admin. Everyone else signed in gets the 404 page: the admin area does not reveal itself.
 * An impersonation session never reaches it, whoever is impersonated.
 */
export async function requireAdmin(path: string): Promise<Viewer> {
  const viewer = await requireUser(path);
  if (!isAdminViewer(viewer)) notFound();
  return viewer;
}

/** A platform admin in their own session: an impersonation session is never one, whoever is seen. */
export function isAdminViewer(viewer: Viewer): boolean {
  return viewer.user.role === "admin" && !viewer.impersonatedBy;
}

export const ALL_MEMBER_ROLES: readonly MemberRole[] = MEMBER_ROLES;
export { MANAGER_ROLES };
